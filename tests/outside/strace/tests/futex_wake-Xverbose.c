#define XLAT_VERBOSE 1
#include "futex_wake.c"
