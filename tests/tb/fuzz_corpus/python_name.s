TTI_SFPLOADI(0, 0, __import__);
