/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The held child: started with clone(CLONE_VM) or fork, it waits on a
 * pipe, drops pstat's privileges and executes the command. */
#ifndef PSTAT_SPAWN_H
#define PSTAT_SPAWN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "caps.h"

/* The dispositions the child gives back, at most. */
#define SPAWN_MAX_SIGS 4

/*
 * Everything the child reads, in memory that stays as it is until the
 * child has executed the command or exited: the child shares pstat's
 * memory (clone with CLONE_VM), so it writes none and calls nothing
 * that would (errno, locks, the allocator), only system calls.
 */
struct spawn {
	int go_rd, go_wr;	/* the child waits for a byte on go_rd */
	int err_rd, err_wr;	/* and writes its exec's errno to err_wr */
	const char *path;	/* the file to execute */
	int exec_err;		/* or why there is none */
	char *const *argv;
	char *const *sh_argv;	/* for a file the kernel cannot execute */
	char *const *envp;
	int keep_fds[2];	/* the descriptors the command keeps
				 * (--regions' channel), or -1 */
	sigset_t mask;		/* the command's signal mask */
	size_t n_sigs;		/* and these dispositions, SIG_DFL or SIG_IGN */
	int sigs[SPAWN_MAX_SIGS];
	void (*handlers[SPAWN_MAX_SIGS])(int);
	struct caps_drop drop;	/* pstat's privileges, gone before exec */
};

/*
 * Whether the child is forked rather than cloned with CLONE_VM: where
 * the build cannot (an architecture without raw system calls here, or
 * AddressSanitizer, whose run-time the child would share), under
 * valgrind, which cannot follow a CLONE_VM child, or when the
 * environment has PSTAT_FORK set and not empty.
 */
bool spawn_forks(void);

/*
 * Start the child of s, which must stay untouched until the child has
 * executed the command (EOF on err_rd) or exited, and close the child's
 * ends of the pipes (go_rd, err_wr) here, whatever happens. The child's
 * pid, or -errno. Its end comes as a SIGCHLD: no pidfd, whose making
 * (CLONE_PIDFD) took clone(2) from about 55 to 85 us here.
 */
pid_t spawn_start(const struct spawn *s);

#endif
