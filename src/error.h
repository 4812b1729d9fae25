/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Why a module refused its input: the words, into the caller's buffer. */
#ifndef PSTAT_ERROR_H
#define PSTAT_ERROR_H

#include <limits.h>
#include <stdarg.h>
#include <stddef.h>

/*
 * Why an event, a spec or a file was refused, and where: what the parser
 * and event.c fill and main says (diag_report). Large (a path fits in
 * each part): one per process, never on the stack, where every deeper
 * frame would run on pages of their own.
 */
struct error {
	char where[PATH_MAX + 32];	/* "FILE:LINE: " or empty */
	char reason[PATH_MAX + 256];
	char hint[256];		/* may be empty */
	const char *spec;	/* the text at fault, to show; NULL: none */
	size_t col;		/* byte offset of the fault in spec */
	char *buf;		/* what spec points into, when it is ours */
};

/*
 * The reason and a hint (NULL: none) at col of a text not named yet
 * (spec NULL): the caller that has the whole text adds its offset to
 * col and sets spec. -EINVAL.
 */
int error_at(struct error *e, size_t col, const char *hint, const char *fmt,
	     ...) __attribute__((format(printf, 4, 5)));

/* error_at's with a va_list, and the text at fault (spec, NULL: none). */
int error_vset(struct error *e, const char *spec, size_t col,
	       const char *hint, const char *fmt, va_list ap)
	__attribute__((format(printf, 5, 0)));

/* Frees what e owns (buf); e may be filled again. */
void error_fini(struct error *e);

/*
 * fmt's words into err, len bytes with the NUL, cut to fit: -EINVAL,
 * what a module returns for input it refuses (main says the words).
 */
int error_say(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
