.word 0xFFFFFFFFF
.word -1
