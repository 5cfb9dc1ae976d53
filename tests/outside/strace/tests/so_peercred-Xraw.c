#define XLAT_RAW 1
#include "so_peercred.c"
