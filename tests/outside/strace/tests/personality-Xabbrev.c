#include "personality.c"
