/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A workload that dies of the signal it is given, to test exit statuses. */

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>

int main(int argc, char **argv)
{
	const struct rlimit nocore = { 0, 0 };
	sigset_t set;
	char *end;
	long sig;

	if (argc != 2)
		return 2;
	errno = 0;
	sig = strtol(argv[1], &end, 10);
	if (errno || end == argv[1] || *end || sig < 1 || sig >= NSIG)
		return 2;

	/* Dumping core would be slow and leave files behind. */
	setrlimit(RLIMIT_CORE, &nocore);
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	/* Only reached if the default action is to ignore the signal. */
	return 1;
}
