/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CPUs and where they sit: lists, online CPUs, cores, dies, sockets, nodes. */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmu.h"
#include "topology.h"

/* The most CPUs a list may name; far beyond any machine today. */
#define MAX_CPU 65536

static int by_number(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static int take(const char **p, long *v)
{
	char *end;

	if (!isdigit((unsigned char)**p))
		return -EINVAL;
	*v = strtol(*p, &end, 10);
	*p = end;
	return *v >= MAX_CPU ? -EINVAL : 0;
}

int topology_parse_list(const char *s, int **cpus, size_t *bad)
{
	const char *p = s;
	int *out = NULL, *grown;
	size_t n = 0, cap = 0, i, j;
	long lo, hi, c;

	*bad = 0;
	while (*p && *p != '\n') {
		*bad = (size_t)(p - s);
		if (take(&p, &lo) < 0)
			goto invalid;
		hi = lo;
		if (*p == '-') {
			p++;
			*bad = (size_t)(p - s);
			if (take(&p, &hi) < 0 || hi < lo)
				goto invalid;
		}
		for (c = lo; c <= hi; c++) {
			if (n == cap) {
				cap = cap ? 2 * cap : 16;
				grown = realloc(out, cap * sizeof(*out));
				if (!grown) {
					free(out);
					return -ENOMEM;
				}
				out = grown;
			}
			out[n++] = (int)c;
		}
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			goto invalid_here;
	}
	if (n == 0)
		goto invalid;
	qsort(out, n, sizeof(*out), by_number);
	for (i = j = 0; i < n; i++)
		if (j == 0 || out[j - 1] != out[i])
			out[j++] = out[i];
	*cpus = out;
	return (int)j;
invalid_here:
	*bad = (size_t)(p - s);
invalid:
	free(out);
	return -EINVAL;
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
