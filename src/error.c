/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Why a module refused its input: the words, into the caller's buffer. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "error.h"

int error_say(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}
