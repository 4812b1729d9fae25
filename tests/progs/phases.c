/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A workload in phases, driven through fifos without a write(2) of its
 * own beyond its counted ones: phases DIR N1 [N2...] makes N1 write(2)
 * calls, says so by opening and closing DIR/ready for writing, waits
 * until DIR/go is opened for writing (and closed), then makes N2, and
 * so on. A test reads DIR/ready (cat) to know a phase is done, and
 * opens DIR/go (: >) to start the next.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int devnull = -1;

static int write_n(long n)
{
	const char byte = 'x';
	long i;

	for (i = 0; i < n; i++)
		if (write(devnull, &byte, 1) != 1)
			return -1;
	return 0;
}

/* Open and close path: a fifo's other end learns of it, no data goes. */
static int touch(const char *dir, const char *name, int flags)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, flags);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	int i;

	if (argc < 3) {
		fprintf(stderr, "usage: phases DIR N1 [N2...]\n");
		return 2;
	}
	devnull = open("/dev/null", O_WRONLY);
	if (devnull < 0)
		return 1;
	for (i = 2; i < argc; i++) {
		if (i > 2 && touch(argv[1], "go", O_RDONLY) < 0)
			return 1;
		if (write_n(atol(argv[i])) < 0 ||
		    touch(argv[1], "ready", O_WRONLY) < 0)
			return 1;
	}
	return 0;
}
