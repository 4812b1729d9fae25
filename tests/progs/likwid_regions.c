/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A program written against likwid's marker API (likwid-marker.h, from
 * Debian's likwid package, with -DLIKWID_PERFMON), linked with pstat's
 * shim (lib/likwid.c) under likwid's soname: tests/regions.sh runs it
 * under pstat --regions. 'solve' entered 3 times with 100 writes each,
 * 'setup' once with 7, 5 writes outside.
 */
#define LIKWID_PERFMON
#include <likwid-marker.h>
#include <unistd.h>

static void writes(int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (write(STDOUT_FILENO, "", 0) < 0)
			_exit(1);
}

int main(void)
{
	int i;

	LIKWID_MARKER_INIT;
	LIKWID_MARKER_THREADINIT;
	LIKWID_MARKER_REGISTER("solve");
	writes(5);
	LIKWID_MARKER_START("setup");
	writes(7);
	LIKWID_MARKER_STOP("setup");
	for (i = 0; i < 3; i++) {
		LIKWID_MARKER_START("solve");
		writes(100);
		LIKWID_MARKER_STOP("solve");
	}
	LIKWID_MARKER_CLOSE;
	return 0;
}
