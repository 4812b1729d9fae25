/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the fuzz targets share (see fuzz.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "pmu.h"

void fuzz_fail(const char *file, int line, const char *cond,
	       const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%d: invariant broken: %s\n  ", file, line, cond);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

uint8_t fuzz_byte(struct fuzz_in *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

uint64_t fuzz_uint(struct fuzz_in *in, size_t n)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < n && i < 8; i++)
		v |= (uint64_t)fuzz_byte(in) << (8 * i);
	return v;
}

char *fuzz_strndup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

char *fuzz_str(struct fuzz_in *in)
{
	const uint8_t *nul = memchr(in->p, '\0', in->n);
	size_t len = nul ? (size_t)(nul - in->p) : in->n;
	char *s = fuzz_strndup(in->p, len);

	in->p += len + (nul ? 1 : 0);
	in->n -= len + (nul ? 1 : 0);
	return s;
}

/* The fake trees: directories (text NULL) and files. */
static const struct node {
	const char *path;
	const char *text;
} tree[] = {
	{ "events", NULL },
	{ "events/enable", "0\n" },
	{ "events/syscalls", NULL },
	{ "events/syscalls/enable", "0\n" },
	{ "events/syscalls/filter", "none\n" },
	{ "events/syscalls/sys_enter_write", NULL },
	{ "events/syscalls/sys_enter_write/id", "123\n" },
	{ "events/syscalls/sys_exit_write", NULL },
	{ "events/syscalls/sys_exit_write/id", "125\n" },
	{ "events/syscalls/sys_enter_writev", NULL },
	{ "events/syscalls/sys_enter_writev/id", "124\n" },
	{ "events/sched", NULL },
	{ "events/sched/sched_switch", NULL },
	{ "events/sched/sched_switch/id", "77\n" },
	{ "events/sched/sched_wakeup", NULL },
	{ "events/sched/sched_wakeup/id", "78\n" },
	{ "events/systest", NULL },
	{ "events/systest/a", NULL },
	{ "events/systest/a/id", "300\n" },
	{ "events/systest/b", NULL },
	{ "events/systest/b/id", "18446744073709551616\n" },
	{ "events/systest/noid", NULL },

	{ "sys", NULL },
	{ "sys/bus", NULL },
	{ "sys/bus/event_source", NULL },
	{ "sys/bus/event_source/devices", NULL },
	{ "sys/bus/event_source/devices/msr", NULL },
	{ "sys/bus/event_source/devices/msr/type", "9\n" },
	{ "sys/bus/event_source/devices/msr/cpumask", "0-1\n" },
	{ "sys/bus/event_source/devices/msr/format", NULL },
	{ "sys/bus/event_source/devices/msr/format/event", "config:0-63\n" },
	{ "sys/bus/event_source/devices/msr/format/umask", "config:8-15\n" },
	{ "sys/bus/event_source/devices/msr/format/ldlat", "config1:0-15\n" },
	{ "sys/bus/event_source/devices/msr/format/fe", "config2:0-23\n" },
	{ "sys/bus/event_source/devices/msr/format/split",
	  "config:20-23,40-43\n" },
	{ "sys/bus/event_source/devices/msr/format/bit", "config:63\n" },
	{ "sys/bus/event_source/devices/msr/format/bad", "config:7-3\n" },
	{ "sys/bus/event_source/devices/msr/events", NULL },
	{ "sys/bus/event_source/devices/msr/events/tsc", "event=0x00\n" },
	{ "sys/bus/event_source/devices/msr/events/foo",
	  "event=0x3,umask=?\n" },
	{ "sys/bus/event_source/devices/msr/events/both",
	  "event=0x1,umask=0x2\n" },
	{ "sys/bus/event_source/devices/msr/events/nested", "tsc\n" },
	{ "sys/bus/event_source/devices/msr/events/empty", "\n" },
	{ "sys/bus/event_source/devices/msr/events/bv", "event=xyz\n" },
	{ "sys/bus/event_source/devices/msr/events/big", "umask=0x100\n" },
	{ "sys/bus/event_source/devices/msr/events/energy", "event=0x2\n" },
	{ "sys/bus/event_source/devices/msr/events/energy.scale",
	  "2.3283064365386962890625e-10\n" },
	{ "sys/bus/event_source/devices/msr/events/energy.unit", "Joules\n" },
	{ "sys/bus/event_source/devices/uncore_imc_0", NULL },
	{ "sys/bus/event_source/devices/uncore_imc_0/type", "20\n" },
	{ "sys/bus/event_source/devices/uncore_imc_0/cpumask", "0\n" },
	{ "sys/bus/event_source/devices/uncore_imc_0/format", NULL },
	{ "sys/bus/event_source/devices/uncore_imc_0/format/event",
	  "config:0-7\n" },
	{ "sys/bus/event_source/devices/uncore_imc_0/events", NULL },
	{ "sys/bus/event_source/devices/uncore_imc_0/events/cas",
	  "event=0x4\n" },
	{ "sys/bus/event_source/devices/uncore_imc_1", NULL },
	{ "sys/bus/event_source/devices/uncore_imc_1/type", "21\n" },
	{ "sys/bus/event_source/devices/uncore_imc_1/cpumask", "x\n" },
	{ "sys/bus/event_source/devices/uncore_imc_1/format", NULL },
	{ "sys/bus/event_source/devices/uncore_imc_1/format/event",
	  "config:0-7\n" },
	{ "sys/bus/event_source/devices/uncore_imc_1/events", NULL },
	{ "sys/bus/event_source/devices/uncore_imc_1/events/cas",
	  "event=0x4\n" },
	/* A PMU whose format and alias fuzz_pmu writes each run. */
	{ "sys/bus/event_source/devices/fz", NULL },
	{ "sys/bus/event_source/devices/fz/type", "42\n" },
	{ "sys/bus/event_source/devices/fz/format", NULL },
	{ "sys/bus/event_source/devices/fz/format/f", "config:0-7\n" },
	{ "sys/bus/event_source/devices/fz/format/event", "config:0-7\n" },
	{ "sys/bus/event_source/devices/fz/events", NULL },
	{ "sys/bus/event_source/devices/fz/events/al", "event=1\n" },
	{ "sys/bus/event_source/devices/fz/events/al.scale", "0.5\n" },
	{ "sys/bus/event_source/devices/fz/events/al.unit", "MiB\n" },
};

/* Kept for pmu_set_roots, which keeps the pointers. */
static char root[256], sysfs[300], tracefs[300];

static void make_node(const struct node *nd)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", root, nd->path);
	if (!nd->text) {
		if (mkdir(path, 0700) < 0)
			fuzz_fail(__FILE__, __LINE__, "mkdir", "%s: %s", path,
				  strerror(errno));
		return;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, nd->text, strlen(nd->text)) !=
		      (ssize_t)strlen(nd->text))
		fuzz_fail(__FILE__, __LINE__, "write", "%s: %s", path,
			  strerror(errno));
	close(fd);
}

static int remove_node(const char *path, const struct stat *st, int flag,
		       struct FTW *ftw)
{
	remove(path);
	return 0;	/* on with the rest, whatever this one did */
}

static void remove_tree(void)
{
	if (root[0])
		nftw(root, remove_node, 16, FTW_DEPTH | FTW_PHYS);
}

/* $TMPDIR, else memory: fuzz_pmu rewrites files every run, which a disk
 * makes twenty times slower. */
static const char *tmp_dir(void)
{
	const char *tmp = getenv("TMPDIR");

	if (tmp && *tmp)
		return tmp;
	return access("/dev/shm", W_OK | X_OK) == 0 ? "/dev/shm" : "/tmp";
}

void fuzz_fake_sysfs(bool empty)
{
	size_t i;

	if (root[0])
		return;
	snprintf(root, sizeof(root), "%s/pstat-fuzz.XXXXXX", tmp_dir());
	if (!mkdtemp(root))
		fuzz_fail(__FILE__, __LINE__, "mkdtemp", "%s: %s", root,
			  strerror(errno));
	atexit(remove_tree);
	for (i = 0; !empty && i < sizeof(tree) / sizeof(tree[0]); i++)
		make_node(&tree[i]);
	snprintf(sysfs, sizeof(sysfs), "%s/sys", root);
	snprintf(tracefs, sizeof(tracefs), "%s/events", root);
	pmu_set_roots(sysfs, tracefs);
}

const char *fuzz_sysfs_root(void)
{
	return sysfs;
}
