sfpmad vd=1 va=1 vb=1 vc=1
sfpmad vd=2 va=1 vb=1 vc=1
