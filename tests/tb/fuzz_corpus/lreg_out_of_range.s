.lreg 9 1
