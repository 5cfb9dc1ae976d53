#define XLAT_NAME(s_) s_##_abbrev
#include "printxval.c"
