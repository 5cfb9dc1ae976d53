#define PATH_TRACING
#include "move_mount.c"
