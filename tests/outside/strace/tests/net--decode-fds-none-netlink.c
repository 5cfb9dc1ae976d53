#define PRINT_SOCK 0
#include "net-yy-netlink.c"
