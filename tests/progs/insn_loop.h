/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The loop of the hardware tests (insn_loop.c, regions.c): N iterations
 * of exactly two instructions (subs; b.ne on aarch64, dec; jnz on
 * x86_64), LOOP_INSNS each; 0 where no loop is known.
 */
#ifndef PSTAT_TESTS_INSN_LOOP_H
#define PSTAT_TESTS_INSN_LOOP_H

#if defined(__aarch64__) || defined(__x86_64__)
#define LOOP_INSNS 2
#else
#define LOOP_INSNS 0
#endif

/* Exactly two instructions an iteration, whatever the compiler does. */
static void loop(unsigned long n)
{
	if (!n)
		return;
#if defined(__aarch64__)
	__asm__ volatile("1: subs %0, %0, #1\n\tb.ne 1b" : "+r"(n) : : "cc");
#elif defined(__x86_64__)
	__asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n) : : "cc");
#else
	volatile unsigned long i;

	for (i = 0; i < n; i++)
		;
#endif
}

#endif
