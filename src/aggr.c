/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Aggregation: the aggregates a target's counts add up to, and their labels. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aggr.h"
#include "topology.h"

/* The label of the aggregate cpu belongs to, under kind. */
static void cpu_label(char *buf, size_t len, enum aggr_kind kind, int cpu,
		      const struct topology_cpu *tc)
{
	switch (kind) {
	case AGGR_CORE:
		snprintf(buf, len, "S%d-D%d-C%d", tc->socket, tc->die, tc->core);
		break;
	case AGGR_DIE:
		snprintf(buf, len, "S%d-D%d", tc->socket, tc->die);
		break;
	case AGGR_SOCKET:
		snprintf(buf, len, "S%d", tc->socket);
		break;
	case AGGR_NODE:
		snprintf(buf, len, "N%d", tc->node);
		break;
	default:
		snprintf(buf, len, "CPU%d", cpu);
	}
}

/*
 * comm-tid, the comm from /proc ("?" when it cannot be read). A thread
 * names itself with any bytes: its control characters are shown as
 * '?', as ps(1) shows them, so that a name is one line in every format
 * and not cut at a newline.
 */
static void thread_label(char *buf, size_t len, int tid)
{
	char path[64], comm[32] = "?";
	ssize_t n, i;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/comm", tid);
	fd = tid > 0 ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	if (fd >= 0) {
		n = read(fd, comm, sizeof(comm) - 1);
		close(fd);
		/* The kernel ends the name with a newline of its own. */
		n -= n > 0 && comm[n - 1] == '\n';
		comm[n > 0 ? n : 0] = '\0';
		for (i = 0; i < n; i++)
			if ((unsigned char)comm[i] < ' ' || comm[i] == 0x7f)
				comm[i] = '?';
	}
	snprintf(buf, len, "%s-%d", comm, tid);
}

/* The aggregate of label, added when new. */
static size_t aggregate_of(struct aggr *a, const char *label, int id)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		if (strcmp(a->label[i], label) == 0)
			break;
	if (i == a->n) {
		snprintf(a->label[i], sizeof(a->label[i]), "%s", label);
		a->id[i] = id;
		a->n_cpus[i] = 0;
		a->n++;
	}
	a->n_cpus[i]++;
	return i;
}

static void id_label(char *buf, size_t len, enum aggr_kind kind, int id)
{
	struct topology_cpu tc;

	if (kind == AGGR_THREAD) {
		thread_label(buf, len, id);
		return;
	}
	if (topology_describe(id, &tc) < 0 && kind != AGGR_CPU)
		tc.socket = tc.die = tc.core = tc.node = 0;
	cpu_label(buf, len, kind, id, &tc);
}

int aggr_build(struct aggr *a, enum aggr_kind kind, const int *ids, size_t n,
	       bool all_threads)
{
	/* At least one of each, so that no target still allocates. */
	size_t cap = n ? n : 1, i;
	char label[40];

	memset(a, 0, sizeof(*a));
	a->kind = kind;
	a->quiet_zeros = all_threads;
	a->of_target = calloc(cap, sizeof(*a->of_target));
	a->label = calloc(cap, sizeof(*a->label));
	a->id = calloc(cap, sizeof(*a->id));
	a->n_cpus = calloc(cap, sizeof(*a->n_cpus));
	if (!a->of_target || !a->label || !a->id || !a->n_cpus)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		id_label(label, sizeof(label), kind, ids[i]);
		a->of_target[i] = aggregate_of(a, label, ids[i]);
	}
	return 0;
}

void aggr_set_thread(struct aggr *a, size_t i, const char *comm, int tid)
{
	size_t at;

	if (a->kind != AGGR_THREAD || !a->of_target)
		return;
	at = a->of_target[i];
	snprintf(a->label[at], sizeof(a->label[at]), "%s-%d", comm, tid);
	a->id[at] = tid;
}

void aggr_free(struct aggr *a)
{
	free(a->of_target);
	free(a->label);
	free(a->id);
	free(a->n_cpus);
	memset(a, 0, sizeof(*a));
}
