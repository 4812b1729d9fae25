/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the fuzz targets share: their input taken apart, a check that
 * aborts with a reason (libFuzzer keeps the input that failed it), and
 * fake sysfs and tracefs trees, so that no target reads the machine's.
 */
#ifndef PSTAT_FUZZ_H
#define PSTAT_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* libFuzzer's entry points. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* An invariant of the code under test: broken, it names itself and
 * aborts, which libFuzzer reports as a crash with the input. */
#define FUZZ_CHECK(cond, ...)						\
	do {								\
		if (!(cond))						\
			fuzz_fail(__FILE__, __LINE__, #cond, __VA_ARGS__); \
	} while (0)

void fuzz_fail(const char *file, int line, const char *cond,
	       const char *fmt, ...)
	__attribute__((noreturn, format(printf, 4, 5)));

/* The input, consumed from the front. */
struct fuzz_in {
	const uint8_t *p;
	size_t n;
};

/* The next byte, or 0 past the end. */
uint8_t fuzz_byte(struct fuzz_in *in);

/* The next n (at most 8) bytes, little-endian; 0s past the end. */
uint64_t fuzz_uint(struct fuzz_in *in, size_t n);

/*
 * The bytes up to the next NUL (which is consumed) or the end, as a
 * string to free; any bytes but NUL.
 */
char *fuzz_str(struct fuzz_in *in);

/* Bytes as a NUL-terminated string to free (NULs in them end it). */
char *fuzz_strndup(const uint8_t *data, size_t size);

/*
 * Point pmu.c at fake sysfs and tracefs trees, made once a process
 * under $TMPDIR (else /dev/shm) and removed at its exit: an msr-like
 * PMU (formats, aliases, a .scale and .unit), uncore_imc_0 and _1 (two
 * instances), and tracepoints in three systems. empty: a tree with
 * nothing in it.
 */
void fuzz_fake_sysfs(bool empty);

/* Where the fake sysfs is, for targets that write files into it. */
const char *fuzz_sysfs_root(void);

#endif
