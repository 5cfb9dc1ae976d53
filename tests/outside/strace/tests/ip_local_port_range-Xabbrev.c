#define XLAT_ABBREV 1
#include "ip_local_port_range.c"
