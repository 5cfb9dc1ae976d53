#define XLAT_RAW 1
#include "mbind.c"
