/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Why a module refused its input: the words, into the caller's buffer. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "error.h"

int error_say(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int error_vset(struct error *e, const char *spec, size_t col,
	       const char *hint, const char *fmt, va_list ap)
{
	e->where[0] = '\0';
	e->spec = spec;
	e->col = col;
	e->buf = NULL;
	vsnprintf(e->reason, sizeof(e->reason), fmt, ap);
	snprintf(e->hint, sizeof(e->hint), "%s", hint ? hint : "");
	return -EINVAL;
}

int error_at(struct error *e, size_t col, const char *hint, const char *fmt,
	     ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = error_vset(e, NULL, col, hint, fmt, ap);
	va_end(ap);
	return ret;
}

void error_fini(struct error *e)
{
	free(e->buf);
	e->buf = NULL;
	e->spec = NULL;
}
