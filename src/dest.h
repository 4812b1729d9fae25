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

/* The signal for which a stream of dest_open gave up its writes, or 0. */
int dest_stalled(void);

#endif
