#define XLAT_RAW 1
#include "clone3.c"
