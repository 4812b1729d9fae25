/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CPUs and where they sit: lists, online CPUs, cores, dies, sockets, nodes. */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmu.h"
#include "topology.h"

static int by_number(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* A CPU number at *p, past it: 0, -EINVAL where none is, -ERANGE for
 * one of TOPOLOGY_MAX_CPUS or more. */
static int take(const char **p, long *v)
{
	char *end;

	if (!isdigit((unsigned char)**p))
		return -EINVAL;
	errno = 0;
	*v = strtol(*p, &end, 10);
	if (errno || *v >= TOPOLOGY_MAX_CPUS)
		return -ERANGE;
	*p = end;
	return 0;
}

/* The CPUs named so far: a bit each, so that a list costs its length
 * in time and nothing in memory, however long its ranges and repeats. */
struct cpu_bits {
	uint64_t w[TOPOLOGY_MAX_CPUS / 64];
};

static void set_range(struct cpu_bits *b, long lo, long hi)
{
	for (; lo <= hi && lo % 64; lo++)
		b->w[lo / 64] |= 1ULL << (lo % 64);
	for (; lo + 63 <= hi; lo += 64)
		b->w[lo / 64] = ~0ULL;
	for (; lo <= hi; lo++)
		b->w[lo / 64] |= 1ULL << (lo % 64);
}

/* Elements "N" or "N-M", comma-separated, and at most one final
 * newline (sysfs's): 0, or -EINVAL or -ERANGE with *bad set. */
static int parse_bits(const char *s, struct cpu_bits *b, size_t *bad)
{
	const char *p = s;
	long lo = 0, hi;
	int ret;

	for (;;) {
		*bad = (size_t)(p - s);
		ret = take(&p, &lo);
		hi = lo;
		if (ret == 0 && *p == '-') {
			p++;
			*bad = (size_t)(p - s);
			ret = take(&p, &hi);
			if (ret == 0 && hi < lo)
				ret = -EINVAL;
		}
		if (ret < 0)
			return ret;
		set_range(b, lo, hi);
		if (*p != ',')
			break;
		p++;	/* and an element must follow */
	}
	if (p[0] == '\n' && p[1] == '\0')
		p++;
	*bad = (size_t)(p - s);
	return *p ? -EINVAL : 0;
}

int topology_parse_list(const char *s, int **cpus, size_t *bad)
{
	struct cpu_bits b = { { 0 } };
	size_t w, n = 0;
	int *out, bit, ret = parse_bits(s, &b, bad);

	if (ret < 0)
		return ret;
	for (w = 0; w < TOPOLOGY_MAX_CPUS / 64; w++)
		n += (size_t)__builtin_popcountll(b.w[w]);
	out = malloc(n * sizeof(*out));
	if (!out)
		return -ENOMEM;
	for (w = 0, n = 0; w < TOPOLOGY_MAX_CPUS / 64; w++)
		for (bit = 0; bit < 64 && b.w[w] >> bit; bit++)
			if ((b.w[w] >> bit) & 1)
				out[n++] = (int)(w * 64) + bit;
	*cpus = out;
	return (int)n;
}

int topology_online(int **cpus)
{
	char buf[4096];
	size_t bad;
	int ret = pmu_read_sysfs("devices/system/cpu/online", buf, sizeof(buf));

	return ret < 0 ? ret : topology_parse_list(buf, cpus, &bad);
}

int topology_contains(const int *cpus, int n, int cpu)
{
	return bsearch(&cpu, cpus, (size_t)n, sizeof(*cpus), by_number) != NULL;
}

static int read_id(int cpu, const char *file)
{
	char rel[128], buf[32];

	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/%s",
		 cpu, file);
	return pmu_read_sysfs(rel, buf, sizeof(buf)) < 0 ? -1 : atoi(buf);
}

/* The NUMA node holding cpu: the nodeN link in its sysfs directory. */
static int node_of(int cpu)
{
	char path[4096];
	struct dirent *d;
	DIR *dir;
	int node = -1;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d",
		 pmu_sysfs_root(), cpu);
	dir = opendir(path);
	while (dir && (d = readdir(dir)))
		if (strncmp(d->d_name, "node", 4) == 0 &&
		    isdigit((unsigned char)d->d_name[4]))
			node = atoi(d->d_name + 4);
	if (dir)
		closedir(dir);
	return node;
}

int topology_describe(int cpu, struct topology_cpu *t)
{
	t->cpu = cpu;
	t->socket = read_id(cpu, "physical_package_id");
	t->die = read_id(cpu, "die_id");
	t->core = read_id(cpu, "core_id");
	t->node = node_of(cpu);
	if (t->die < 0)
		t->die = 0;	/* kernels before 5.2 have one die a socket */
	if (t->node < 0)
		t->node = 0;	/* no NUMA: everything is node 0 */
	return t->socket < 0 || t->core < 0 ? -ENOENT : 0;
}
