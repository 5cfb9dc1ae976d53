#define XLAT_RAW 1
#include "map_shadow_stack.c"
