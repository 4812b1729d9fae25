/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * reaper [-k SIG,USEC] PIDFILE CMD [ARGS...]: run CMD as a child
 * subreaper, its pid in PIDFILE, SIGINT and SIGQUIT not ignored, and
 * exit with its status (128 + N when signal N killed it). With -k, send
 * it signal SIG USEC microseconds after the fork: sooner than a shell
 * could, and at any moment of its start.
 * A process CMD left behind is reparented here: each is named on stderr
 * ("reaper: orphan PID COMM"), killed and reaped, and the status is 3.
 * For the tests that assert pstat leaves no process behind.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define ORPHANS 3

/* The parent of pid, from /proc/PID/stat, and its name into comm. */
static pid_t parent_of(pid_t pid, char *comm, size_t len)
{
	char path[64], buf[512], *close_paren;
	FILE *f;
	int ppid = -1;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* "pid (comm) state ppid": comm may hold anything but the last ')'. */
	close_paren = strrchr(buf, ')');
	if (!close_paren || sscanf(close_paren + 1, " %*c %d", &ppid) != 1)
		return -1;
	snprintf(comm, len, "%.*s", (int)(close_paren - strchr(buf, '(') - 1),
		 strchr(buf, '(') + 1);
	return ppid;
}

/* Name, kill and reap every child left: 0 when there was none. */
static int reap_orphans(void)
{
	struct dirent *d;
	char comm[64];
	int found = 0;
	pid_t pid;
	DIR *proc = opendir("/proc");

	if (!proc)
		return 0;
	while ((d = readdir(proc))) {
		pid = (pid_t)atoi(d->d_name);
		if (pid <= 0 || parent_of(pid, comm, sizeof(comm)) != getpid())
			continue;
		fprintf(stderr, "reaper: orphan %d %s\n", (int)pid, comm);
		kill(pid, SIGKILL);
		found = 1;
	}
	closedir(proc);
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		continue;
	return found;
}

int main(int argc, char **argv)
{
	int status, sig = 0;
	long usec = 0;
	pid_t pid, r;
	FILE *f;

	if (argc > 2 && strcmp(argv[1], "-k") == 0) {
		if (sscanf(argv[2], "%d,%ld", &sig, &usec) != 2)
			argc = 0;
		argv += 2;
		argc -= 2;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: reaper [-k SIG,USEC] PIDFILE CMD [ARGS...]\n");
		return 2;
	}
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0) {
		perror("reaper: PR_SET_CHILD_SUBREAPER");
		return 2;
	}
	/*
	 * As from a terminal: a shell's background job ignores these, and
	 * CMD would inherit that. Before the fork, so that a signal sent
	 * right after it never finds them ignored.
	 */
	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	pid = fork();
	if (pid < 0) {
		perror("reaper: fork");
		return 2;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		perror(argv[2]);
		_exit(127);
	}
	if (sig) {
		usleep((useconds_t)usec);
		kill(pid, sig);
	}
	f = fopen(argv[1], "w");
	if (!f || fprintf(f, "%d\n", (int)pid) < 0 || fclose(f) != 0) {
		perror(argv[1]);
		kill(pid, SIGKILL);
	}
	do {
		r = waitpid(pid, &status, 0);
	} while (r < 0 && errno == EINTR);
	if (r < 0) {
		perror("reaper: waitpid");
		return 2;
	}
	if (reap_orphans())
		return ORPHANS;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
