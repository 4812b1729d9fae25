/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CPUs and where they sit: lists, online CPUs, cores, dies, sockets, nodes. */
#ifndef PSTAT_TOPOLOGY_H
#define PSTAT_TOPOLOGY_H

#include <stddef.h>

/* Where a CPU sits; -1 where sysfs does not say. */
struct topology_cpu {
	int cpu;
	int socket;
	int die;
	int core;
	int node;
};

/* The most CPUs a list may name (0 to 65535): far beyond any machine
 * today, and the kernel's own NR_CPUS limit is 8192 on x86-64. */
#define TOPOLOGY_MAX_CPUS 65536

/*
 * A CPU list such as "0-3,6" (and one final newline, as sysfs writes
 * it) into a sorted array without repeats, the caller's to free. The
 * count; or -EINVAL for what is not such a list, -ERANGE for a CPU of
 * TOPOLOGY_MAX_CPUS or more, with *bad at the offending offset; or
 * -ENOMEM. Time and memory grow with the CPUs named, not with the
 * length of the ranges or how often they repeat.
 */
int topology_parse_list(const char *s, int **cpus, size_t *bad);

/* The online CPUs, from sysfs. The count or -errno. */
int topology_online(int **cpus);

/* Whether cpu is in the sorted list. */
int topology_contains(const int *cpus, int n, int cpu);

/* Where cpu sits. 0, or -errno when its topology cannot be read. */
int topology_describe(int cpu, struct topology_cpu *t);

#endif
