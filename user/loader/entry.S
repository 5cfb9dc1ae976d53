/* SPDX-License-Identifier: GPL-2.0 */
/* The loader's entry points that C cannot express. */

	.text

/* The kernel enters here with rsp at argc, argv[], envp[], auxv[]. */
	.globl _start
	.type _start, @function
_start:
	xor	%ebp, %ebp
	mov	%rsp, %rdi
	and	$-16, %rsp
	call	loader_main
	hlt
	.size _start, . - _start

/* void switch_stack(void *sp, void (*fn)(void *), void *arg): never returns */
	.globl switch_stack
	.type switch_stack, @function
switch_stack:
	mov	%rdi, %rsp
	mov	%rdx, %rdi
	xor	%ebp, %ebp
	call	*%rsi
	hlt
	.size switch_stack, . - switch_stack

/* The sa_restorer of the loader's handlers: rt_sigreturn from loader text. */
	.globl fr_restorer
	.type fr_restorer, @function
fr_restorer:
	mov	$15, %eax
	syscall
	hlt
	.size fr_restorer, . - fr_restorer

/*
 * void fr_enter_app(void *uc): rt_sigreturn into the application from a
 * frame the loader built; uc is &frame->uc (the kernel reads the frame at
 * rsp - 8, where pretcode would have been).  `flightrec gdb` stops at
 * fr_sigreturn_insn and single-steps once: the next stop is the first
 * instruction of the application.
 */
	.globl fr_enter_app
	.globl fr_sigreturn_insn
	.type fr_enter_app, @function
fr_enter_app:
	mov	%rdi, %rsp
	mov	$15, %eax
fr_sigreturn_insn:
	syscall
	hlt
	.size fr_enter_app, . - fr_enter_app

/*
 * long fr_clone_thread(unsigned long flags, void *stack, void (*fn)(void *),
 *			void *arg)
 * clone(2) for a loader thread: the child calls fn(arg) on `stack` and must
 * never return.  Returns the child's tid or -errno in the parent.
 */
	.globl fr_clone_thread
	.type fr_clone_thread, @function
fr_clone_thread:
	sub	$16, %rsi		/* fn and arg on top of the child's stack */
	mov	%rdx, (%rsi)
	mov	%rcx, 8(%rsi)
	mov	$56, %eax		/* clone(flags, stack, ptid=0, ctid=0, tls=0) */
	xor	%edx, %edx
	xor	%r10d, %r10d
	xor	%r8d, %r8d
	syscall
	test	%rax, %rax
	jnz	1f
	/* child: rsp is the new stack */
	xor	%ebp, %ebp
	pop	%rax
	pop	%rdi
	call	*%rax
	hlt
1:	ret
	.size fr_clone_thread, . - fr_clone_thread

/*
 * The gdbserver's snapshots (issue 27 item 2; user/cmd/gdbserver.c): it
 * points a stopped thread here with clone's arguments in its registers
 * (fork: flags SIGCHLD, the filter hands it to the gdbserver) and lets it
 * run to the int3.  Never called.
 */
	.globl fr_snap_syscall
	.globl fr_snap_trap
	.type fr_snap_syscall, @function
fr_snap_syscall:
	syscall
fr_snap_trap:
	int3
	hlt
	.size fr_snap_syscall, . - fr_snap_syscall

	.section .note.GNU-stack, "", @progbits
