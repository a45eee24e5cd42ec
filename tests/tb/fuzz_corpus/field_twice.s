sfpmad vd=1 vd=2
