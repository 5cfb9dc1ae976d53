#include "pidfd_open.c"
