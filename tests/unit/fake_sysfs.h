/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The unit tests' one fake sysfs and tracefs, beside the fake kernel:
 * a temporary tree, made by fake_sysfs_setup() under $TMPDIR (or /tmp)
 * and removed whole by fake_sysfs_teardown(), with PMUs, CPUs and any
 * file a suite needs. Paths are relative to the tree's root, and every
 * helper asserts (Check) that it did what it says.
 */
#ifndef PSTAT_FAKE_SYSFS_H
#define PSTAT_FAKE_SYSFS_H

#include <stddef.h>
#include <sys/types.h>

/* A row of a table of files: text NULL makes a directory. */
struct fake_sysfs_file {
	const char *path;
	const char *text;
};

/* A file of a PMU's format or events directory, and its one line. */
struct fake_sysfs_entry {
	const char *name;
	const char *text;
};

/* A PMU: NULL where it has no such file; entries end at a NULL name. */
struct fake_sysfs_pmu {
	const char *name;
	const char *type;
	const char *cpus;
	const struct fake_sysfs_entry *format;
	const struct fake_sysfs_entry *events;
};

/* A CPU, and -1 for what its directory does not say. */
struct fake_sysfs_cpu {
	int cpu;
	int socket;		/* -1: no topology directory at all */
	int die;		/* -1: no die_id (before Linux 5.2) */
	int core;
	int node;		/* -1: no node directory (no NUMA) */
};

/* The tree's root, a new directory named after the suite: its path. */
const char *fake_sysfs_setup(const char *suite);

/* The whole tree removed, and pmu.c back on the machine's own files. */
void fake_sysfs_teardown(void);

/* rel's absolute path in the tree. */
void fake_sysfs_path(char *buf, size_t len, const char *rel);

/* A new directory, with the ones on the way to it (mkdir -p). */
void fake_sysfs_mkdir(const char *rel);

/* A new file holding text as it is, its directories made likewise. */
void fake_sysfs_write(const char *rel, const char *text);

/* A table's files and directories, in its order. */
void fake_sysfs_files(const struct fake_sysfs_file *files, size_t n);

/* A file or directory no longer readable (mode 0), say. */
void fake_sysfs_chmod(const char *rel, mode_t mode);

/*
 * The PMUs in the sysfs at sys (bus/event_source/devices); each file
 * one line, as the kernel writes them. Made in the order given.
 */
void fake_sysfs_pmus(const char *sys, const struct fake_sysfs_pmu *pmus,
		     size_t n);

/* The CPUs in the sysfs at sys (devices/system/cpu), and the list of
 * those online. */
void fake_sysfs_cpus(const char *sys, const char *online,
		     const struct fake_sysfs_cpu *cpus, size_t n);

/* pmu.c reads sysfs at sys and tracefs's events at events. */
void fake_sysfs_use(const char *sys, const char *events);

#endif
