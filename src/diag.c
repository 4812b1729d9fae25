/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pstat's own messages on stderr: "pstat: " first, one line each. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "diag.h"
#include "error.h"

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

/*
 * A message, formatted here: in static storage, as a path fits twice,
 * not on the stack (diag.h's callers run deep). Cut with "..." beyond.
 */
static char text[2 * PATH_MAX + 512];

/*
 * The bytes of s as they are, but for control characters (a tab
 * aside): a name or a line the user gave may hold a line break or a
 * terminal's escape, and a message stays one line, and text. Each
 * becomes \n, \r or \xHH, as C writes them. The columns it took.
 */
static size_t put_escaped(FILE *f, const char *s, size_t n)
{
	size_t i, cols = 0;
	unsigned char c;

	for (i = 0; i < n; i++) {
		c = (unsigned char)s[i];
		if ((c >= 0x20 && c != 0x7f) || c == '\t') {
			fputc(c, f);
			cols++;
		} else if (c == '\n' || c == '\r') {
			fputs(c == '\n' ? "\\n" : "\\r", f);
			cols += 2;
		} else {
			fprintf(f, "\\x%02x", c);
			cols += 4;
		}
	}
	return cols;
}

static void __attribute__((format(printf, 2, 0)))
vformat(const char *suffix, const char *fmt, va_list ap)
{
	int n = vsnprintf(text, sizeof(text), fmt, ap);

	if (n < 0)
		snprintf(text, sizeof(text), "(a message that could not be written)");
	else if ((size_t)n >= sizeof(text))
		memcpy(text + sizeof(text) - 4, "...", 4);
	if (suffix) {
		n = (int)strlen(text);
		snprintf(text + n, sizeof(text) - (size_t)n, "%s", suffix);
	}
}

static void say_text(const char *prefix)
{
	FILE *f = diag_stream();

	fputs(prefix, f);
	put_escaped(f, text, strlen(text));
	fputc('\n', f);
	(void)fflush(f);
}

static void __attribute__((format(printf, 2, 0)))
say(const char *prefix, const char *fmt, va_list ap)
{
	vformat(NULL, fmt, ap);
	say_text(prefix);
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
	char why[256];
	va_list ap;

	snprintf(why, sizeof(why), ": %s", strerror(err));
	va_start(ap, fmt);
	vformat(why, fmt, ap);
	va_end(ap);
	say_text("pstat: ");
}

void diag_report(const struct error *e, const char *opt)
{
	FILE *f = diag_stream();
	size_t col;

	if (e->hint[0])
		diag_error("%s%s (%s)", e->where, e->reason, e->hint);
	else
		diag_error("%s%s", e->where, e->reason);
	if (!e->spec)
		return;
	/* The caret under the column, counted as the spec is shown. */
	fprintf(f, "       %s ", opt);
	col = put_escaped(f, e->spec, e->col);
	put_escaped(f, e->spec + e->col, strlen(e->spec + e->col));
	fprintf(f, "\n       %*s^\n", (int)(strlen(opt) + 1 + col), "");
	(void)fflush(f);
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
