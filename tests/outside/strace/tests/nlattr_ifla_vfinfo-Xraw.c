#define XLAT_RAW 1
#include "nlattr_ifla_vfinfo.c"
