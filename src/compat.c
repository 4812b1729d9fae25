/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Names of errno values and signals, with or without glibc's functions. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

#include "compat.h"

#define N(e) [e] = #e

/* The values that perf_event_open, exec, open and the rest give pstat. */
static const char *const errnames[] = {
	N(EPERM), N(ENOENT), N(ESRCH), N(EINTR), N(EIO), N(ENXIO),
	N(E2BIG), N(ENOEXEC), N(EBADF), N(ECHILD), N(EAGAIN), N(ENOMEM),
	N(EACCES), N(EFAULT), N(EBUSY), N(EEXIST), N(EXDEV), N(ENODEV),
	N(ENOTDIR), N(EISDIR), N(EINVAL), N(ENFILE), N(EMFILE),
	N(ETXTBSY), N(EFBIG), N(ENOSPC), N(ESPIPE), N(EROFS), N(EMLINK),
	N(EPIPE), N(EDOM), N(ERANGE), N(EDEADLK), N(ENAMETOOLONG),
	N(ENOSYS), N(ENOTEMPTY), N(ELOOP), N(ENODATA), N(EOVERFLOW),
	N(EOPNOTSUPP), N(ETIMEDOUT), N(ESTALE), N(EDQUOT),
};

#undef N
#define S(s) [SIG##s] = #s

static const char *const signames[] = {
	S(HUP), S(INT), S(QUIT), S(ILL), S(TRAP), S(ABRT), S(BUS),
	S(FPE), S(KILL), S(USR1), S(SEGV), S(USR2), S(PIPE), S(ALRM),
	S(TERM), S(STKFLT), S(CHLD), S(CONT), S(STOP), S(TSTP), S(TTIN),
	S(TTOU), S(URG), S(XCPU), S(XFSZ), S(VTALRM), S(PROF), S(WINCH),
	S(POLL), S(PWR), S(SYS),
};

#undef S

const char *compat_errname_table(int err)
{
	if (err <= 0 || (size_t)err >= sizeof(errnames) / sizeof(*errnames))
		return NULL;
	return errnames[err];
}

const char *compat_sigabbrev_table(int sig)
{
	if (sig <= 0 || (size_t)sig >= sizeof(signames) / sizeof(*signames))
		return NULL;
	return signames[sig];
}

const char *compat_errname(int err)
{
	const char *name;

#ifdef HAVE_STRERRORNAME_NP
	name = strerrorname_np(err);
#else
	name = compat_errname_table(err);
#endif
	return name ? name : "unknown error";
}

const char *compat_sigabbrev(int sig)
{
#ifdef HAVE_SIGABBREV_NP
	return sigabbrev_np(sig);
#else
	return compat_sigabbrev_table(sig);
#endif
}
