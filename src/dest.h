/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where the results go (stderr, -o FILE, --log-fd): a stream that a
 * reader that stops reading never wedges. */
#ifndef PSTAT_DEST_H
#define PSTAT_DEST_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

/*
 * A stream that writes to fd, and closes it at fclose when owned. A
 * write waits for a slow reader (a pipe, a FIFO, a terminal), but not
 * once one of the signals of stop is pending (they are blocked): that
 * write and every later one then fail with EINTR, and the signal stays
 * pending, for the command or pstat's status. A signal the caller
 * ignores is dropped, and the wait goes on. NULL with errno on failure.
 */
FILE *dest_open(int fd, bool owned, const sigset_t *stop);

/*
 * -o FILE for a format whose every section is a whole document
 * (--format=openmetrics), as such a stream: it writes FILE.tmp beside
 * FILE, opened now with the user's rights, and dest_publish moves that
 * over FILE in one rename(2), so that a reader (a textfile collector)
 * sees one whole document or the one before, never part of one; the
 * next write starts a new FILE.tmp. What was never published is
 * removed at fclose. One such stream at a time (else EBUSY). NULL
 * with errno on failure.
 */
FILE *dest_open_replacing(const char *path, const sigset_t *stop);

/*
 * What f has written since the last publish, flushed by the caller,
 * made FILE: 0, or -errno. Nothing for another stream, or when nothing
 * was written since.
 */
int dest_publish(const FILE *f);

/*
 * pstat's stderr as such a stream, made at the first call and kept to
 * the end (exit flushes it): pstat's own messages (diag.h) and the
 * results meant for stderr share it, in the order they were written.
 * stdio's stderr where the stream cannot be made.
 */
FILE *dest_stderr(const sigset_t *stop);

/* The end of dest_stderr's stream, the last thing main does. */
void dest_stderr_close(void);

/*
 * The end of a stream of dest_open or dest_stderr: fclose(3)'s, but
 * dest_stderr's is flushed, not closed. 0, or EOF with errno.
 */
int dest_finish(FILE *f);

/* The signal for which a stream of dest_open gave up its writes, or 0. */
int dest_stalled(void);

#endif
