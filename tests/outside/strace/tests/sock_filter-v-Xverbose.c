#define XLAT_VERBOSE 1
#include "sock_filter-v.c"
