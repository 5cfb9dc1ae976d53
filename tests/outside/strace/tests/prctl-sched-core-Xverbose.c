#define XLAT_VERBOSE 1
#include "prctl-sched-core.c"
