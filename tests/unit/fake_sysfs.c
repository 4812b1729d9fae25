/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The unit tests' one fake sysfs and tracefs (see fake_sysfs.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <check.h>

#include "fake_sysfs.h"
#include "pmu.h"

/* pmu_set_roots() keeps the pointers, not copies: the paths live here. */
static char root[256], sysfs[PATH_MAX], events[PATH_MAX];
static bool in_use;		/* pmu.c reads the tree */

const char *fake_sysfs_setup(const char *suite)
{
	const char *tmp = getenv("TMPDIR");
	int n;

	ck_assert_msg(!root[0], "%s: a tree is there already", root);
	n = snprintf(root, sizeof(root), "%s/%s.XXXXXX",
		     tmp && *tmp ? tmp : "/tmp", suite);
	ck_assert_msg(n > 0 && (size_t)n < sizeof(root), "TMPDIR too long");
	ck_assert_msg(mkdtemp(root) != NULL, "mkdtemp %s: %s", root,
		      strerror(errno));
	return root;
}

/* Each in turn, whatever failed before: what is left is told after. */
static int remove_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	remove(path);
	return 0;
}

void fake_sysfs_teardown(void)
{
	if (in_use)
		pmu_set_roots(NULL, NULL);
	in_use = false;
	if (!root[0])
		return;
	nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	ck_assert_msg(access(root, F_OK) < 0 && errno == ENOENT,
		      "%s is left", root);
	root[0] = '\0';
}

void fake_sysfs_path(char *buf, size_t len, const char *rel)
{
	int n;

	ck_assert_msg(root[0], "%s: no tree (fake_sysfs_setup)", rel);
	n = snprintf(buf, len, "%s/%s", root, rel);
	ck_assert_msg(n > 0 && (size_t)n < len, "path too long: %s", rel);
}

/* The directories on the way to rel. */
static void make_parents(const char *rel)
{
	char path[PATH_MAX], *slash;

	fake_sysfs_path(path, sizeof(path), rel);
	for (slash = strchr(path + strlen(root) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		ck_assert_msg(mkdir(path, 0755) == 0 || errno == EEXIST,
			      "mkdir %s: %s", path, strerror(errno));
		*slash = '/';
	}
}

void fake_sysfs_mkdir(const char *rel)
{
	char path[PATH_MAX];

	make_parents(rel);
	fake_sysfs_path(path, sizeof(path), rel);
	ck_assert_msg(mkdir(path, 0755) == 0, "mkdir %s: %s", path,
		      strerror(errno));
}

void fake_sysfs_write(const char *rel, const char *text)
{
	char path[PATH_MAX];
	size_t len = strlen(text);
	int fd;

	make_parents(rel);
	fake_sysfs_path(path, sizeof(path), rel);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	ck_assert_msg(fd >= 0, "create %s: %s", path, strerror(errno));
	ck_assert_msg(write(fd, text, len) == (ssize_t)len, "write %s: %s",
		      path, strerror(errno));
	ck_assert_msg(close(fd) == 0, "close %s: %s", path, strerror(errno));
}

void fake_sysfs_files(const struct fake_sysfs_file *files, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (files[i].text)
			fake_sysfs_write(files[i].path, files[i].text);
		else
			fake_sysfs_mkdir(files[i].path);
	}
}

void fake_sysfs_chmod(const char *rel, mode_t mode)
{
	char path[PATH_MAX];

	fake_sysfs_path(path, sizeof(path), rel);
	ck_assert_msg(chmod(path, mode) == 0, "chmod %s: %s", path,
		      strerror(errno));
}

/* dir/name, in buf of PATH_MAX. */
static void join(char *buf, const char *dir, const char *name)
{
	int n = snprintf(buf, PATH_MAX, "%s/%s", dir, name);

	ck_assert_msg(n > 0 && n < PATH_MAX, "path too long: %s", name);
}

/* rel holding text and a newline, as sysfs's files do. */
static void write_line(const char *rel, const char *text)
{
	char line[256];
	int n = snprintf(line, sizeof(line), "%s\n", text);

	ck_assert_msg(n > 0 && (size_t)n < sizeof(line), "too long: %s", text);
	fake_sysfs_write(rel, line);
}

static void write_number(const char *dir, const char *name, int value)
{
	char rel[PATH_MAX], text[16];

	join(rel, dir, name);
	snprintf(text, sizeof(text), "%d", value);
	write_line(rel, text);
}

/* dir/sub/name for each entry, if there is one. */
static void write_entries(const char *dir, const char *sub,
			  const struct fake_sysfs_entry *e)
{
	char path[PATH_MAX], rel[PATH_MAX];

	join(path, dir, sub);
	for (; e && e->name; e++) {
		join(rel, path, e->name);
		write_line(rel, e->text);
	}
}

static void make_pmu(const char *sys, const struct fake_sysfs_pmu *pmu)
{
	char dir[PATH_MAX], rel[PATH_MAX];

	join(rel, sys, "bus/event_source/devices");
	join(dir, rel, pmu->name);
	fake_sysfs_mkdir(dir);
	if (pmu->type) {
		join(rel, dir, "type");
		write_line(rel, pmu->type);
	}
	if (pmu->cpus) {
		join(rel, dir, "cpus");
		write_line(rel, pmu->cpus);
	}
	write_entries(dir, "format", pmu->format);
	write_entries(dir, "events", pmu->events);
}

void fake_sysfs_pmus(const char *sys, const struct fake_sysfs_pmu *pmus,
		     size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		make_pmu(sys, &pmus[i]);
}

static void make_cpu(const char *sys, const struct fake_sysfs_cpu *c)
{
	char dir[PATH_MAX], rel[PATH_MAX];
	int n;

	n = snprintf(dir, sizeof(dir), "%s/devices/system/cpu/cpu%d", sys,
		     c->cpu);
	ck_assert_msg(n > 0 && (size_t)n < sizeof(dir), "too long: %s", sys);
	fake_sysfs_mkdir(dir);
	if (c->node >= 0) {
		snprintf(rel, sizeof(rel), "%s/node%d", dir, c->node);
		fake_sysfs_mkdir(rel);
	}
	if (c->socket < 0)
		return;
	write_number(dir, "topology/physical_package_id", c->socket);
	if (c->die >= 0)
		write_number(dir, "topology/die_id", c->die);
	write_number(dir, "topology/core_id", c->core);
}

void fake_sysfs_cpus(const char *sys, const char *online,
		     const struct fake_sysfs_cpu *cpus, size_t n)
{
	char rel[PATH_MAX];
	size_t i;

	join(rel, sys, "devices/system/cpu/online");
	write_line(rel, online);
	for (i = 0; i < n; i++)
		make_cpu(sys, &cpus[i]);
}

void fake_sysfs_use(const char *sys, const char *events_dir)
{
	fake_sysfs_path(sysfs, sizeof(sysfs), sys);
	fake_sysfs_path(events, sizeof(events), events_dir);
	pmu_set_roots(sysfs, events);
	in_use = true;
}
