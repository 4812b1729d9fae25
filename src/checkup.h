/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pstat --check: what this machine lets pstat count, why, what to change. */
#ifndef PSTAT_CHECKUP_H
#define PSTAT_CHECKUP_H

#include <stdbool.h>
#include <stdio.h>

/*
 * Probe the kernel and pstat's privileges and write the report to f,
 * as text or as one JSON document. 0 when counting one's own command
 * works, 1 when it does not (the exit status), or -errno when f cannot
 * be written (-EIO when it is not known why) or memory ran out.
 */
int checkup_print(FILE *f, bool json);

#endif
