/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pstat's own messages on stderr: "pstat: " first, one line each. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "diag.h"

static bool quiet;
static int verbose;
static FILE *out;	/* NULL: stderr */

void diag_to(FILE *f)
{
	out = f;
}

FILE *diag_stream(void)
{
	return out ? out : stderr;
}

static void __attribute__((format(printf, 2, 0)))
say(const char *prefix, const char *fmt, va_list ap)
{
	FILE *f = diag_stream();

	fputs(prefix, f);
	vfprintf(f, fmt, ap);
	fputc('\n', f);
	(void)fflush(f);
}

void diag_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("pstat: ", fmt, ap);
	va_end(ap);
}

void diag_errno(int err, const char *fmt, ...)
{
	FILE *f = diag_stream();
	va_list ap;

	fputs("pstat: ", f);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fprintf(f, ": %s\n", strerror(err));
	(void)fflush(f);
}

void diag_detail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("       ", fmt, ap);
	va_end(ap);
}

void diag_note(const char *fmt, ...)
{
	va_list ap;

	if (quiet)
		return;
	va_start(ap, fmt);
	say("pstat: note: ", fmt, ap);
	va_end(ap);
}

void diag_notice(const char *fmt, ...)
{
	va_list ap;

	if (quiet)
		return;
	va_start(ap, fmt);
	say("pstat: ", fmt, ap);
	va_end(ap);
}

void diag_quiet(bool q)
{
	quiet = q;
}

bool diag_notes_on(void)
{
	return !quiet;
}

void diag_set_verbose(int level)
{
	verbose = level;
}

bool diag_verbose_on(int level)
{
	return !quiet && verbose >= level;
}

void diag_verbose(const char *fmt, ...)
{
	va_list ap;

	if (quiet || !verbose)
		return;
	va_start(ap, fmt);
	say("pstat: ", fmt, ap);
	va_end(ap);
}
