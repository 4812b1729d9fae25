/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --merge's reader: any bytes as a rank's file are taken (a run record
 * found, each event named, with a status) or refused with a reason that
 * names the file; what is taken merges and prints in every format. Two
 * copies of a file with a rank are refused as one rank twice.
 */
#include "config.h"

#include <errno.h>
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
	for (i = 0; ret == 0 && i < mf.n_vals; i++)
		FUZZ_CHECK(mf.vals[i].name && mf.vals[i].status &&
			   mf.vals[i].unit, "value %zu unnamed", i);
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
