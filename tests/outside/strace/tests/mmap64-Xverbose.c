#define XLAT_VERBOSE 1
#include "mmap64.c"
