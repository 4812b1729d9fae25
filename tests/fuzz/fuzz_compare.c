/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pstat compare's reader of saved results: any bytes, as one saved
 * comparison or as two pstat -r N --format=json files (the input split
 * at its first NUL), are taken or refused with one line that names the
 * file; what is taken has at least two sides, finite samples only, and
 * is analysed and printed in every format.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "compare_impl.h"
#include "fuzz.h"
#include "options.h"

/* data into a memory file; its /proc path in path, or -1. */
static int memfile(const uint8_t *data, size_t size, char *path, size_t len)
{
	int fd = memfd_create("saved", MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return -1;
	}
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

static void check(char *const *files, size_t n)
{
	static const enum output_format formats[] = {
		OUTPUT_HUMAN, OUTPUT_CSV, OUTPUT_JSONL, OUTPUT_PSTAT_CSV,
		OUTPUT_PSTAT_JSON,
	};
	static const char *thresholds[] = { "0.5%" };
	static const char *fail_on[] = { "wall-time>1%" };
	struct options o = {
		.compare_files = files, .n_compare_files = n,
		.thresholds = thresholds, .n_thresholds = 1,
		.fail_on = fail_on, .n_fail_on = 1,
		.out = { .sep = ",", .big_num = true },
	};
	struct compare c = { .n_sides = n };
	char err[1024] = "";
	FILE *null = fopen("/dev/null", "w");
	size_t i, k, s;
	int ret;

	c.kept = calloc(n + 1, sizeof(*c.kept));
	c.failed = calloc(n + 1, sizeof(*c.failed));
	if (!c.kept || !c.failed || !null) {
		compare_free(&c);
		if (null)
			fclose(null);
		return;
	}
	ret = compare_read(&c, &o, err, sizeof(err));
	FUZZ_CHECK(ret == 0 || ret == -EINVAL, "compare_read: %d", ret);
	if (ret == -EINVAL) {
		FUZZ_CHECK(strstr(err, files[0]) || strstr(err, files[n - 1]),
			   "the reason names no file: %s", err);
		FUZZ_CHECK(!strchr(err, '\n'), "two lines: %s", err);
	}
	if (ret == 0) {
		FUZZ_CHECK(c.n_sides >= 2, "%zu sides", c.n_sides);
		for (i = 0; i < c.n_rows; i++)
			for (s = 0; s < c.n_sides; s++)
				for (k = 0; k < c.rows[i].side[s].n; k++)
					FUZZ_CHECK(isfinite(c.rows[i].side[s].v[k]),
						   "row %zu side %zu: %g", i, s,
						   c.rows[i].side[s].v[k]);
		ret = compare_analyse(&c, &o);
		FUZZ_CHECK(ret == 0 || ret == -ENOMEM, "compare_analyse: %d",
			   ret);
		for (i = 0; ret == 0 && i < sizeof(formats) / sizeof(*formats);
		     i++) {
			o.out.format = formats[i];
			(void)compare_print(null, &c, &o, i == 0, 120);
		}
	}
	compare_free(&c);
	fclose(null);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);
	char a[64], b[64];
	char *files[2] = { a, b };
	int fa, fb;

	if (!nul) {
		fa = memfile(data, size, a, sizeof(a));
		if (fa >= 0) {
			check(files, 1);
			close(fa);
		}
		return 0;
	}
	fa = memfile(data, (size_t)(nul - data), a, sizeof(a));
	fb = memfile(nul + 1, size - (size_t)(nul - data) - 1, b, sizeof(b));
	if (fa >= 0 && fb >= 0)
		check(files, 2);
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	return 0;
}
