/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The command: found on $PATH, started (spawn.c), held on a pipe until
 * counting is ready, waited for. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <paths.h>
#include <poll.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "caps.h"
#include "clock.h"
#include "spawn.h"
#include "workload.h"

struct workload {
	pid_t pid;		/* 0 before prepare and after wait */
	const char *path;	/* the file the child executes, found on
				 * $PATH; NULL when there is none */
	int exec_err;		/* why there is none, for the child to say */
	char **sh_argv;		/* /bin/sh path args, for a file the kernel
				 * cannot execute (ENOEXEC), as execvp(3);
				 * path is in the same allocation */
	int go_fd;		/* write end of the pipe the child waits on */
	int err_fd;		/* read end of the exec-error pipe */
	int sig_fd;		/* signalfd of the signals passed on */
	int status;		/* from wait4 */
	struct rusage ru;
	int signalled;		/* the last signal passed on, or 0 */
	int stops;		/* SIGINTs and SIGTERMs passed on */
	long long kill_at_ms;	/* when SIGKILL follows the second, or 0 */
	struct spawn spawn;	/* what the child reads until its exec */
	/* workload_pass: kept by workload_prepare. */
	int pass_fds[2];	/* the descriptors the command keeps, or -1 */
	char *const *pass_envp;	/* its environment, or NULL */
};

/*
 * The signals passed on to the command: every one whose default is to
 * end a process (the real-time ones too), but those that speak of
 * pstat itself: its own faults (SIGSEGV, SIGBUS, SIGFPE, SIGILL,
 * SIGTRAP, SIGSYS, SIGABRT), its own limits (SIGXCPU, SIGXFSZ) and
 * SIGPIPE, which it ignores to see a closed output as an error; and
 * SIGKILL, which no process can catch.
 */
static const int forwarded[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM,
	SIGVTALRM, SIGPROF, SIGPOLL, SIGPWR,
#ifdef SIGSTKFLT
	SIGSTKFLT,
#endif
};

/*
 * The dispositions pstat sets for itself: SIGPIPE ignored, so that a
 * closed output is an error it sees (EPIPE); SIGCHLD the default, as a
 * caller's SIG_IGN would leave the command's status to no one.
 */
static const struct {
	int sig;
	void (*handler)(int);
} own[] = {
	{ SIGPIPE, SIG_IGN },
	{ SIGCHLD, SIG_DFL },
};

#define N_OWN (sizeof(own) / sizeof(own[0]))

/*
 * What pstat's caller gave it and pstat changes, kept for the command,
 * which gets it back as exec(2) would have passed it on: the signal
 * mask, the dispositions of own[] and, where the C library's secure
 * mode took variables out of environ, the environment.
 */
static struct {
	bool saved;
	bool blocked;		/* watched is blocked now */
	sigset_t mask;
	sigset_t watched;	/* what pstat passes on, and SIGCHLD */
	struct sigaction own[N_OWN];
	char **envp;		/* NULL: environ is the caller's */
} caller;

/* Every signal pstat may pass on, and SIGCHLD. */
static void forwardable_set(sigset_t *set)
{
	size_t i;
	int sig;

	sigemptyset(set);
	for (i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++)
		sigaddset(set, forwarded[i]);
	for (sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		sigaddset(set, sig);
	sigaddset(set, SIGCHLD);	/* the child's end */
}

/*
 * Whether the caller ignores sig (nohup's SIGHUP): pstat never changes
 * the disposition of a signal it passes on, so its own is the caller's.
 * Asked when such a signal comes, not of every signal at start (45
 * system calls, or /proc/self/status, whose text the kernel makes
 * afresh).
 */
static bool caller_ignores(int sig)
{
	struct sigaction sa;

	return sigaction(sig, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN;
}

/*
 * The first time: block what pstat may pass on, at once; then keep
 * what the caller gave, and set pstat's own dispositions. 0 or -errno.
 */
static int save_caller(void)
{
	struct sigaction sa = { 0 };
	size_t i;
	int ret = 0;

	if (caller.saved)
		return 0;
	forwardable_set(&caller.watched);
	if (sigprocmask(SIG_BLOCK, &caller.watched, &caller.mask) < 0)
		return -errno;
	caller.saved = caller.blocked = true;
	for (i = 0; ret == 0 && i < N_OWN; i++) {
		sa.sa_handler = own[i].handler;
		if (sigaction(own[i].sig, &sa, &caller.own[i]) < 0)
			ret = -errno;
	}
	return ret;
}

/* The most execve(2) passes in arguments and environment together:
 * three quarters of the kernel's 8 MiB _STK_LIM. */
#define ENVIRON_MAX (6UL << 20)

/*
 * Where the kernel put the environment execve(2) gave pstat: fields 50
 * and 51 of /proc/self/stat, env_start and env_end (Linux 3.5). 0 or
 * -errno.
 */
static int environ_bounds(unsigned long *start, unsigned long *end)
{
	char buf[2048], *p;
	ssize_t n;
	int fd, field;

	fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n < 0 ? -errno : -EIO;
	buf[n] = '\0';
	/* The name, field 2, may hold anything: count from its ')'. */
	p = strrchr(buf, ')');
	for (field = 2; p && field < 50; field++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p, " %lu %lu", start, end) != 2)
		return -EIO;
	return 0;
}

/*
 * The environment execve(2) gave pstat, still where the kernel put it
 * whatever the C library's secure mode took out of environ: each
 * variable of [env_start, env_end), which is pstat's own memory, and
 * which nothing writes (/proc/self/environ shows it, but only to root
 * once pstat is not dumpable). 0 or -errno.
 */
static int keep_environ(void)
{
	unsigned long start = 0, end = 0;
	const char *p, *e;
	size_t n = 0;
	int ret = environ_bounds(&start, &end);

	if (ret < 0)
		return ret;
	/* NOLINTBEGIN(performance-no-int-to-ptr): the kernel's addresses */
	if (start == 0 || end < start || end - start > ENVIRON_MAX ||
	    (end > start && ((const char *)end)[-1] != '\0'))
		return -EIO;
	p = (const char *)start;
	e = (const char *)end;
	/* NOLINTEND(performance-no-int-to-ptr) */
	for (; p < e; p += strlen(p) + 1)
		n++;
	caller.envp = malloc((n + 1) * sizeof(*caller.envp));
	if (!caller.envp)
		return -ENOMEM;
	n = 0;
	for (p = e - (end - start); p < e; p += strlen(p) + 1)
		caller.envp[n++] = (char *)p;
	caller.envp[n] = NULL;
	return 0;
}

int workload_init(void)
{
	/* Its failures come back from workload_watch_signals, in words. */
	save_caller();
	return caps_elevated() ? keep_environ() : 0;
}

int workload_block_signals(void)
{
	int ret = save_caller();

	if (ret == 0 && !caller.blocked) {
		if (sigprocmask(SIG_BLOCK, &caller.watched, NULL) < 0)
			return -errno;
		caller.blocked = true;
	}
	return ret;
}

int workload_unblock_signals(void)
{
	if (!caller.saved)
		return 0;
	if (sigprocmask(SIG_SETMASK, &caller.mask, NULL) < 0)
		return -errno;
	caller.blocked = false;
	return 0;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/*
 * Signals to pass on are blocked and read from a signalfd, with
 * SIGCHLD, the child's end: one poll sees both, and the child is reaped
 * only after its last signal was passed on, so its pid cannot be reused
 * under us.
 */
int workload_watch_signals(struct workload *w)
{
	/* Blocked already, unless workload_unblock_signals let them go. */
	int ret = workload_block_signals();

	if (ret < 0)
		return ret;
	if (w->sig_fd >= 0)
		close(w->sig_fd);
	w->sig_fd = signalfd(-1, &caller.watched, SFD_CLOEXEC | SFD_NONBLOCK);
	return w->sig_fd < 0 ? -errno : 0;
}

/* Whether the user may execute path: 0 or -errno, as execve would. */
static int executable(const char *path)
{
	struct stat st;

	if (access(path, X_OK) < 0 || stat(path, &st) < 0)
		return -errno;
	/* execve refuses a directory with EACCES. */
	return S_ISREG(st.st_mode) ? 0 : -EACCES;
}

/* What execvp takes for "not here, try the next directory". */
static bool not_here(int err)
{
	return err == ENOENT || err == ENOTDIR || err == ESTALE ||
	       err == ENODEV || err == ETIMEDOUT;
}

int workload_resolve(const char *file, char *buf, size_t len)
{
	const char *dirs = getenv("PATH"), *p, *end;
	bool denied = false;
	int n, ret;

	if (!file[0])
		return -ENOENT;
	if (strchr(file, '/')) {
		n = snprintf(buf, len, "%s", file);
		return n >= 0 && (size_t)n < len ? 0 : -ENAMETOOLONG;
	}
	if (!dirs)
		dirs = "/bin:/usr/bin";	/* confstr(_CS_PATH) */
	for (p = dirs;; p = end + 1) {
		end = strchrnul(p, ':');
		/* An empty directory is the current one. */
		n = snprintf(buf, len, "%.*s%s%s", (int)(end - p), p,
			     end > p ? "/" : "", file);
		ret = n >= 0 && (size_t)n < len ? executable(buf) : -ENOENT;
		if (ret == 0)
			return 0;
		if (ret == -EACCES)
			denied = true;
		else if (!not_here(-ret))
			return ret;
		if (!*end)
			break;
	}
	return denied ? -EACCES : -ENOENT;
}

static void forget_exec(struct workload *w)
{
	free(w->sh_argv);
	w->sh_argv = NULL;
	w->path = NULL;
}

/*
 * The file to execute, found before the fork, and the shell's argv
 * should the kernel not execute it, in one allocation: the child must
 * not allocate. A command that is not found still forks a child, which
 * says so when it should have executed it, as execvp would have. The
 * name is found in a buffer of this frame, not of struct workload's,
 * whose PATH_MAX bytes put the whole run's stack a page deeper.
 */
static int prepare_exec(struct workload *w, char *const argv[])
{
	static char sh[] = _PATH_BSHELL;
	char path[PATH_MAX];
	size_t argc = 0, i, len;
	int ret = workload_resolve(argv[0], path, sizeof(path));
	char *copy;

	if (ret < 0) {
		w->exec_err = -ret;
		return 0;
	}
	while (argv[argc])
		argc++;
	len = strlen(path) + 1;
	w->sh_argv = malloc((argc + 2) * sizeof(*w->sh_argv) + len);
	if (!w->sh_argv)
		return -ENOMEM;
	copy = memcpy(w->sh_argv + argc + 2, path, len);
	w->path = copy;
	w->sh_argv[0] = sh;
	w->sh_argv[1] = copy;
	/* argv[1] up to its NULL. */
	for (i = 1; i <= argc; i++)
		w->sh_argv[i + 1] = argv[i];
	return 0;
}

/* What the child needs, in w, which outlives the child's exec. */
static void plan_child(struct workload *w, char *const argv[],
		       const int go[2], const int err[2])
{
	struct spawn *s = &w->spawn;
	size_t i;

	s->go_rd = go[0];
	s->go_wr = go[1];
	s->err_rd = err[0];
	s->err_wr = err[1];
	s->path = w->path;
	s->exec_err = w->exec_err;
	s->argv = argv;
	s->sh_argv = w->sh_argv;
	s->envp = w->pass_envp ? w->pass_envp
		  : caller.envp ? caller.envp : environ;
	s->keep_fds[0] = w->pass_fds[0];
	s->keep_fds[1] = w->pass_fds[1];
	/*
	 * Only what pstat changed goes back to the caller's: a signal the
	 * caller ignored (nohup) stays ignored, as exec(2) keeps it.
	 */
	s->mask = caller.mask;
	s->n_sigs = N_OWN;
	for (i = 0; i < N_OWN; i++) {
		s->sigs[i] = own[i].sig;
		s->handlers[i] = caller.own[i].sa_handler;
	}
}

/* w as workload_new makes it: nothing started, no descriptor. */
static void reset(struct workload *w)
{
	const int pass_fds[2] = { w->pass_fds[0], w->pass_fds[1] };
	char *const *pass_envp = w->pass_envp;

	memset(w, 0, sizeof(*w));
	w->go_fd = w->err_fd = w->sig_fd = -1;
	w->pass_fds[0] = pass_fds[0];
	w->pass_fds[1] = pass_fds[1];
	w->pass_envp = pass_envp;
}

void workload_pass(struct workload *w, const int fds[2], char *const *envp)
{
	w->pass_fds[0] = fds[0];
	w->pass_fds[1] = fds[1];
	w->pass_envp = envp;
}

char **workload_environ_with(char *const *vars)
{
	char *const *base = caller.envp ? caller.envp : environ;
	size_t n = 0, k = 0, i, j, len;
	char **env;

	while (base[n])
		n++;
	for (i = 0; vars[i]; i++)
		;
	env = calloc(n + i + 1, sizeof(*env));
	if (!env)
		return NULL;
	for (i = 0; i < n; i++) {
		bool replaced = false;

		for (j = 0; vars[j] && !replaced; j++) {
			len = strcspn(vars[j], "=") + 1;
			replaced = strncmp(base[i], vars[j], len) == 0;
		}
		if (!replaced)
			env[k++] = base[i];
	}
	for (j = 0; vars[j]; j++)
		env[k++] = vars[j];
	return env;
}

struct workload *workload_new(void)
{
	struct workload *w = malloc(sizeof(*w));

	if (w) {
		w->pass_fds[0] = w->pass_fds[1] = -1;
		w->pass_envp = NULL;
		reset(w);
	}
	return w;
}

void workload_free(struct workload *w)
{
	if (!w)
		return;
	workload_abort(w);
	free(w);
}

pid_t workload_pid(const struct workload *w)
{
	return w->pid;
}

const char *workload_path(const struct workload *w)
{
	return w->path;
}

int workload_status(const struct workload *w)
{
	return w->status;
}

const struct rusage *workload_rusage(const struct workload *w)
{
	return &w->ru;
}

int workload_signalled(const struct workload *w)
{
	return w->signalled;
}

int workload_prepare(struct workload *w, char *const argv[])
{
	int go[2], err[2], ret;
	pid_t pid;

	reset(w);
	ret = workload_watch_signals(w);
	if (ret == 0)
		ret = caps_exec_prepare(&w->spawn.drop);
	if (ret == 0)
		ret = prepare_exec(w, argv);
	if (ret == 0 && pipe2(go, O_CLOEXEC) < 0)
		ret = -errno;
	if (ret != 0) {
		forget_exec(w);
		return ret;
	}
	if (pipe2(err, O_CLOEXEC) < 0) {
		ret = -errno;
		close(go[0]);
		close(go[1]);
		forget_exec(w);
		return ret;
	}
	plan_child(w, argv, go, err);
	pid = spawn_start(&w->spawn);
	if (pid < 0) {
		close(go[1]);
		close(err[0]);
		forget_exec(w);
		return pid;
	}
	w->pid = pid;
	w->go_fd = go[1];
	w->err_fd = err[0];
	return 0;
}

/* The child has executed the command or given up: both pipes done. */
static void exec_done(struct workload *w)
{
	close_fd(&w->err_fd);
	close_fd(&w->go_fd);
	forget_exec(w);
}

/* The int the child wrote when its exec failed, or 0 at EOF: the exec
 * closed the pipe. */
static int exec_result(struct workload *w)
{
	ssize_t n;
	int e = 0;

	do {
		n = read(w->err_fd, &e, sizeof(e));
	} while (n < 0 && errno == EINTR);
	exec_done(w);
	return n == (ssize_t)sizeof(e) ? e : 0;
}

/* A child reaped after it exited with neither status a failed exec
 * leaves (126, 127) executed the command: nothing on the pipe to read. */
static bool executed(const struct workload *w)
{
	int code = WEXITSTATUS(w->status);

	return w->pid == 0 && WIFEXITED(w->status) && code != 126 &&
	       code != 127;
}

int workload_start(struct workload *w, bool wait_exec)
{
	ssize_t n;
	int e;

	n = write(w->go_fd, "x", 1);
	e = errno;
	if (n != 1) {
		close_fd(&w->go_fd);
		forget_exec(w);
		return -e;
	}
	/*
	 * The write end stays open until the exec's result is read: closed
	 * now, as the child wakes on another CPU to read the byte, it held
	 * pstat up to a millisecond in close(2) and the child as long in
	 * read(2) (measured with 200 counters on the child, on these
	 * machines).
	 */
	if (!wait_exec)
		return 0;
	e = exec_result(w);
	if (e)
		workload_wait(w, NULL, 0);
	return e;
}

int workload_exec_error(struct workload *w)
{
	if (w->err_fd < 0)
		return 0;
	if (executed(w)) {
		exec_done(w);
		return 0;
	}
	return exec_result(w);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_now(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Pass a signal on; SIGCHLD, which is not, says that one came (the
 * child may have ended, or stopped): true. A signal the caller ignores
 * is ignored by pstat too, as by the command (which gets the caller's
 * dispositions): not passed on. A second SIGINT or SIGTERM means it:
 * SIGKILL follows a grace period later.
 */
static bool pass_signal(struct workload *w, int sig)
{
	if (sig == SIGCHLD)
		return true;
	if (caller_ignores(sig))
		return false;
	w->signalled = sig;
	if (w->pid <= 0)
		return false;
	kill(w->pid, sig);
	if (sig == SIGINT || sig == SIGTERM)
		w->stops++;
	if (w->stops == 2 && !w->kill_at_ms)
		w->kill_at_ms = now_ms() + WORKLOAD_GRACE_MS;
	return false;
}

/* Every pending signal passed on, in one read as a rule: a read that
 * does not fill the buffer took them all, and needs no second read
 * (EAGAIN) to say so. Whether a SIGCHLD came. */
static bool pass_signals(struct workload *w)
{
	struct signalfd_siginfo si[4];
	bool chld = false;
	ssize_t n;
	size_t i;

	do {
		n = read(w->sig_fd, si, sizeof(si));
		for (i = 0; n > 0 && i < (size_t)n / sizeof(si[0]); i++)
			chld |= pass_signal(w, (int)si[i].ssi_signo);
	} while (n == (ssize_t)sizeof(si));
	return chld;
}

/* poll's timeout: until the SIGKILL that is due, or none. */
static int kill_timeout(struct workload *w)
{
	long long left;

	if (!w->kill_at_ms || w->pid <= 0)
		return -1;
	left = w->kill_at_ms - now_ms();
	if (left > 0)
		return (int)left;
	kill(w->pid, SIGKILL);
	w->kill_at_ms = 0;
	return -1;
}

static int reap(struct workload *w, int flags)
{
	pid_t r;

	do {
		r = wait4(w->pid, &w->status, flags, &w->ru);
	} while (r < 0 && errno == EINTR);
	if (r < 0)
		return -errno;
	if (r == w->pid)
		w->pid = 0;
	return 0;
}

#define MAX_WATCHES 6

int workload_wait(struct workload *w, struct workload_watch *watch,
		  size_t n_watch)
{
	struct pollfd p[1 + MAX_WATCHES] = {
		{ .fd = w->sig_fd, .events = POLLIN },
	};
	size_t i, n = n_watch < MAX_WATCHES ? n_watch : MAX_WATCHES;
	bool child = w->pid > 0, stop = false, chld;
	enum workload_watch_next next;
	int ret;

	/* cppcheck-suppress knownConditionTrueFalse ; run.c passes watches */
	for (i = 0; i < n; i++)
		p[1 + i] = (struct pollfd){ .fd = watch[i].fd, .events = POLLIN };
	while (child ? w->pid > 0 : !stop && !w->signalled) {
		if (w->sig_fd < 0)
			return child ? reap(w, 0) : -EINVAL;
		/* Interrupted, it said nothing: revents are the last poll's. */
		if (poll(p, 1 + n, kill_timeout(w)) < 0) {
			if (errno != EINTR)
				return -errno;
			continue;
		}
		chld = p[0].revents && pass_signals(w);
		for (i = 0; i < n; i++) {
			if (!p[1 + i].revents)
				continue;
			next = watch[i].ready(watch[i].arg);
			if (next != WORKLOAD_WATCH_ON)
				p[1 + i].fd = -1;
			stop |= next == WORKLOAD_WAIT_DONE;
		}
		/* A SIGCHLD: the child ended, or only stopped. */
		if (child && chld) {
			ret = reap(w, WNOHANG);
			if (ret < 0)
				return ret;
		}
	}
	close_fd(&w->sig_fd);
	return 0;
}

void workload_stop_signals(sigset_t *set)
{
	forwardable_set(set);
	sigdelset(set, SIGCHLD);
}

int workload_pending_signal(void)
{
	static const struct timespec now;
	sigset_t set;
	int sig;

	if (!caller.blocked)
		return 0;
	workload_stop_signals(&set);
	do {
		sig = sigtimedwait(&set, NULL, &now);
	} while (sig > 0 && caller_ignores(sig));
	return sig > 0 ? sig : 0;
}

void workload_abort(struct workload *w)
{
	forget_exec(w);
	close_fd(&w->go_fd);
	close_fd(&w->err_fd);
	/* With no child, workload_wait would wait for a signal. */
	if (w->pid > 0)
		workload_wait(w, NULL, 0);
	close_fd(&w->sig_fd);
}

/* Whether the kernel honours set-ID bits of path: not for a script, on
 * a nosuid mount, or under no_new_privs. */
static bool setid_applies(const char *path)
{
	struct statvfs vfs;
	char magic[2] = { 0 };
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		if (read(fd, magic, 2) != 2)
			magic[0] = '\0';
		close(fd);
	}
	if (magic[0] == '#' && magic[1] == '!')
		return false;
	if (statvfs(path, &vfs) == 0 && (vfs.f_flag & ST_NOSUID))
		return false;
	return prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1;
}

bool workload_exec_stops(const char *path, struct workload_stop *stop)
{
	struct stat st;
	bool setid;

	memset(stop, 0, sizeof(*stop));
	if (stat(path, &st) < 0)
		return false;
	stop->uid = st.st_uid;
	stop->gid = st.st_gid;
	setid = (st.st_mode & (S_ISUID | S_ISGID)) && setid_applies(path);
	/* The child has the real ids by then (struct caps_drop). */
	if (setid && (st.st_mode & S_ISUID) && st.st_uid != getuid())
		stop->why = WORKLOAD_SETUID;
	else if (setid && (st.st_mode & S_ISGID) && st.st_gid != getgid())
		stop->why = WORKLOAD_SETGID;
	else if (access(path, R_OK) < 0 && errno == EACCES)
		stop->why = WORKLOAD_UNREADABLE;
	return stop->why != WORKLOAD_COUNTED;
}
