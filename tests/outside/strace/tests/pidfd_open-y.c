#define PRINT_PATHS
#include "pidfd_open.c"
