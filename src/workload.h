/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The command: found on $PATH, started (spawn.c), held on a pipe until
 * counting is ready, waited for. */
#ifndef PSTAT_WORKLOAD_H
#define PSTAT_WORKLOAD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "spawn.h"

/* The command pstat runs: opaque; workload_new and workload_free. */
struct workload;

/* A workload with nothing started yet; NULL when out of memory. */
struct workload *workload_new(void);

/* Whatever is left of w aborted (workload_abort), then freed; NULL-safe. */
void workload_free(struct workload *w);

/*
 * What the command (each workload_prepare's child) gets beside what
 * pstat's caller gave: fds open across its exec (-1: none) and envp as
 * its environment (NULL: the caller's). Both must outlive w's runs.
 */
void workload_pass(struct workload *w, const int fds[2], char *const *envp);

/*
 * The caller's environment with vars ("NAME=VALUE", NULL-ended) set,
 * replacing those names: an array to free (the strings are not
 * copied), or NULL when out of memory.
 */
char **workload_environ_with(char *const *vars);

/* Its child, 0 before workload_prepare and once reaped. */
pid_t workload_pid(const struct workload *w);

/* The file the child executes, found on $PATH; NULL when there is none. */
const char *workload_path(const struct workload *w);

/* After workload_wait: the child's wait status and resource usage. */
int workload_status(const struct workload *w);
const struct rusage *workload_rusage(const struct workload *w);

/* The last signal passed on to the child, or 0. */
int workload_signalled(const struct workload *w);

/* How long a command has after the SIGTERM of --timeout, or after a
 * second SIGINT or SIGTERM, before SIGKILL. */
#define WORKLOAD_GRACE_MS 2000

/*
 * First thing in main, before anything else: block the signals pstat
 * passes on (workload_watch_signals), so that none ends pstat before
 * it can pass it on; ignore SIGPIPE, so that a closed output is an
 * error pstat sees, and give SIGCHLD its default, so that the command
 * can be waited for; and keep what the caller gave pstat that it
 * changes, which the command gets back: the signal mask, those
 * dispositions and, when pstat runs with privileges (caps_elevated),
 * the environment as execve(2) passed it, before the C library's
 * secure mode took variables out. A signal the caller ignores, pstat
 * ignores too: it is not passed on. 0, or -errno when that environment
 * could not be found: the command then gets environ as it is. (What
 * fails with signals fails again, and is said, in workload_prepare.)
 */
int workload_init(void);

/*
 * The caller's signal mask again, for what runs no command or may wait
 * long before there is one (an event file from a pipe): a signal
 * blocked since workload_init does what it would have. Blocked again
 * by workload_block_signals. 0 or -errno.
 */
int workload_unblock_signals(void);
int workload_block_signals(void);

/* What a watch says once its descriptor was ready. */
enum workload_watch_next {
	WORKLOAD_WATCH_ON,	/* go on watching it */
	WORKLOAD_WATCH_OFF,	/* stop watching it */
	WORKLOAD_WAIT_DONE,	/* stop waiting (when there is no child) */
};

/* A descriptor to watch while waiting, and what to do when it is ready. */
struct workload_watch {
	int fd;
	enum workload_watch_next (*ready)(void *arg);
	void *arg;
};

/*
 * Find argv[0] as execvp(3) would (workload_resolve), then start the
 * child (spawn_start: clone with CLONE_VM, or fork), which waits for
 * workload_start before it executes that file. w must not be freed
 * until workload_start returned or workload_abort: the child reads it.
 * From here on the signals of workload_watch_signals sent to pstat are
 * passed on to the child while pstat waits for it. 0 or -errno.
 */
int workload_prepare(struct workload *w, char *const argv[]);

/*
 * Let the child exec. With wait_exec, 0 once the exec succeeded, or the
 * positive errno of the failed exec (the child has then exited and been
 * reaped). Without, 0 at once: pstat sleeps once, not twice, before the
 * command ends, and workload_exec_error tells after workload_wait (and
 * closes the pipe the child waited on, which stays open till then).
 * Then w must stay where it is until workload_wait returned: the child
 * reads it until its exec. -errno when the child could not be told.
 */
int workload_start(struct workload *w, bool wait_exec);

/* After workload_wait, when workload_start did not wait for the exec:
 * the positive errno of the exec that failed, or 0. Call it once the
 * child is gone, whatever workload_wait returned: it closes the pipes. */
int workload_exec_error(struct workload *w);

/*
 * Pass on every signal whose default ends a process, but SIGKILL and
 * those about pstat itself (its faults, SIGXCPU, SIGXFSZ, SIGPIPE):
 * SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM,
 * SIGVTALRM, SIGPROF, SIGPOLL, SIGPWR, SIGSTKFLT and the real-time
 * signals. They are blocked and read from a signalfd by workload_wait.
 * workload_prepare does it; call it alone to wait with no command.
 * 0 or -errno.
 */
int workload_watch_signals(struct workload *w);

/*
 * Wait for the child to end, passing signals on and serving the
 * watches; WORKLOAD_GRACE_MS after a second SIGINT or SIGTERM, SIGKILL
 * the child. With no child (after workload_watch_signals alone), wait
 * until one of those signals arrives, in signalled, or a watch says 2.
 * 0 or -errno.
 */
int workload_wait(struct workload *w, struct workload_watch *watch,
		  size_t n_watch);

/* The signals of workload_watch_signals, which end pstat when no
 * command takes them: all it blocks but SIGCHLD. */
void workload_stop_signals(sigset_t *set);

/*
 * A signal of workload_watch_signals that came while none was passed
 * on (before the command was let go, between runs, after its end),
 * taken now, or 0. One the caller ignores is dropped, as pass_signal
 * drops it.
 */
int workload_pending_signal(void);

/* The child will never exec: make it exit and reap it; with no child,
 * only stop watching signals. */
void workload_abort(struct workload *w);

/*
 * Where execvp(3) would find file: a name with a '/' is used as it is;
 * else each directory of $PATH in turn (/bin:/usr/bin without one; an
 * empty one is the current directory), skipping what the user may not
 * execute. 0 with the path in buf, or -ENOENT, or -EACCES when only
 * files the user may not execute have that name, or another -errno of
 * a lookup.
 */
int workload_resolve(const char *file, char *buf, size_t len);

/* Why executing a file stops the counting of the process. */
struct workload_stop {
	enum workload_stop_why {
		WORKLOAD_COUNTED,	/* it does not */
		WORKLOAD_SETUID,	/* set-user-ID to another user */
		WORKLOAD_SETGID,	/* set-group-ID to another group */
		WORKLOAD_UNREADABLE,	/* executable, not readable, by the user */
	} why;
	uid_t uid;		/* the file's owner */
	gid_t gid;		/* and group */
};

/*
 * Whether the kernel stops counting the command when it executes path
 * (as workload_resolve found it), and why, into *stop. Set-ID bits count
 * only where the kernel honours them: not for a #! script, on a nosuid
 * mount, or under no_new_privs.
 */
bool workload_exec_stops(const char *path, struct workload_stop *stop);

#endif
