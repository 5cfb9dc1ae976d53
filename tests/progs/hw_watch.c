// SPDX-License-Identifier: GPL-2.0
/*
 * hw_watch: writes a global word three times, in user code, and prints it.
 * replay_gdbserver runs it natively under gdb with a hardware watchpoint
 * on `word` to learn whether this machine's debug registers trigger, and
 * checks fr_debugregs_trigger() says the same.
 */
#include <stdio.h>

volatile unsigned long word;

int main(void)
{
	int i;

	for (i = 1; i <= 3; i++)
		word = (unsigned long)i * 7;
	printf("%lu\n", word);
	return 0;
}
