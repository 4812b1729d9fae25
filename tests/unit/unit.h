/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every Check suite shares: the number of rows of a table, and
 * the one main, which runs a suite and says whether it passed.
 */
#ifndef PSTAT_UNIT_H
#define PSTAT_UNIT_H

#include <check.h>

#define N_ROWS(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Runs every test of s: main's status, EXIT_FAILURE if one failed. */
int unit_run(Suite *s);

#endif
