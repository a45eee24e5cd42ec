TTI_SFPNOP;
/* a comment
over two lines */ TTI_SFPNOP;
/* never closed
TTI_SFPNOP;
