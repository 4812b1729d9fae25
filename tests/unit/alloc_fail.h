/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Allocation failures on demand, for the suites linked with
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc (Makefile.am):
 * alloc_calls counts the allocations since the suite set it to 0, and
 * the alloc_fail_at-th (0: none) fails with ENOMEM.
 */
#ifndef PSTAT_ALLOC_FAIL_H
#define PSTAT_ALLOC_FAIL_H

#include <stddef.h>

extern long alloc_calls, alloc_fail_at;

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);

#endif
