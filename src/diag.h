/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pstat's own messages on stderr: "pstat: " first, one line each. */
#ifndef PSTAT_DIAG_H
#define PSTAT_DIAG_H

void diag_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void diag_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A continuation line under a message (a spec and its caret). */
void diag_detail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
