#define STRACE_X 1
#include "strace-x.c"
