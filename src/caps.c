/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the kernel lets this process count, and why not. */
#include "config.h"

#include <errno.h>
#include <stdio.h>

#include "caps.h"

int caps_paranoid(int *level)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	int ok;

	if (!f)
		return -errno;
	ok = fscanf(f, "%d", level) == 1;
	fclose(f);
	return ok ? 0 : -EINVAL;
}
