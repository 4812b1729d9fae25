/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of metrics.c: perf stat's derived metrics, units and pairing. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <linux/perf_event.h>

#include "metrics.h"
#include "unit.h"

/* The events the rows count; NONE ends a list. */
enum ev_id {
	NONE, TASK, CPU, CYC, INS, SFE, SBE, BR, BRM, CREF, CMISS,
	L1D, L1DM, L1I, L1IM, LL, LLM, DTLB, DTLBM, ITLB, ITLBM,
	REF, PF, CS, L1DST, TP,
};

#define HWC(cache, op, result)						\
	(PERF_COUNT_HW_CACHE_##cache | PERF_COUNT_HW_CACHE_OP_##op << 8 | \
	 PERF_COUNT_HW_CACHE_RESULT_##result << 16)

static const struct {
	__u32 type;
	__u64 config;
} events[] = {
	[TASK] = { PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	[CPU] = { PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	[CYC] = { PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	[INS] = { PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	[SFE] = { PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	[SBE] = { PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	[BR] = { PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	[BRM] = { PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	[CREF] = { PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	[CMISS] = { PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	[L1D] = { PERF_TYPE_HW_CACHE, HWC(L1D, READ, ACCESS) },
	[L1DM] = { PERF_TYPE_HW_CACHE, HWC(L1D, READ, MISS) },
	[L1I] = { PERF_TYPE_HW_CACHE, HWC(L1I, READ, ACCESS) },
	[L1IM] = { PERF_TYPE_HW_CACHE, HWC(L1I, READ, MISS) },
	[LL] = { PERF_TYPE_HW_CACHE, HWC(LL, READ, ACCESS) },
	[LLM] = { PERF_TYPE_HW_CACHE, HWC(LL, READ, MISS) },
	[DTLB] = { PERF_TYPE_HW_CACHE, HWC(DTLB, READ, ACCESS) },
	[DTLBM] = { PERF_TYPE_HW_CACHE, HWC(DTLB, READ, MISS) },
	[ITLB] = { PERF_TYPE_HW_CACHE, HWC(ITLB, READ, ACCESS) },
	[ITLBM] = { PERF_TYPE_HW_CACHE, HWC(ITLB, READ, MISS) },
	[REF] = { PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
	[PF] = { PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	[CS] = { PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	[L1DST] = { PERF_TYPE_HW_CACHE, HWC(L1D, WRITE, ACCESS) },
	[TP] = { PERF_TYPE_TRACEPOINT, 1234 },
};

/* The exclude_* bits, and perf's :u and :k in them. */
enum {
	X_USER = 1 << 0,
	X_KERNEL = 1 << 1,
	X_HV = 1 << 2,
	X_HOST = 1 << 3,
	X_GUEST = 1 << 4,
	X_IDLE = 1 << 5,
	MOD_U = X_KERNEL | X_HV,
	MOD_K = X_USER | X_HV,
};

struct ev {
	enum ev_id id;
	unsigned int mods;
	double value;
	__u64 pmu;		/* extended type, a hybrid PMU's */
};

static struct perf_event_attr attr_of(const struct ev *e)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = events[e->id].type;
	a.config = events[e->id].config | e->pmu << 32;
	a.exclude_user = !!(e->mods & X_USER);
	a.exclude_kernel = !!(e->mods & X_KERNEL);
	a.exclude_hv = !!(e->mods & X_HV);
	a.exclude_host = !!(e->mods & X_HOST);
	a.exclude_guest = !!(e->mods & X_GUEST);
	a.exclude_idle = !!(e->mods & X_IDLE);
	return a;
}

/* perf's layouts: "%8.3f", "%7.2f ", "%7.2f%%", "%8.3f %%". */
#define F3 8, 3, ""
#define IPC 7, 2, " "
#define PCT 7, 2, "%"
#define PCT3 8, 3, " %"

struct want {
	double value;
	const char *unit;
	int width, prec;
	const char *suffix;
};

#define WALL 1e9
#define CTX_MAX 6

static const struct metric_row {
	int line;
	double wall_ns;
	struct ev ctx[CTX_MAX];	/* recorded, up to NONE */
	struct ev ev;		/* the row whose metrics these are */
	int n;
	struct want want[METRICS_MAX];
} metric_rows[] = {
	/* A clock's nanoseconds over the wall clock's, whatever else. */
	{ __LINE__, 1707000, { { TASK, 0, 1157962 } }, { TASK, 0, 1157962 },
	  1, { { 1157962.0 / 1707000, "CPUs utilized", F3 } } },
	{ __LINE__, WALL, { { CPU, 0, 2e9 } }, { CPU, 0, 2e9 },
	  1, { { 2.0, "CPUs utilized", F3 } } },
	{ __LINE__, WALL, { { TASK, MOD_U, 5e8 } }, { TASK, MOD_U, 5e8 },
	  1, { { 0.5, "CPUs utilized", F3 } } },
	{ __LINE__, WALL, { { NONE } }, { TASK, 0, 0 },
	  1, { { 0.0, "CPUs utilized", F3 } } },
	{ __LINE__, 0, { { TASK, 0, 1e6 } }, { TASK, 0, 1e6 }, 0 },
	{ __LINE__, -1, { { TASK, 0, 1e6 } }, { TASK, 0, 1e6 }, 0 },

	/* cycles per nanosecond of the clock: GHz. */
	{ __LINE__, WALL, { { TASK, 0, 2e9 }, { CYC, 0, 5e9 } },
	  { CYC, 0, 5e9 }, 1, { { 2.5, "GHz", F3 } } },
	{ __LINE__, WALL, { { TASK, MOD_U, 2e9 }, { CYC, MOD_U, 3e9 } },
	  { CYC, MOD_U, 3e9 }, 1, { { 1.5, "GHz", F3 } } },
	{ __LINE__, WALL, { { CPU, 0, 4e9 }, { CYC, 0, 3e9 } },
	  { CYC, 0, 3e9 }, 1, { { 0.75, "GHz", F3 } } },
	/* perf divides by the clock whatever its modifiers. */
	{ __LINE__, WALL, { { TASK, 0, 2e9 }, { CYC, MOD_U, 3e9 } },
	  { CYC, MOD_U, 3e9 }, 1, { { 1.5, "GHz", F3 } } },
	/* The clock with the event's own modifiers, if there is one. */
	{ __LINE__, WALL, { { TASK, MOD_U, 1e9 }, { TASK, MOD_K, 2e9 } },
	  { CYC, MOD_K, 3e9 }, 1, { { 1.5, "GHz", F3 } } },
	{ __LINE__, WALL, { { TASK, MOD_U, 1e9 }, { TASK, MOD_K, 2e9 } },
	  { CYC, MOD_U, 3e9 }, 1, { { 3.0, "GHz", F3 } } },
	/* No clock, or one that stood still: no GHz (perf: blank). */
	{ __LINE__, WALL, { { CYC, 0, 3e9 } }, { CYC, 0, 3e9 }, 0 },
	{ __LINE__, WALL, { { TASK, 0, 0 }, { CYC, 0, 3e9 } },
	  { CYC, 0, 3e9 }, 0 },

	/* Instructions per cycle, paired by modifiers. */
	{ __LINE__, WALL, { { CYC, 0, 4e9 }, { INS, 0, 5e9 } },
	  { INS, 0, 5e9 }, 1, { { 1.25, "insn per cycle", IPC } } },
	{ __LINE__, WALL, { { CYC, MOD_U, 4e9 } }, { INS, 0, 5e9 }, 0 },
	{ __LINE__, WALL, { { CYC, MOD_U, 4e9 } }, { INS, MOD_U, 5e9 },
	  1, { { 1.25, "insn per cycle", IPC } } },
	{ __LINE__, WALL, { { CYC, 0, 1e9 }, { CYC, MOD_U, 4e9 } },
	  { INS, MOD_U, 5e9 }, 1, { { 1.25, "insn per cycle", IPC } } },
	{ __LINE__, WALL, { { CYC, 0, 1e9 }, { CYC, MOD_U, 4e9 } },
	  { INS, 0, 5e9 }, 1, { { 5.0, "insn per cycle", IPC } } },
	{ __LINE__, WALL, { { CYC, MOD_K, 4e9 } }, { INS, MOD_U, 5e9 }, 0 },
	{ __LINE__, WALL, { { CYC, X_IDLE, 4e9 } }, { INS, 0, 5e9 }, 0 },
	{ __LINE__, WALL, { { CYC, X_HOST, 4e9 } }, { INS, 0, 5e9 }, 0 },
	{ __LINE__, WALL, { { CYC, X_USER, 4e9 } }, { INS, 0, 5e9 }, 0 },
	{ __LINE__, WALL, { { CYC, X_KERNEL, 4e9 } }, { INS, 0, 5e9 }, 0 },
	{ __LINE__, WALL, { { CYC, X_HV, 4e9 } }, { INS, 0, 5e9 }, 0 },
	/* As perf's evsel_context(): exclude_guest does not part them. */
	{ __LINE__, WALL, { { CYC, X_GUEST, 4e9 } }, { INS, 0, 5e9 },
	  1, { { 1.25, "insn per cycle", IPC } } },
	/* A hybrid PMU's cycles go with its own instructions. */
	{ __LINE__, WALL, { { CYC, 0, 4e9, 8 } }, { INS, 0, 5e9, 8 },
	  1, { { 1.25, "insn per cycle", IPC } } },
	{ __LINE__, WALL, { { CYC, 0, 4e9, 8 } }, { INS, 0, 5e9 }, 0 },
	{ __LINE__, WALL, { { CYC, 0, 4e9, 8 } }, { INS, 0, 5e9, 4 }, 0 },
	/* The same event twice counts the same thing: perf's mean. */
	{ __LINE__, WALL, { { CYC, 0, 2e9 }, { CYC, 0, 4e9 } },
	  { INS, 0, 6e9 }, 1, { { 2.0, "insn per cycle", IPC } } },
	{ __LINE__, WALL, { { CYC, 0, 0 } }, { INS, 0, 5e9 }, 0 },
	{ __LINE__, WALL, { { CYC, 0, 4e9 } }, { INS, 0, 0 },
	  1, { { 0.0, "insn per cycle", IPC } } },

	/* Stalls: the worse per instruction, on a line of its own. */
	{ __LINE__, WALL,
	  { { CYC, 0, 4e9 }, { SFE, 0, 1e9 }, { SBE, 0, 2e9 } },
	  { INS, 0, 8e9 }, 2, { { 2.0, "insn per cycle", IPC },
				{ 0.25, "stalled cycles per insn", IPC } } },
	{ __LINE__, WALL,
	  { { CYC, 0, 4e9 }, { SFE, 0, 3e9 }, { SBE, 0, 2e9 } },
	  { INS, 0, 8e9 }, 2, { { 2.0, "insn per cycle", IPC },
				{ 0.375, "stalled cycles per insn", IPC } } },
	{ __LINE__, WALL, { { CYC, 0, 4e9 }, { SBE, 0, 2e9 } },
	  { INS, 0, 8e9 }, 2, { { 2.0, "insn per cycle", IPC },
				{ 0.25, "stalled cycles per insn", IPC } } },
	{ __LINE__, WALL, { { SFE, 0, 2e9 } }, { INS, 0, 8e9 },
	  1, { { 0.25, "stalled cycles per insn", IPC } } },
	{ __LINE__, WALL, { { CYC, 0, 4e9 }, { SFE, 0, 0 } },
	  { INS, 0, 8e9 }, 1, { { 2.0, "insn per cycle", IPC } } },
	{ __LINE__, WALL, { { CYC, 0, 4e9 }, { SFE, 0, 1e9 } },
	  { INS, 0, 0 }, 1, { { 0.0, "insn per cycle", IPC } } },
	{ __LINE__, WALL, { { CYC, 0, 4e9 }, { SFE, MOD_U, 1e9 } },
	  { INS, 0, 8e9 }, 1, { { 2.0, "insn per cycle", IPC } } },
	{ __LINE__, WALL, { { CYC, 0, 4e9 }, { SFE, 0, 1e9 } },
	  { SFE, 0, 1e9 }, 1, { { 25.0, "frontend cycles idle", PCT } } },
	{ __LINE__, WALL, { { CYC, 0, 4e9 }, { SBE, 0, 3e9 } },
	  { SBE, 0, 3e9 }, 1, { { 75.0, "backend cycles idle", PCT } } },
	{ __LINE__, WALL, { { SBE, 0, 3e9 } }, { SBE, 0, 3e9 }, 0 },

	/* Misses per hundred of their accesses. */
	{ __LINE__, WALL, { { BR, 0, 1e9 } }, { BRM, 0, 12345678 },
	  1, { { 1.2345678, "of all branches", PCT } } },
	{ __LINE__, WALL, { { CREF, 0, 3e6 } }, { CMISS, 0, 1e6 },
	  1, { { 100.0 / 3, "of all cache refs", PCT3 } } },
	{ __LINE__, WALL, { { L1D, 0, 8e8 } }, { L1DM, 0, 2e7 },
	  1, { { 2.5, "of all L1-dcache accesses", PCT } } },
	{ __LINE__, WALL, { { L1I, 0, 8e8 } }, { L1IM, 0, 4e7 },
	  1, { { 5.0, "of all L1-icache accesses", PCT } } },
	{ __LINE__, WALL, { { LL, 0, 1e6 } }, { LLM, 0, 5e5 },
	  1, { { 50.0, "of all LL-cache accesses", PCT } } },
	{ __LINE__, WALL, { { DTLB, 0, 1e9 } }, { DTLBM, 0, 1e6 },
	  1, { { 0.1, "of all dTLB cache accesses", PCT } } },
	{ __LINE__, WALL, { { ITLB, 0, 1e9 } }, { ITLBM, 0, 2e9 },
	  1, { { 200.0, "of all iTLB cache accesses", PCT } } },
	{ __LINE__, WALL, { { BR, MOD_U, 1e9 } }, { BRM, MOD_U, 1e8 },
	  1, { { 10.0, "of all branches", PCT } } },
	{ __LINE__, WALL, { { BR, MOD_U, 1e9 } }, { BRM, 0, 1e8 }, 0 },
	/* Without the denominator, or with 0 of it: none, and no rate. */
	{ __LINE__, WALL, { { TASK, 0, 1e9 } }, { BRM, 0, 1e8 }, 0 },
	{ __LINE__, WALL, { { TASK, 0, 1e9 }, { BR, 0, 0 } },
	  { BRM, 0, 0 }, 0 },
	{ __LINE__, WALL, { { TASK, 0, 1e9 }, { CREF, 0, 0 } },
	  { CMISS, 0, 5 }, 0 },
	{ __LINE__, WALL, { { TASK, 0, 1e9 }, { L1I, 0, 1e9 } },
	  { L1DM, 0, 5 }, 0 },
	{ __LINE__, WALL, { { TASK, 0, 1e9 }, { DTLB, 0, 1e9 } },
	  { ITLBM, 0, 5 }, 0 },
	{ __LINE__, WALL, { { TASK, 0, 1e9 } }, { LLM, 0, 5 }, 0 },

	/* Everything else per second of the clock, scaled as perf. */
	{ __LINE__, WALL, { { TASK, 0, 1e9 } }, { PF, 0, 0 },
	  1, { { 0.0, "/sec", F3 } } },
	{ __LINE__, WALL, { { TASK, 0, 1e9 } }, { PF, 0, 500 },
	  1, { { 500.0, "/sec", F3 } } },
	{ __LINE__, WALL, { { TASK, 0, 1e9 } }, { PF, 0, 1000 },
	  1, { { 1000.0, "/sec", F3 } } },
	{ __LINE__, WALL, { { TASK, 0, 1e9 } }, { PF, 0, 1000.5 },
	  1, { { 1.0005, "K/sec", F3 } } },
	{ __LINE__, WALL, { { TASK, 0, 1e9 } }, { PF, 0, 97514 },
	  1, { { 97.514, "K/sec", F3 } } },
	{ __LINE__, WALL, { { TASK, 0, 5e8 } }, { PF, 0, 97514 },
	  1, { { 195.028, "K/sec", F3 } } },
	{ __LINE__, WALL, { { TASK, 0, 1e9 } }, { PF, 0, 1e6 },
	  1, { { 1000.0, "K/sec", F3 } } },
	{ __LINE__, WALL, { { TASK, 0, 1e9 } }, { PF, 0, 1000001 },
	  1, { { 1.000001, "M/sec", F3 } } },
	{ __LINE__, WALL, { { TASK, 0, 1e9 } }, { PF, 0, 5e6 },
	  1, { { 5.0, "M/sec", F3 } } },
	{ __LINE__, WALL, { { TASK, 0, 1e9 } }, { PF, 0, 1e9 },
	  1, { { 1000.0, "M/sec", F3 } } },
	{ __LINE__, WALL, { { TASK, 0, 1e9 } }, { PF, 0, 1000000001 },
	  1, { { 1.000000001, "G/sec", F3 } } },
	{ __LINE__, WALL, { { TASK, 0, 1e9 } }, { PF, 0, 2e9 },
	  1, { { 2.0, "G/sec", F3 } } },
	{ __LINE__, WALL, { { TASK, 0, 1e9 } }, { PF, 0, 3e12 },
	  1, { { 3000.0, "G/sec", F3 } } },
	{ __LINE__, WALL, { { TASK, 0, 1e9 } }, { CS, 0, 5e5 },
	  1, { { 500.0, "K/sec", F3 } } },
	{ __LINE__, WALL, { { TASK, 0, 1e9 } }, { TP, 0, 42 },
	  1, { { 42.0, "/sec", F3 } } },
	/* perf has no ratio for these: a rate. */
	{ __LINE__, WALL, { { TASK, 0, 2e9 }, { BR, 0, 4e9 } },
	  { BR, 0, 4e9 }, 1, { { 2.0, "G/sec", F3 } } },
	{ __LINE__, WALL, { { TASK, 0, 2e9 }, { CREF, 0, 4e6 } },
	  { CREF, 0, 4e6 }, 1, { { 2.0, "M/sec", F3 } } },
	{ __LINE__, WALL, { { TASK, 0, 2e9 }, { L1D, 0, 4e3 } },
	  { L1D, 0, 4e3 }, 1, { { 2.0, "K/sec", F3 } } },
	{ __LINE__, WALL, { { TASK, 0, 2e9 } }, { REF, 0, 4e9 },
	  1, { { 2.0, "G/sec", F3 } } },
	{ __LINE__, WALL, { { TASK, 0, 2e9 } }, { L1DST, 0, 4e9 },
	  1, { { 2.0, "G/sec", F3 } } },
	/* Which clock: the event's own modifiers', task-clock first... */
	{ __LINE__, WALL, { { TASK, MOD_U, 1e9 }, { TASK, 0, 2e9 } },
	  { PF, MOD_U, 1000 }, 1, { { 1000.0, "/sec", F3 } } },
	{ __LINE__, WALL, { { TASK, MOD_U, 1e9 }, { TASK, 0, 2e9 } },
	  { PF, 0, 1000 }, 1, { { 500.0, "/sec", F3 } } },
	{ __LINE__, WALL, { { CPU, 0, 2e9 }, { TASK, 0, 1e9 } },
	  { PF, 0, 1000 }, 1, { { 1000.0, "/sec", F3 } } },
	{ __LINE__, WALL, { { CPU, 0, 2e9 } },
	  { PF, 0, 1000 }, 1, { { 500.0, "/sec", F3 } } },
	/* ...else any: task-clock:u for page-faults, as perf does. */
	{ __LINE__, WALL, { { TASK, MOD_U, 1e9 } },
	  { PF, 0, 1000 }, 1, { { 1000.0, "/sec", F3 } } },
	{ __LINE__, WALL, { { CPU, MOD_U, 2e9 }, { TASK, MOD_K, 1e9 } },
	  { PF, 0, 1000 }, 1, { { 1000.0, "/sec", F3 } } },
	{ __LINE__, WALL, { { CPU, MOD_U, 2e9 }, { TASK, MOD_K, 1e9 } },
	  { PF, MOD_U, 1000 }, 1, { { 500.0, "/sec", F3 } } },
	{ __LINE__, WALL, { { TASK, 0, 1e9 }, { TASK, 0, 3e9 } },
	  { PF, 0, 1000 }, 1, { { 500.0, "/sec", F3 } } },
	/* Without a clock, or with one that did not tick: no rate. */
	{ __LINE__, WALL, { { NONE } }, { PF, 0, 500 }, 0 },
	{ __LINE__, WALL, { { CYC, 0, 1e9 } }, { PF, 0, 500 }, 0 },
	{ __LINE__, WALL, { { TASK, 0, 0 } }, { PF, 0, 500 }, 0 },
	{ __LINE__, WALL, { { TASK, MOD_U, 0 }, { TASK, 0, 1e9 } },
	  { PF, MOD_U, 500 }, 0 },
};

static void record(struct metrics_ctx *ctx, const struct ev *evs)
{
	struct perf_event_attr a;
	int i;

	for (i = 0; i < CTX_MAX && evs[i].id != NONE; i++) {
		a = attr_of(&evs[i]);
		metrics_ctx_add(ctx, &a, evs[i].value);
	}
}

static void check_metric(int line, int i, const struct metric *m,
			 const struct want *w)
{
	ck_assert_msg(isfinite(m->value), "line %d: metric %d not finite",
		      line, i);
	ck_assert_msg(fabs(m->value - w->value) <= 1e-12 * fabs(w->value),
		      "line %d: metric %d %.15g, want %.15g", line, i,
		      m->value, w->value);
	ck_assert_msg(memchr(m->unit, '\0', sizeof(m->unit)) &&
		      strcmp(m->unit, w->unit) == 0,
		      "line %d: metric %d unit '%.*s', want '%s'", line, i,
		      (int)sizeof(m->unit), m->unit, w->unit);
	ck_assert_msg(m->width == w->width && m->prec == w->prec &&
		      m->suffix && strcmp(m->suffix, w->suffix) == 0,
		      "line %d: metric %d layout %d.%d'%s', want %d.%d'%s'",
		      line, i, m->width, m->prec,
		      m->suffix ? m->suffix : "(null)", w->width, w->prec,
		      w->suffix);
}

START_TEST(test_metric)
{
	const struct metric_row *t = &metric_rows[_i];
	struct metrics_ctx ctx;
	struct metric out[METRICS_MAX + 1];
	struct perf_event_attr a = attr_of(&t->ev);
	unsigned char untouched[sizeof(out[0])];
	int n, i;

	metrics_ctx_init(&ctx, t->wall_ns);
	record(&ctx, t->ctx);
	memset(out, 0x55, sizeof(out));
	memset(untouched, 0x55, sizeof(untouched));
	n = metrics_compute(&ctx, &a, t->ev.value, out);
	ck_assert_msg(n == t->n, "line %d: %d metrics, want %d", t->line, n,
		      t->n);
	for (i = 0; i < n; i++)
		check_metric(t->line, i, &out[i], &t->want[i]);
	for (i = n; i < METRICS_MAX + 1; i++)
		ck_assert_msg(!memcmp(&out[i], untouched, sizeof(untouched)),
			      "line %d: wrote metric %d of %d", t->line, i, n);
}
END_TEST

/* Eight modifier sets fit; a ninth is dropped and has no ratios. */
START_TEST(test_sets_full)
{
	static const unsigned int sets[] = {
		0, X_USER, X_KERNEL, X_HV, X_HOST, X_IDLE, MOD_U, MOD_K,
		X_USER | X_IDLE,
	};
	struct metrics_ctx ctx;
	struct metric out[METRICS_MAX];
	struct perf_event_attr a;
	struct ev e;
	size_t i;

	ck_assert_int_eq(N_ROWS(sets), METRICS_SETS + 1);
	metrics_ctx_init(&ctx, WALL);
	for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		e = (struct ev){ CYC, sets[i], 1e9 * (double)(i + 1) };
		a = attr_of(&e);
		metrics_ctx_add(&ctx, &a, e.value);
		/* Events nothing divides by take no set. */
		e = (struct ev){ PF, sets[i] | X_GUEST, 5 };
		a = attr_of(&e);
		metrics_ctx_add(&ctx, &a, e.value);
	}
	for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		e = (struct ev){ INS, sets[i], 2e9 * (double)(i + 1) };
		a = attr_of(&e);
		if (i < METRICS_SETS) {
			ck_assert_int_eq(metrics_compute(&ctx, &a, e.value,
							 out), 1);
			ck_assert_double_eq_tol(out[0].value, 2.0, 1e-12);
		} else {
			ck_assert_int_eq(metrics_compute(&ctx, &a, e.value,
							 out), 0);
		}
	}
}
END_TEST

/* init forgets what an earlier interval recorded. */
START_TEST(test_init_resets)
{
	const struct ev cyc = { CYC, 0, 4e9 }, ins = { INS, 0, 8e9 };
	struct perf_event_attr c = attr_of(&cyc), i = attr_of(&ins);
	struct metrics_ctx ctx;
	struct metric out[METRICS_MAX];

	metrics_ctx_init(&ctx, WALL);
	metrics_ctx_add(&ctx, &c, cyc.value);
	ck_assert_int_eq(metrics_compute(&ctx, &i, ins.value, out), 1);
	metrics_ctx_init(&ctx, WALL);
	ck_assert_int_eq(metrics_compute(&ctx, &i, ins.value, out), 0);
	metrics_ctx_add(&ctx, &c, 2e9);
	ck_assert_int_eq(metrics_compute(&ctx, &i, ins.value, out), 1);
	ck_assert_double_eq_tol(out[0].value, 4.0, 1e-12);
}
END_TEST

/* --metric-only's columns: by which events the run has, not values. */
static const struct column_row {
	int line;
	struct ev members[CTX_MAX];	/* the run's events, up to NONE */
	struct ev ev;
	int n;
	const char *unit[METRICS_MAX];
	int prec[METRICS_MAX];
} column_rows[] = {
	{ __LINE__, { { TASK } }, { TASK }, 1, { "CPUs utilized" }, { 3 } },
	{ __LINE__, { { NONE } }, { CPU }, 1, { "CPUs utilized" }, { 3 } },
	{ __LINE__, { { CYC } }, { CYC }, 0 },
	{ __LINE__, { { TASK }, { CYC } }, { CYC }, 1, { "GHz" }, { 3 } },
	{ __LINE__, { { TASK, MOD_U }, { CYC } }, { CYC }, 1, { "GHz" },
	  { 3 } },
	{ __LINE__, { { CYC }, { INS } }, { INS }, 1, { "insn per cycle" },
	  { 2 } },
	{ __LINE__, { { CYC, MOD_U }, { INS } }, { INS }, 0 },
	{ __LINE__, { { CYC, 0, 0, 8 } }, { INS, 0, 0, 8 }, 1,
	  { "insn per cycle" }, { 2 } },
	{ __LINE__, { { CYC }, { SFE } }, { INS }, 2,
	  { "insn per cycle", "stalled cycles per insn" }, { 2, 2 } },
	{ __LINE__, { { SBE } }, { INS }, 1, { "stalled cycles per insn" },
	  { 2 } },
	{ __LINE__, { { CYC } }, { SFE }, 1, { "frontend cycles idle" },
	  { 2 } },
	{ __LINE__, { { BR } }, { BRM }, 1, { "of all branches" }, { 2 } },
	{ __LINE__, { { BR, MOD_U } }, { BRM }, 0 },
	{ __LINE__, { { TASK } }, { BRM }, 0 },
	{ __LINE__, { { CREF } }, { CMISS }, 1, { "of all cache refs" },
	  { 3 } },
	/* Rates: always per second, whatever the counts will be. */
	{ __LINE__, { { TASK } }, { PF }, 1, { "/sec" }, { 3 } },
	{ __LINE__, { { CPU, MOD_U } }, { CS }, 1, { "/sec" }, { 3 } },
	{ __LINE__, { { TASK } }, { BR }, 1, { "/sec" }, { 3 } },
	{ __LINE__, { { TASK } }, { TP }, 1, { "/sec" }, { 3 } },
	{ __LINE__, { { CYC } }, { PF }, 0 },
	{ __LINE__, { { NONE } }, { REF }, 0 },
};

START_TEST(test_columns)
{
	const struct column_row *t = &column_rows[_i];
	struct metrics_column out[METRICS_MAX];
	struct perf_event_attr a = attr_of(&t->ev);
	struct metrics_ctx members;
	int n, i;

	metrics_ctx_init(&members, 0.0);
	record(&members, t->members);
	metrics_ctx_add(&members, &a, 0.0);
	n = metrics_columns(&members, &a, out);
	ck_assert_msg(n == t->n, "line %d: %d columns, want %d", t->line, n,
		      t->n);
	for (i = 0; i < n; i++) {
		ck_assert_msg(strcmp(out[i].unit, t->unit[i]) == 0,
			      "line %d: column %d '%s', want '%s'", t->line,
			      i, out[i].unit, t->unit[i]);
		ck_assert_msg(out[i].prec == t->prec[i] && out[i].width > 0,
			      "line %d: column %d prec %d width %d", t->line,
			      i, out[i].prec, out[i].width);
	}
}
END_TEST

/* What a column shows, or none (NO), in one interval's context. */
#define NO (-1.0)

static const struct column_value_row {
	int line;
	struct ev members[CTX_MAX];	/* the run's events, up to NONE */
	double wall_ns;
	struct ev ctx[CTX_MAX];		/* what this interval counted */
	struct ev ev;
	int n;
	double want[METRICS_MAX];	/* by column, NO for none */
} column_value_rows[] = {
	/* Rates are not scaled: 97514 /sec, never 97.514 K/sec. */
	{ __LINE__, { { TASK } }, WALL, { { TASK, 0, 1e9 } }, { PF, 0, 97514 },
	  1, { 97514.0 } },
	{ __LINE__, { { TASK } }, WALL, { { TASK, 0, 2e9 } }, { PF, 0, 3e12 },
	  1, { 1.5e12 } },
	{ __LINE__, { { TASK } }, WALL, { { TASK, 0, 1e9 } }, { PF, 0, 0 },
	  1, { 0.0 } },
	/* The clock stood still, or was not counted: an empty field. */
	{ __LINE__, { { TASK } }, WALL, { { TASK, 0, 0 } }, { PF, 0, 5 },
	  1, { NO } },
	{ __LINE__, { { TASK } }, WALL, { { NONE } }, { PF, 0, 5 },
	  1, { NO } },
	{ __LINE__, { { TASK } }, WALL, { { TASK, 0, 0 } }, { CYC, 0, 5 },
	  1, { NO } },
	{ __LINE__, { { TASK } }, WALL, { { TASK, 0, 2e9 } }, { CYC, 0, 5e9 },
	  1, { 2.5 } },
	{ __LINE__, { { NONE } }, 0, { { NONE } }, { TASK, 0, 1e9 },
	  1, { NO } },
	{ __LINE__, { { NONE } }, WALL, { { NONE } }, { TASK, 0, 5e8 },
	  1, { 0.5 } },
	/* A ratio whose denominator read 0 or was not counted. */
	{ __LINE__, { { BR } }, WALL, { { BR, 0, 0 } }, { BRM, 0, 5 },
	  1, { NO } },
	{ __LINE__, { { BR } }, WALL, { { NONE } }, { BRM, 0, 5 },
	  1, { NO } },
	{ __LINE__, { { BR } }, WALL, { { BR, 0, 200 } }, { BRM, 0, 5 },
	  1, { 2.5 } },
	/* IPC and stalls: each column stays in its place. */
	{ __LINE__, { { CYC }, { SFE } }, WALL,
	  { { CYC, 0, 0 }, { SFE, 0, 1e9 } }, { INS, 0, 8e9 },
	  2, { NO, 0.125 } },
	{ __LINE__, { { CYC }, { SFE } }, WALL,
	  { { CYC, 0, 4e9 }, { SFE, 0, 1e9 } }, { INS, 0, 0 },
	  2, { 0.0, NO } },
	{ __LINE__, { { CYC }, { SFE } }, WALL, { { CYC, 0, 4e9 } },
	  { INS, 0, 8e9 }, 2, { 2.0, NO } },
	{ __LINE__, { { CYC }, { SFE }, { SBE } }, WALL,
	  { { CYC, 0, 4e9 }, { SFE, 0, 1e9 }, { SBE, 0, 2e9 } },
	  { INS, 0, 8e9 }, 2, { 2.0, 0.25 } },
};

START_TEST(test_column_values)
{
	const struct column_value_row *t = &column_value_rows[_i];
	struct metrics_column col[METRICS_MAX];
	struct perf_event_attr a = attr_of(&t->ev);
	struct metrics_ctx members, ctx;
	double v;
	bool has;
	int n, i;

	metrics_ctx_init(&members, 0.0);
	record(&members, t->members);
	metrics_ctx_add(&members, &a, 0.0);
	metrics_ctx_init(&ctx, t->wall_ns);
	record(&ctx, t->ctx);
	metrics_ctx_add(&ctx, &a, t->ev.value);
	n = metrics_columns(&members, &a, col);
	ck_assert_msg(n == t->n, "line %d: %d columns, want %d", t->line, n,
		      t->n);
	for (i = 0; i < n; i++) {
		v = -2.0;
		has = metrics_column_value(&ctx, &a, t->ev.value, &col[i], &v);
		if (t->want[i] == NO) {
			ck_assert_msg(!has, "line %d: column %d has %g",
				      t->line, i, v);
			continue;
		}
		ck_assert_msg(has, "line %d: column %d has no value", t->line,
			      i);
		ck_assert_msg(fabs(v - t->want[i]) <= 1e-12 * fabs(t->want[i]),
			      "line %d: column %d %.15g, want %.15g", t->line,
			      i, v, t->want[i]);
	}
}
END_TEST

/* perf's scale of a rate unit: K/sec is a thousand /sec. */
static double rate_scale(const char *unit)
{
	switch (unit[0]) {
	case 'K':
		return 1e3;
	case 'M':
		return 1e6;
	case 'G':
		return 1e9;
	default:
		return 1.0;
	}
}

/*
 * Whatever metrics_compute gives, the columns give too, in a column of
 * the same unit (rates unscaled): --metric-only shows the same numbers.
 */
START_TEST(test_columns_match_compute)
{
	const struct metric_row *t = &metric_rows[_i];
	struct metrics_column col[METRICS_MAX];
	struct metric m[METRICS_MAX];
	struct perf_event_attr a = attr_of(&t->ev);
	struct metrics_ctx ctx;
	int n, n_cols, i, j;
	bool rate;
	double v;

	metrics_ctx_init(&ctx, t->wall_ns);
	record(&ctx, t->ctx);
	n = metrics_compute(&ctx, &a, t->ev.value, m);
	n_cols = metrics_columns(&ctx, &a, col);
	for (i = 0; i < n; i++) {
		rate = strstr(m[i].unit, "/sec") != NULL;
		for (j = 0; j < n_cols; j++)
			if (strcmp(col[j].unit, rate ? "/sec" : m[i].unit) == 0)
				break;
		ck_assert_msg(j < n_cols, "line %d: no column for '%s'",
			      t->line, m[i].unit);
		ck_assert_msg(metrics_column_value(&ctx, &a, t->ev.value,
						   &col[j], &v),
			      "line %d: column '%s' has no value", t->line,
			      col[j].unit);
		ck_assert_msg(fabs(v - m[i].value *
				   (rate ? rate_scale(m[i].unit) : 1.0)) <=
			      1e-9 * fabs(v),
			      "line %d: column %.15g, metric %.15g %s", t->line,
			      v, m[i].value, m[i].unit);
	}
}
END_TEST

/* A metric's words in machine formats: what it is when no number. */
static const struct text_row {
	int line;
	double value;
	enum metric_status status;
	const char *missing;
	int prec;
	const char *status_name, *text;
} text_rows[] = {
	{ __LINE__, 2.5, METRIC_COUNTED, NULL, 2, "counted", "2.50" },
	{ __LINE__, -600, METRIC_COUNTED, NULL, 6, "counted", "-600.000000" },
	{ __LINE__, NAN, METRIC_COUNTED, NULL, 2, "nan", "nan" },
	/* A NaN's sign is no number's: never "-nan". */
	{ __LINE__, -NAN, METRIC_COUNTED, NULL, 2, "nan", "nan" },
	{ __LINE__, INFINITY, METRIC_COUNTED, NULL, 2, "inf", "inf" },
	{ __LINE__, -INFINITY, METRIC_COUNTED, NULL, 2, "-inf", "-inf" },
	{ __LINE__, NAN, METRIC_NOT_SUPPORTED, "cycles", 2,
	  "not-supported", "<not supported: cycles>" },
	{ __LINE__, NAN, METRIC_NOT_COUNTED, "INST_RETIRED.ANY", 2,
	  "not-counted", "<not counted: INST_RETIRED.ANY>" },
	/* A value despite the status is still no value. */
	{ __LINE__, 1.0, METRIC_NOT_COUNTED, "a", 2, "not-counted",
	  "<not counted: a>" },
};

START_TEST(test_text)
{
	const struct text_row *t = &text_rows[_i];
	const struct metric m = {
		.value = t->value, .status = t->status, .missing = t->missing,
	};
	char buf[128];

	ck_assert_msg(strcmp(metric_status_name(&m), t->status_name) == 0,
		      "line %d: status %s, want %s", t->line,
		      metric_status_name(&m), t->status_name);
	metric_value_text(buf, sizeof(buf), &m, t->prec);
	ck_assert_msg(strcmp(buf, t->text) == 0, "line %d: '%s', want '%s'",
		      t->line, buf, t->text);
}
END_TEST

static Suite *metrics_suite(void)
{
	Suite *s = suite_create("metrics");
	TCase *tc = tcase_create("compute");

	tcase_add_loop_test(tc, test_metric, 0, N_ROWS(metric_rows));
	tcase_add_test(tc, test_sets_full);
	tcase_add_test(tc, test_init_resets);
	suite_add_tcase(s, tc);

	tc = tcase_create("columns");
	tcase_add_loop_test(tc, test_columns, 0, N_ROWS(column_rows));
	tcase_add_loop_test(tc, test_column_values, 0,
			    N_ROWS(column_value_rows));
	tcase_add_loop_test(tc, test_columns_match_compute, 0,
			    N_ROWS(metric_rows));
	suite_add_tcase(s, tc);

	tc = tcase_create("text");
	tcase_add_loop_test(tc, test_text, 0, N_ROWS(text_rows));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(metrics_suite());
}
