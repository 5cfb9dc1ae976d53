#define VERBOSE 1
#include "ioctl_gpio.c"
