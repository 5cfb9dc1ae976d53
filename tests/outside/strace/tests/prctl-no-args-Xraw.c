#define XLAT_RAW 1
#include "prctl-no-args.c"
