/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmpstats.c's numbers for tests/cmpstats-scipy.sh: each line of stdin,
 * "LEVEL N M x_1 .. x_N y_1 .. y_M", gives one line on stdout,
 * "u p exact estimate lo hi has_interval level_achieved k" and x's
 * summary "n median mean min max q1 q3 mad", doubles as %.17g, or
 * "error ERRNO"; "error selected ..." where the differences, selected
 * one by one, give another estimate or interval. The C locale is the
 * program's own: no setlocale.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "cmpstats.h"

#define MAX_VALUES 4096

static int read_values(double *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (scanf("%lf", &v[i]) != 1)
			return -1;
	return 0;
}

static int dump(double level, const double *x, size_t n, const double *y,
		size_t m)
{
	struct cmpstats_summary sx;
	struct cmpstats_shift s, sel;
	struct cmpstats_mwu r;
	int err;

	err = cmpstats_mann_whitney(x, n, y, m, &r);
	if (!err)
		err = cmpstats_hodges_lehmann(x, n, y, m, level, &s);
	if (!err)
		err = cmpstats_summary(x, n, &sx);
	if (err)
		return printf("error %d\n", -err);
	/* The numbers above, selected without making the differences. */
	if (cmpstats_hodges_lehmann_with(x, n, y, m, level, 0, &sel) ||
	    sel.estimate != s.estimate || sel.lo != s.lo || sel.hi != s.hi)
		return printf("error selected %.17g [%.17g, %.17g]\n",
			      sel.estimate, sel.lo, sel.hi);
	return printf("%.17g %.17g %d %.17g %.17g %.17g %d %.17g %zu "
		      "%zu %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n",
		      r.u, r.p, r.exact, s.estimate, s.lo, s.hi,
		      s.has_interval, s.level_achieved, s.k, sx.n, sx.median,
		      sx.mean, sx.min, sx.max, sx.q1, sx.q3, sx.mad);
}

int main(void)
{
	static double x[MAX_VALUES], y[MAX_VALUES];
	double level;
	size_t n, m;

	while (scanf("%lf %zu %zu", &level, &n, &m) == 3) {
		if (n > MAX_VALUES || m > MAX_VALUES ||
		    read_values(x, n) || read_values(y, m)) {
			fprintf(stderr, "cmpstats_dump: bad input\n");
			return 2;
		}
		if (dump(level, x, n, y, m) < 0)
			return 2;
	}
	return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 2;
}
