#include "utimensat.c"
