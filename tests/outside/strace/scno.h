/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 * strace generates scno.h from its syscall tables; glibc's list of __NR_
 * names is enough for the vendored tests (flightrec's, not strace's),
 * with the x86_64 numbers glibc 2.36 does not name yet, as strace's
 * src/linux/generic/syscallent-common.h numbers them (x86_64's BASE_NR is
 * 0): the tests of calls newer than the test kernel probe them and get
 * ENOSYS there (issue 25, class 1).
 */
#include <sys/syscall.h>
#ifndef __NR_cachestat
# define __NR_cachestat 451
#endif
#ifndef __NR_fchmodat2
# define __NR_fchmodat2 452
#endif
#ifndef __NR_map_shadow_stack
# define __NR_map_shadow_stack 453
#endif
#ifndef __NR_futex_wake
# define __NR_futex_wake 454
#endif
#ifndef __NR_futex_wait
# define __NR_futex_wait 455
#endif
#ifndef __NR_futex_requeue
# define __NR_futex_requeue 456
#endif
#ifndef __NR_statmount
# define __NR_statmount 457
#endif
#ifndef __NR_listmount
# define __NR_listmount 458
#endif
#ifndef __NR_lsm_get_self_attr
# define __NR_lsm_get_self_attr 459
#endif
#ifndef __NR_lsm_set_self_attr
# define __NR_lsm_set_self_attr 460
#endif
#ifndef __NR_lsm_list_modules
# define __NR_lsm_list_modules 461
#endif
#ifndef __NR_mseal
# define __NR_mseal 462
#endif
#ifndef __NR_setxattrat
# define __NR_setxattrat 463
#endif
#ifndef __NR_getxattrat
# define __NR_getxattrat 464
#endif
#ifndef __NR_listxattrat
# define __NR_listxattrat 465
#endif
#ifndef __NR_removexattrat
# define __NR_removexattrat 466
#endif
#ifndef __NR_open_tree_attr
# define __NR_open_tree_attr 467
#endif
#ifndef __NR_file_getattr
# define __NR_file_getattr 468
#endif
#ifndef __NR_file_setattr
# define __NR_file_setattr 469
#endif
#ifndef __NR_listns
# define __NR_listns 470
#endif
