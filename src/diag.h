/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pstat's own messages on stderr: "pstat: " first, one line each. */
#ifndef PSTAT_DIAG_H
#define PSTAT_DIAG_H

#include <stdbool.h>
#include <stdio.h>

/*
 * Where the messages go: f (main's is dest_stderr's stream), stderr
 * until it is said. diag_stream: that stream, for what must come in
 * order with the messages (the progress line, results on stderr).
 */
void diag_to(FILE *f);
FILE *diag_stream(void);

/*
 * Every message is one line: control characters in it (a tab aside),
 * from a name or a line the user gave, are written as C escapes.
 */

/* Something failed: always said. */
void diag_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Something failed with errno err: "pstat: WORDS: strerror(err)". */
void diag_errno(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

struct error;

/*
 * Why opt's text was refused (error.h): the reason and the hint, then
 * the text, with a caret under the column at fault.
 */
void diag_report(const struct error *e, const char *opt);

/*
 * What is not a failure: a note ("pstat: note: ...") about the counts,
 * and a notice ("pstat: ...") of how the command ended. Both are left
 * out once diag_quiet(true) said that stderr carries machine-readable
 * results, whose rows already hold the same facts.
 */
void diag_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void diag_notice(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void diag_quiet(bool quiet);

/* Whether notes are said: skip the work of wording them when not. */
bool diag_notes_on(void);

/*
 * -v given level times: lines of diag_verbose at that level or below
 * are said, unless notes are not (diag_quiet): they never go into
 * machine output.
 */
void diag_set_verbose(int level);
bool diag_verbose_on(int level);
void diag_verbose(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
