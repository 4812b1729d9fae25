/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --merge's reader: any bytes as a rank's file are taken (a run record
 * found, each event named, with a status) or refused with a reason that
 * names the file, on one line; what is taken holds only numbers pstat
 * writes (counts finite, not negative, to 1e30; exit statuses 0-255,
 * signals 1-64, ranks below the size), merges at a cost that follows
 * its bytes whatever size it says, and prints in every format. Two
 * copies of a file with a rank are refused as one rank twice.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "merge.h"
#include "merge_impl.h"

static void check_file(const char *path)
{
	struct merge_file mf;
	char err[512] = "";
	size_t i;
	int ret;

	ret = merge_file_read(&mf, path, err, sizeof(err));
	FUZZ_CHECK(ret == 0 || ret == -EINVAL, "merge_file_read: %d", ret);
	if (ret == -EINVAL)
		FUZZ_CHECK(strstr(err, path), "the reason names no file: %s",
			   err);
	else
		FUZZ_CHECK(mf.has_run, "taken without a run record");
	if (ret == -EINVAL)
		FUZZ_CHECK(!strchr(err, '\n'), "two lines: %s", err);
	for (i = 0; ret == 0 && i < mf.n_vals; i++) {
		FUZZ_CHECK(mf.vals[i].name && mf.vals[i].status &&
			   mf.vals[i].unit, "value %zu unnamed", i);
		FUZZ_CHECK(!mf.vals[i].has_value ||
			   (isfinite(mf.vals[i].value) &&
			    !signbit(mf.vals[i].value) &&
			    mf.vals[i].value <= 1e30),
			   "value %zu: %g", i, mf.vals[i].value);
		FUZZ_CHECK(mf.vals[i].running_pct >= 0 &&
			   mf.vals[i].running_pct <= 100 &&
			   !signbit(mf.vals[i].running_pct),
			   "value %zu: running %g%%", i,
			   mf.vals[i].running_pct);
	}
	if (ret == 0) {
		/* Numbers as pstat writes them, or refused. */
		FUZZ_CHECK(mf.rank >= -1 && mf.rank < INT_MAX &&
			   (mf.size == -1 || (mf.size >= 1 &&
					      mf.size <= INT_MAX)),
			   "rank %ld of %ld", mf.rank, mf.size);
		FUZZ_CHECK(mf.exit_status >= -1 && mf.exit_status <= 255 &&
			   mf.signal >= 0 && mf.signal <= 64,
			   "exit status %d, signal %d", mf.exit_status,
			   mf.signal);
		FUZZ_CHECK(isfinite(mf.elapsed_s) && isfinite(mf.user_s) &&
			   isfinite(mf.sys_s) && isfinite(mf.max_rss_kib),
			   "times %g %g %g %g", mf.elapsed_s, mf.user_s,
			   mf.sys_s, mf.max_rss_kib);
	}
	merge_file_free(&mf);
}

static void check_merge(const char *path)
{
	char *const two[] = { (char *)path, (char *)path };
	struct merge m;
	char err[1024] = "";
	FILE *null = fopen("/dev/null", "w");
	int ret;

	ret = merge_read(&m, two, 1, err, sizeof(err));
	FUZZ_CHECK(ret == 0 || ret == -EINVAL, "merge_read: %d", ret);
	if (ret == 0 && null) {
		FUZZ_CHECK(m.n_ranks == 1 && m.present[0] == m.ranks[0].rank,
			   "one file, %zu ranks", m.n_ranks);
		/* Whatever size it says: two ranges at most, the rank
		 * between them. */
		FUZZ_CHECK(m.size < 0 ? m.n_missing == 0 :
			   m.present[0] < m.size && m.n_missing <= 2,
			   "rank %ld of %ld: %zu ranges missing",
			   m.present[0], m.size, m.n_missing);
		FUZZ_CHECK(m.status >= 0 && m.status <= 128 + 64,
			   "status %d", m.status);
		(void)merge_print(null, &m, OUTPUT_HUMAN);
		(void)merge_print(null, &m, OUTPUT_PSTAT_CSV);
		(void)merge_print(null, &m, OUTPUT_PSTAT_JSON);
	}
	merge_free(&m);
	if (ret == 0) {
		ret = merge_read(&m, two, 2, err, sizeof(err));
		FUZZ_CHECK(ret == -EINVAL && strstr(err, "both rank"),
			   "one rank twice: %d %s", ret, err);
		merge_free(&m);
	}
	if (null)
		fclose(null);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd = memfd_create("rank", MFD_CLOEXEC);

	if (fd < 0)
		return 0;
	if (write(fd, data, size) == (ssize_t)size) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		check_file(path);
		check_merge(path);
	}
	close(fd);
	return 0;
}
