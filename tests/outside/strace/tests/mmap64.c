#include "mmap.c"
