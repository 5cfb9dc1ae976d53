#define PATH_TRACING
#include "fspick.c"
