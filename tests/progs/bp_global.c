/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A workload that stores to one global exactly N times, for breakpoints. */

#include <errno.h>
#include <stdlib.h>

/*
 * Not static, so nm shows it; the program is not position-independent,
 * so that address is where it lives. Only stores touch it, never a load:
 * a :w and an :rw breakpoint on it both count N.
 */
volatile long counter;

int main(int argc, char **argv)
{
	char *end;
	long i, n;

	if (argc != 2)
		return 2;
	errno = 0;
	n = strtol(argv[1], &end, 10);
	if (errno || end == argv[1] || *end || n < 0)
		return 2;
	for (i = 0; i < n; i++)
		counter = i;
	return 0;
}
