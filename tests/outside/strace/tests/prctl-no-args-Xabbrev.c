#define XLAT_ABBREV 1
#include "prctl-no-args.c"
