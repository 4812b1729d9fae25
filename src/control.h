/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --control fd:CTL[,ACK] and fifo:CTL[,ACK]: the channel a harness
 * drives counting through, and the commands read from it, as perf
 * stat's ("enable", "disable", "ping", a line each; "ack\n" back); and
 * --regions' channel to the command, which adds "begin NAME" and "end
 * NAME".
 */
#ifndef PSTAT_CONTROL_H
#define PSTAT_CONTROL_H

#include <stdbool.h>
#include <stddef.h>

/* The longest command line kept; the rest of a longer one is dropped. */
#define CONTROL_LINE_MAX 256

enum control_cmd {
	CONTROL_NONE,		/* no whole line left */
	CONTROL_ENABLE,
	CONTROL_DISABLE,
	CONTROL_PING,
	CONTROL_BEGIN,		/* "begin NAME": a region is entered */
	CONTROL_END,		/* "end NAME": and left */
	CONTROL_UNKNOWN,	/* ignored and not acknowledged, as perf */
};

struct control {
	bool fifo;		/* fifo: paths, else fd: numbers */
	const char *spec;	/* as given, for messages */
	char ctl_path[CONTROL_LINE_MAX], ack_path[CONTROL_LINE_MAX];
	int ctl_fd, ack_fd;	/* -1 when none (or closed) */
	bool own_fds;		/* opened here (fifo:), closed here */
	char line[CONTROL_LINE_MAX];
	size_t len;		/* bytes of line held */
	bool overlong;		/* dropping the rest of a too long line */
	char arg[CONTROL_LINE_MAX];	/* "enable NAME": the name, or "" */
};

/*
 * The spec's syntax only: "fd:N[,M]" or "fifo:PATH[,PATH]". 0, or
 * -EINVAL with a one-line reason in err.
 */
int control_parse(struct control *c, const char *spec, char *err,
		  size_t len);

/*
 * --regions' channel: two pipes, the commands' and the acks', c's ends
 * pstat's (non-blocking, as a harness's), the command's in child: the
 * one it writes its commands to (PSTAT_CTL_FD), the one it reads the
 * acks from (PSTAT_ACK_FD). All close on exec (the child keeps its
 * own: spawn.h). Pipes: a round trip costs half a socket pair's. 0 or
 * -errno.
 */
int control_channel(struct control *c, int child[2]);

/*
 * Open the fifos (read and write, non-blocking, so that neither end
 * needs the other yet) with the user's rights, refusing what is not a
 * FIFO, or check that fd:'s descriptors are open. 0, or -errno with a
 * one-line reason in err.
 */
int control_open(struct control *c, char *err, size_t len);
void control_close(struct control *c);

/*
 * Read what the channel holds now (one read: poll said it is ready).
 * 0, 1 at end of file (its writers are gone), or -errno.
 */
int control_read(struct control *c);

/*
 * Take bytes as if read: for control_read and the unit tests. Lines
 * end at '\n' or '\0'.
 */
void control_feed(struct control *c, const char *bytes, size_t n);

/*
 * The next whole command, or CONTROL_NONE; "enable NAME", "disable
 * NAME", "begin NAME" and "end NAME" leave NAME in c->arg ("begin" and
 * "end" without one are CONTROL_UNKNOWN).
 */
enum control_cmd control_next(struct control *c);

/*
 * "ack\n" on the ack channel, if there is one, never waiting: 0, or
 * -errno when it was dropped (-EAGAIN: the channel is full).
 */
int control_ack(struct control *c);

#endif
