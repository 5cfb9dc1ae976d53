#define XLAT_RAW 1
/* NB: prctl-sme.c supports both SVE and SME */
#define EXT SVE
#include "prctl-sme.c"
