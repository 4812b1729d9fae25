/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * -p and -t lists, and what pstat reads of the threads in /proc: any
 * list is taken exactly when it is numbers from 1 to 0x3fffffff
 * separated by commas, each of a process (-p) or thread (-t) there is,
 * or refused with a reason naming the list or the first id that is not
 * there; what is taken is each thread once, in the order given (-t),
 * or every thread of each process once (-p). This process's own thread,
 * renamed to any bytes (a process names itself: prctl PR_SET_NAME), is
 * named by --per-thread as comm-tid, its whole name as the kernel keeps
 * it with control characters shown as '?' (as ps shows them), and is
 * alive. The input: a byte of flags, the name, NUL,
 * then the list.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fuzz.h"
#include "options.h"
#include "target.h"

#define MAX_IDS 4096

/* The ids of a list as a second reading says: their number, or -1. */
static long ids_of(const char *s, long *ids)
{
	long n = 0, v;

	do {
		if (*s < '0' || *s > '9')
			return -1;
		for (v = 0; *s >= '0' && *s <= '9'; s++)
			if ((v = v * 10 + (*s - '0')) > 0x3fffffff)
				return -1;
		if (v == 0 || n == MAX_IDS)
			return -1;
		ids[n++] = v;
	} while (*s++ == ',');
	return s[-1] ? -1 : n;
}

static bool exists(long id, bool process)
{
	char path[64];

	snprintf(path, sizeof(path), process ? "/proc/%ld/task" : "/proc/%ld",
		 id);
	return access(path, F_OK) == 0;
}

static bool once_each(const struct target *t)
{
	size_t i, j;

	for (i = 0; i < t->n_pids; i++)
		for (j = 0; j < i; j++)
			if (t->pids[i] == t->pids[j])
				return false;
	return true;
}

/* Thread tid's label under --per-thread, or NULL. */
static const char *label_of(const struct target *t, int tid)
{
	size_t i;

	for (i = 0; i < t->n_pids; i++)
		if (t->pids[i] == tid)
			return t->aggr.label[t->aggr.of_target[i]];
	return NULL;
}

static void check_list(const char *list, bool process, bool per_thread,
		       const char *comm)
{
	static long ids[MAX_IDS];
	char *argv[] = { "pstat", process ? "-p" : "-t", (char *)list,
			 per_thread ? "--per-thread" : "-i", NULL };
	char err[1024] = "", want[64];
	struct options o;
	struct target t;
	int tid = (int)syscall(SYS_gettid), ret;
	long n = ids_of(list, ids), i, j, missing = -1;
	const char *label;

	ret = options_parse(&o, 4, argv, err, sizeof(err));
	FUZZ_CHECK(ret == 0, "'%s': options: %s", list, err);
	for (i = 0; i < n && missing < 0; i++)
		if (!exists(ids[i], process))
			missing = ids[i];
	ret = target_resolve(&t, &o, err, sizeof(err));
	FUZZ_CHECK(ret == 0 || ret == -EINVAL, "'%s': %d", list, ret);
	FUZZ_CHECK((ret == 0) == (n > 0 && missing < 0), "'%s': %d: %s", list,
		   ret, err);
	if (ret < 0) {
		snprintf(want, sizeof(want), " %ld (-%c)", missing,
			 process ? 'p' : 't');
		FUZZ_CHECK(n < 0 ? strncmp(err, "bad ", 4) == 0 ||
				   strncmp(err, "empty ", 6) == 0
				 : strstr(err, want) != NULL,
			   "'%s': the reason names no%s: %s", list,
			   n < 0 ? " list" : want, err);
		options_free(&o);
		return;
	}
	FUZZ_CHECK(once_each(&t), "'%s': a thread twice", list);
	for (i = 0, j = 0; !process && i < n; i++) {
		if (j < (long)t.n_pids && t.pids[j] == ids[i])
			j++;
	}
	FUZZ_CHECK(process || j == (long)t.n_pids,
		   "'%s': %zu threads, not the %ld named", list, t.n_pids, j);
	label = per_thread ? label_of(&t, tid) : NULL;
	snprintf(want, sizeof(want), "%s-%d", comm, tid);
	for (i = 0; want[i]; i++)
		if ((unsigned char)want[i] < ' ' || want[i] == 0x7f)
			want[i] = '?';
	FUZZ_CHECK(!label || strcmp(label, want) == 0,
		   "'%s': thread %d is '%s', not '%s'", list, tid, label, want);
	FUZZ_CHECK(target_alive(&t) || !label_of(&t, tid),
		   "'%s': this thread is not alive", list);
	target_free(&t);
	options_free(&o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	uint8_t flags = fuzz_byte(&in);
	char *name = fuzz_str(&in), *list = fuzz_str(&in), *own, comm[17] = "";
	int tid = (int)syscall(SYS_gettid);

	if (*name)
		(void)prctl(PR_SET_NAME, name, 0, 0, 0);
	(void)prctl(PR_GET_NAME, comm, 0, 0, 0);
	check_list(list, flags & 1, flags & 2, comm);
	own = malloc(strlen(list) + 16);
	FUZZ_CHECK(own, "no memory");
	/* This thread, and its process, are there: named first. */
	sprintf(own, "%d%s%s", tid, *list ? "," : "", list);
	check_list(own, flags & 1, flags & 2, comm);
	free(own);
	free(list);
	free(name);
	return 0;
}
