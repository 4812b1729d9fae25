/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the kernel lets this process count, and why not. */
#ifndef PSTAT_CAPS_H
#define PSTAT_CAPS_H

/* kernel.perf_event_paranoid; 0 or -errno (-ENOENT: no perf events). */
int caps_paranoid(int *level);

#endif
