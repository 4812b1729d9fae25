/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The command: forked, held on a pipe until counting is ready, waited for. */
#ifndef PSTAT_WORKLOAD_H
#define PSTAT_WORKLOAD_H

#include <sys/resource.h>
#include <sys/types.h>

struct workload {
	pid_t pid;		/* 0 before prepare and after wait */
	int go_fd;		/* write end of the pipe the child waits on */
	int err_fd;		/* read end of the exec-error pipe */
	int sig_fd;		/* signalfd of the signals passed on */
	int pid_fd;		/* pidfd of the child, -1 where unsupported */
	int status;		/* from wait4 */
	struct rusage ru;
	int signalled;		/* the last signal passed on, or 0 */
};

/*
 * A descriptor to watch while waiting, and what to do when it is ready:
 * return 0 to go on watching it, 1 to stop watching it, 2 to stop
 * waiting (when there is no child to wait for).
 */
struct workload_watch {
	int fd;
	int (*ready)(void *arg);
	void *arg;
};

/*
 * Fork the child, which waits for workload_start before it execs argv.
 * From here on SIGINT, SIGTERM, SIGHUP and SIGQUIT sent to pstat are
 * passed on to the child while pstat waits for it. 0 or -errno.
 */
int workload_prepare(struct workload *w, char *const argv[]);

/*
 * Let the child exec. 0 once the exec succeeded, or the positive errno
 * of the failed exec (the child has then exited and been reaped), or
 * -errno when the child could not be told.
 */
int workload_start(struct workload *w);

/*
 * Pass on SIGINT, SIGTERM, SIGHUP and SIGQUIT: they are blocked and read
 * from a signalfd by workload_wait. workload_prepare does it; call it
 * alone to wait with no command. 0 or -errno.
 */
int workload_watch_signals(struct workload *w);

/*
 * Wait for the child to end, passing signals on and serving the
 * watches. With no child (after workload_watch_signals alone), wait
 * until one of those signals arrives, in signalled, or a watch says 2.
 * 0 or -errno.
 */
int workload_wait(struct workload *w, struct workload_watch *watch,
		  size_t n_watch);

/* The child will never exec: make it exit and reap it; with no child,
 * only stop watching signals. */
void workload_abort(struct workload *w);

#endif
