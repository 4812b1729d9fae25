/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The held child: started with clone(CLONE_VM) or fork, it waits on a
 * pipe, drops pstat's privileges and executes the command. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifdef HAVE_VALGRIND_VALGRIND_H
#include <valgrind/valgrind.h>
#endif

#include "spawn.h"


/*
 * A child that shares pstat's memory must not go through the C
 * library, whose wrappers set errno (pstat's, in pstat's thread-local
 * storage) and may take locks: raw system calls, -errno on failure.
 * Where this file has none, the child is forked and uses the library.
 */
#if defined(__x86_64__)
#define SPAWN_RAW 1
static inline long raw(long n, long a, long b, long c, long d, long e)
{
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8)
			 : "rcx", "r11", "memory");
	return ret;
}
#elif defined(__aarch64__)
#define SPAWN_RAW 1
static inline long raw(long n, long a, long b, long c, long d, long e)
{
	register long x8 __asm__("x8") = n;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;
	register long x3 __asm__("x3") = d;
	register long x4 __asm__("x4") = e;

	__asm__ volatile("svc 0"
			 : "+r"(x0)
			 : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4)
			 : "memory");
	return x0;
}
#else
#define SPAWN_RAW 0
static long raw(long n, long a, long b, long c, long d, long e)
{
	long ret = syscall(n, a, b, c, d, e);

	return ret < 0 ? -errno : ret;
}
#endif

/* AddressSanitizer's run-time would be shared with the child too. */
#if defined(__SANITIZE_ADDRESS__)
#define SPAWN_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SPAWN_ASAN 1
#endif
#endif
#ifndef SPAWN_ASAN
#define SPAWN_ASAN 0
#endif

#define RAW1(n, a) raw((n), (long)(a), 0, 0, 0, 0)
#define RAW3(n, a, b, c) raw((n), (long)(a), (long)(b), (long)(c), 0, 0)

static bool under_valgrind(void)
{
#ifdef HAVE_VALGRIND_VALGRIND_H
	return RUNNING_ON_VALGRIND;
#else
	const char *pre = getenv("LD_PRELOAD");

	return pre && strstr(pre, "/vgpreload_");
#endif
}

bool spawn_forks(void)
{
	const char *env = getenv("PSTAT_FORK");

	return !SPAWN_RAW || SPAWN_ASAN || under_valgrind() ||
	       (env && env[0]);
}

/* The kernel's struct sigaction, which rt_sigaction(2) takes. */
struct kernel_sigaction {
	void (*handler)(int);
	unsigned long flags;
	void (*restorer)(void);
	unsigned long mask;
};

/* The caller's dispositions and mask: exec(2) keeps them for the
 * command. The flags and masks of SIG_DFL and SIG_IGN mean nothing. */
static void restore_signals(const struct spawn *s)
{
	struct kernel_sigaction ka;
	size_t i;

	/* Field by field: clang -O0 zeroes a whole struct with memset. */
	ka.flags = 0;
	ka.restorer = NULL;
	ka.mask = 0;
	for (i = 0; i < s->n_sigs; i++) {
		ka.handler = s->handlers[i];
		raw(SYS_rt_sigaction, s->sigs[i], (long)&ka, 0, sizeof(ka.mask),
		    0);
	}
	raw(SYS_rt_sigprocmask, SIG_SETMASK, (long)&s->mask, 0,
	    sizeof(unsigned long), 0);
}

/* None of pstat's privileges go on to the command: the ids, then every
 * capability set (the ambient one where the kernel has it). 0 or
 * -errno, and then the command must not run. */
static long drop_privileges(const struct caps_drop *d)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	/* Zero without memset(3), which an unoptimised build calls. */
	static const struct __user_cap_data_struct
		none[_LINUX_CAPABILITY_U32S_3];
	long ret;

	if (d->ids) {
		ret = RAW3(SYS_setresgid, d->gid, d->gid, d->gid);
		if (ret == 0)
			ret = RAW3(SYS_setresuid, d->uid, d->uid, d->uid);
		if (ret < 0)
			return ret;
	}
	if (!d->caps)
		return 0;
	ret = raw(SYS_prctl, PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0,
		  0);
	/* An error only where the kernel has ambient capabilities. */
	if (ret < 0 && raw(SYS_prctl, PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET,
			   CAP_CHOWN, 0, 0) >= 0)
		return ret;
	return raw(SYS_capset, (long)&hdr, (long)none, 0, 0, 0);
}

static void __attribute__((noreturn)) leave(int status)
{
	for (;;)
		RAW1(SYS_exit_group, status);
}

/*
 * The child: system calls only, on its own stack, until the exec gives
 * it an address space of its own. The exec's errno goes to pstat
 * through the pipe, and the status execvp's callers use (126, 127).
 */
static int child(void *arg)
{
	const struct spawn *s = arg;
	long e;
	int err;
	char c;

	/* Our copies of the other ends would keep pstat from seeing EOF. */
	RAW1(SYS_close, s->go_wr);
	RAW1(SYS_close, s->err_rd);
	restore_signals(s);
	if (RAW3(SYS_read, s->go_rd, &c, 1) != 1)
		leave(127);	/* pstat gave up: never run the command */
	/* Open across the exec in the child alone: its table is a copy. */
	if (s->keep_fds[0] >= 0)
		RAW3(SYS_fcntl, s->keep_fds[0], F_SETFD, 0);
	if (s->keep_fds[1] >= 0)
		RAW3(SYS_fcntl, s->keep_fds[1], F_SETFD, 0);
	e = drop_privileges(&s->drop);
	if (e == 0)
		e = -s->exec_err;
	if (e == 0)
		e = RAW3(SYS_execve, s->path, s->argv, s->envp);
	/* No #! and no ELF: a shell script, to execvp and the shells. */
	if (e == -ENOEXEC)
		e = RAW3(SYS_execve, s->sh_argv[0], s->sh_argv, s->envp);
	err = (int)-e;
	if (RAW3(SYS_write, s->err_wr, &err, sizeof(err)) != (long)sizeof(err))
		leave(127);
	leave(err == ENOENT ? 127 : 126);
}

/* The child's stack: one child at a time, gone at its exec. */
static char child_stack[16384] __attribute__((aligned(16)));

pid_t spawn_start(const struct spawn *s)
{
	pid_t pid;
	int err;

	if (spawn_forks()) {
		pid = fork();
		if (pid == 0)
			child((void *)s);
	} else {
		/* A child sharing pstat's memory. */
		pid = clone(child, child_stack + sizeof(child_stack),
			    CLONE_VM | SIGCHLD, (void *)s);
	}
	err = errno;
	close(s->go_rd);
	close(s->err_wr);
	return pid < 0 ? -err : pid;
}
