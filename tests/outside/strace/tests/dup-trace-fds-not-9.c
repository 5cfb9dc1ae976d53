#define TRACE_FDS  1
#define TRACE_FD_0 1
#define TRACE_OTHER_FDS 1
#include "dup.c"
