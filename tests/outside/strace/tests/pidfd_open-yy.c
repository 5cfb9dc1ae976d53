#define PRINT_PIDFD 1
#include "pidfd_open-y.c"
