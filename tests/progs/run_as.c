/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run_as UID GID command [args...]: runs the command as an ordinary user,
 * for the hardware tests (tests/hw), where there may be no setpriv
 * (busybox's cannot change ids) and no passwd file: no supplementary
 * groups, real, effective and saved ids all UID and GID. As root only.
 */
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int id(const char *s, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 10);
	return *s && !*end && !errno && *v <= 0xfffffffeUL ? 0 : -1;
}

int main(int argc, char **argv)
{
	unsigned long uid, gid;

	if (argc < 4 || id(argv[1], &uid) || id(argv[2], &gid)) {
		fprintf(stderr, "usage: run_as UID GID command [args...]\n");
		return 2;
	}
	if (setgroups(0, NULL) || setresgid((gid_t)gid, (gid_t)gid, (gid_t)gid) ||
	    setresuid((uid_t)uid, (uid_t)uid, (uid_t)uid)) {
		fprintf(stderr, "run_as: %s\n", strerror(errno));
		return 125;
	}
	execvp(argv[3], argv + 3);
	fprintf(stderr, "run_as: %s: %s\n", argv[3], strerror(errno));
	return errno == ENOENT ? 127 : 126;
}
