/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Allocation failures on demand (alloc_fail.h). */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "alloc_fail.h"

long alloc_calls, alloc_fail_at;

static bool fail_now(void)
{
	if (++alloc_calls != alloc_fail_at)
		return false;
	errno = ENOMEM;
	return true;
}

void *__wrap_malloc(size_t n)
{
	return fail_now() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
	return fail_now() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
	return fail_now() ? NULL : __real_realloc(p, n);
}
