#define XLAT_RAW 1
#include "remap_file_pages.c"
