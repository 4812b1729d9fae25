/* SPDX-License-Identifier: GPL-2.0-or-later */
/* perf stat's derived metrics: IPC, GHz, miss ratios, rates (pure). */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <linux/perf_event.h>

#include "fmt.h"
#include "metrics.h"

#ifndef PERF_PMU_TYPE_SHIFT
#define PERF_PMU_TYPE_SHIFT 32
#endif
#ifndef PERF_HW_EVENT_MASK
#define PERF_HW_EVENT_MASK 0xffffffffULL
#endif

/* What an event is to the metrics. Denominators first: they index sums. */
enum kind {
	K_TASK_CLOCK,
	K_CPU_CLOCK,
	K_CYCLES,
	K_STALLED_FRONT,
	K_STALLED_BACK,
	K_BRANCHES,
	K_CACHE_REFS,
	K_L1D,
	K_L1I,
	K_LL,
	K_DTLB,
	K_ITLB,
	K_NR_DENOMS,
	K_INSTRUCTIONS = K_NR_DENOMS,
	K_BRANCH_MISSES,
	K_CACHE_MISSES,
	K_L1D_MISS,
	K_L1I_MISS,
	K_LL_MISS,
	K_DTLB_MISS,
	K_ITLB_MISS,
	K_NONE,			/* the dummy of tool events: nothing */
	K_OTHER,		/* ref-cycles, page-faults...: rates */
	K_NR,
};

_Static_assert(K_NR_DENOMS == METRICS_NR_DENOMS,
	       "METRICS_NR_DENOMS must count the denominators");

#define HW_CACHE_READ(cache, result)					\
	(PERF_COUNT_HW_CACHE_##cache |					\
	 PERF_COUNT_HW_CACHE_OP_READ << 8 |				\
	 PERF_COUNT_HW_CACHE_RESULT_##result << 16)

/* The events perf stat knows by type and config (stat-shadow.c), type
 * by type (kind_of stops past its type's rows). */
static const struct {
	__u32 type;
	__u64 config;
	enum kind kind;
} kinds[] = {
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, K_TASK_CLOCK },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, K_CPU_CLOCK },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, K_NONE },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, K_CYCLES },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, K_INSTRUCTIONS },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND,
	  K_STALLED_FRONT },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND,
	  K_STALLED_BACK },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, K_BRANCHES },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, K_BRANCH_MISSES },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES, K_CACHE_REFS },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, K_CACHE_MISSES },
	{ PERF_TYPE_HW_CACHE, HW_CACHE_READ(L1D, ACCESS), K_L1D },
	{ PERF_TYPE_HW_CACHE, HW_CACHE_READ(L1D, MISS), K_L1D_MISS },
	{ PERF_TYPE_HW_CACHE, HW_CACHE_READ(L1I, ACCESS), K_L1I },
	{ PERF_TYPE_HW_CACHE, HW_CACHE_READ(L1I, MISS), K_L1I_MISS },
	{ PERF_TYPE_HW_CACHE, HW_CACHE_READ(LL, ACCESS), K_LL },
	{ PERF_TYPE_HW_CACHE, HW_CACHE_READ(LL, MISS), K_LL_MISS },
	{ PERF_TYPE_HW_CACHE, HW_CACHE_READ(DTLB, ACCESS), K_DTLB },
	{ PERF_TYPE_HW_CACHE, HW_CACHE_READ(DTLB, MISS), K_DTLB_MISS },
	{ PERF_TYPE_HW_CACHE, HW_CACHE_READ(ITLB, ACCESS), K_ITLB },
	{ PERF_TYPE_HW_CACHE, HW_CACHE_READ(ITLB, MISS), K_ITLB_MISS },
};

/* perf's printf layouts: "%7.2f ", "%7.2f%%", "%8.3f %%", "%8.3f". */
struct layout {
	int width, prec;
	const char *suffix;
};

static const struct layout per_cycle = { 7, 2, " " };
static const struct layout percent = { 7, 2, "%" };
static const struct layout percent3 = { 8, 3, " %" };
static const struct layout fixed3 = { 8, 3, "" };

/* Numerator over a denominator counted with the same modifiers. */
static const struct ratio {
	enum kind den;
	double scale;
	const struct layout *layout;
	const char *unit;	/* NULL: not a ratio */
} ratios[K_NR] = {
	[K_INSTRUCTIONS] = { K_CYCLES, 1.0, &per_cycle, "insn per cycle" },
	[K_STALLED_FRONT] = { K_CYCLES, 100.0, &percent,
			      "frontend cycles idle" },
	[K_STALLED_BACK] = { K_CYCLES, 100.0, &percent,
			     "backend cycles idle" },
	[K_BRANCH_MISSES] = { K_BRANCHES, 100.0, &percent,
			      "of all branches" },
	[K_CACHE_MISSES] = { K_CACHE_REFS, 100.0, &percent3,
			     "of all cache refs" },
	[K_L1D_MISS] = { K_L1D, 100.0, &percent,
			 "of all L1-dcache accesses" },
	[K_L1I_MISS] = { K_L1I, 100.0, &percent,
			 "of all L1-icache accesses" },
	[K_LL_MISS] = { K_LL, 100.0, &percent, "of all LL-cache accesses" },
	[K_DTLB_MISS] = { K_DTLB, 100.0, &percent,
			  "of all dTLB cache accesses" },
	[K_ITLB_MISS] = { K_ITLB, 100.0, &percent,
			  "of all iTLB cache accesses" },
};

static bool has_pmu_type(const struct perf_event_attr *attr)
{
	return attr->type == PERF_TYPE_HARDWARE ||
	       attr->type == PERF_TYPE_HW_CACHE;
}

static enum kind kind_of(const struct perf_event_attr *attr)
{
	__u64 config = attr->config;
	bool seen = false;
	size_t i;

	/* A hybrid PMU's cycles are still cycles. */
	if (has_pmu_type(attr))
		config &= PERF_HW_EVENT_MASK;
	/* kinds[] goes type by type: past attr's rows, none is left. */
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (kinds[i].type != attr->type) {
			if (seen)
				break;
			continue;
		}
		seen = true;
		if (kinds[i].config == config)
			return kinds[i].kind;
	}
	return K_OTHER;
}

/*
 * The modifiers that pair a ratio, as perf's evsel_context(): not
 * exclude_guest, which pstat's :p sets and perf sets on every event.
 * The extended PMU type keeps one hybrid PMU's cycles to its own
 * instructions.
 */
static unsigned long long key_of(const struct perf_event_attr *attr)
{
	unsigned long long key = 0;

	key |= attr->exclude_user ? 1u << 0 : 0;
	key |= attr->exclude_kernel ? 1u << 1 : 0;
	key |= attr->exclude_hv ? 1u << 2 : 0;
	key |= attr->exclude_host ? 1u << 3 : 0;
	key |= attr->exclude_idle ? 1u << 4 : 0;
	if (has_pmu_type(attr))
		key |= (attr->config >> PERF_PMU_TYPE_SHIFT) << 8;
	return key;
}

/* The slot of a modifier set, or -1 when it was never recorded. */
static int set_index(const struct metrics_ctx *ctx, unsigned long long key)
{
	unsigned int i;

	for (i = 0; i < ctx->nsets; i++)
		if (ctx->set[i].key == key)
			return (int)i;
	return -1;
}

void metrics_ctx_init(struct metrics_ctx *ctx, double wall_ns)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->wall_ns = wall_ns;
}

bool metrics_denominator(const struct perf_event_attr *attr)
{
	return kind_of(attr) < K_NR_DENOMS;
}

void metrics_ctx_add(struct metrics_ctx *ctx,
		     const struct perf_event_attr *attr, double value)
{
	enum kind k = kind_of(attr);
	unsigned long long key = key_of(attr);
	int i = set_index(ctx, key);

	if (k >= K_NR_DENOMS)
		return;
	if (i < 0) {
		if (ctx->nsets == METRICS_SETS)
			return;
		i = (int)ctx->nsets++;
		ctx->set[i].key = key;
	}
	ctx->set[i].sum[k] += value;
	ctx->set[i].n[k]++;
}

/* The mean of what was recorded, as perf's avg_stats(); 0 if nothing. */
static double mean(const struct metrics_set *s, enum kind k)
{
	return s && s->n[k] ? s->sum[k] / s->n[k] : 0.0;
}

static int put(struct metric *m, double value, const char *unit,
	       const struct layout *layout)
{
	*m = (struct metric){
		.value = value, .width = layout->width, .prec = layout->prec,
		.suffix = layout->suffix, .running_pct = 100.0,
	};
	fmt_str(m->unit, sizeof(m->unit), unit);
	return 1;
}

/*
 * The clock rates and GHz divide by. perf pools every task-clock and
 * cpu-clock whatever their modifiers; we take the one counted with the
 * event's own modifiers, task-clock first, else the first task-clock
 * recorded, else the first cpu-clock: the same number when, as usual,
 * the run has one clock.
 */
static bool clock_ns(const struct metrics_ctx *ctx,
		     const struct metrics_set *s, double *ns)
{
	static const enum kind clocks[] = { K_TASK_CLOCK, K_CPU_CLOCK };
	unsigned int c, i;

	for (c = 0; s && c < 2; c++) {
		if (s->n[clocks[c]]) {
			*ns = mean(s, clocks[c]);
			return true;
		}
	}
	for (c = 0; c < 2; c++) {
		for (i = 0; i < ctx->nsets; i++) {
			if (ctx->set[i].n[clocks[c]]) {
				*ns = mean(&ctx->set[i], clocks[c]);
				return true;
			}
		}
	}
	return false;
}

/* perf's convert_unit_double(): divide by 1000 while above 1000, to G. */
static int rate(const struct metrics_ctx *ctx, const struct metrics_set *s,
		double value, struct metric *m)
{
	static const char *const units[] = { "/sec", "K/sec", "M/sec",
					     "G/sec" };
	double ns, per_sec;
	int i;

	if (!clock_ns(ctx, s, &ns) || !(ns > 0.0))
		return 0;
	per_sec = 1e9 * value / ns;
	for (i = 0; i < 3 && per_sec > 1000.0; i++)
		per_sec /= 1000.0;
	return put(m, per_sec, units[i], &fixed3);
}

static int ghz(const struct metrics_ctx *ctx, const struct metrics_set *s,
	       double value, struct metric *m)
{
	double ns;

	if (!clock_ns(ctx, s, &ns) || !(ns > 0.0))
		return 0;
	return put(m, value / ns, "GHz", &fixed3);
}

static int cpus_utilized(const struct metrics_ctx *ctx, double value,
			 struct metric *m)
{
	if (!(ctx->wall_ns > 0.0))
		return 0;
	return put(m, value / ctx->wall_ns, "CPUs utilized", &fixed3);
}

static int ratio(const struct metrics_set *s, enum kind k, double value,
		 struct metric *m)
{
	const struct ratio *r = &ratios[k];
	double den = mean(s, r->den);

	if (!(den > 0.0))
		return 0;
	return put(m, value / den * r->scale, r->unit, r->layout);
}

/* IPC, then the worse of the two stalls per instruction, if counted. */
static int instructions(const struct metrics_set *s, double value,
			struct metric out[METRICS_MAX])
{
	int n = ratio(s, K_INSTRUCTIONS, value, &out[0]);
	double front = mean(s, K_STALLED_FRONT);
	double back = mean(s, K_STALLED_BACK);
	double stalled = front > back ? front : back;

	if (stalled > 0.0 && value > 0.0)
		n += put(&out[n], stalled / value, "stalled cycles per insn",
			 &per_cycle);
	return n;
}

int metrics_compute(const struct metrics_ctx *ctx,
		    const struct perf_event_attr *attr, double value,
		    struct metric out[METRICS_MAX])
{
	enum kind k = kind_of(attr);
	int i = set_index(ctx, key_of(attr));
	const struct metrics_set *s = i < 0 ? NULL : &ctx->set[i];

	switch (k) {
	case K_TASK_CLOCK:
	case K_CPU_CLOCK:
		return cpus_utilized(ctx, value, &out[0]);
	case K_CYCLES:
		return ghz(ctx, s, value, &out[0]);
	case K_INSTRUCTIONS:
		return instructions(s, value, out);
	case K_NONE:
		return 0;
	default:
		break;
	}
	if (ratios[k].unit)
		return ratio(s, k, value, &out[0]);
	return rate(ctx, s, value, &out[0]);
}

/* What a column of metrics_columns() shows. */
enum what {
	W_CPUS,		/* CPUs utilized */
	W_GHZ,
	W_RATIO,	/* over its denominator, as ratios[] says */
	W_STALLED,	/* stalled cycles per instruction */
	W_RATE,		/* per second of the clock */
};

/* An unscaled rate: up to a trillion a second, with three decimals. */
#define RATE_WIDTH 16

static const struct metrics_set *set_of(const struct metrics_ctx *ctx,
					const struct perf_event_attr *attr)
{
	int i = set_index(ctx, key_of(attr));

	return i < 0 ? NULL : &ctx->set[i];
}

/* Whether the run has the event k with the modifiers of s. */
static bool has(const struct metrics_set *s, enum kind k)
{
	return s && s->n[k];
}

static bool has_clock(const struct metrics_ctx *ctx,
		      const struct metrics_set *s)
{
	double ns;

	return clock_ns(ctx, s, &ns);
}

static int column(struct metrics_column *c, enum what what,
		  const char *unit, const struct layout *layout)
{
	c->what = what;
	snprintf(c->unit, sizeof(c->unit), "%s", unit);
	c->prec = layout->prec;
	c->width = what == W_RATE ? RATE_WIDTH : layout->width;
	return 1;
}

/* As metrics_compute, but by which events there are, not their values. */
int metrics_columns(const struct metrics_ctx *ctx,
		    const struct perf_event_attr *attr,
		    struct metrics_column out[METRICS_MAX])
{
	enum kind k = kind_of(attr);
	const struct metrics_set *s = set_of(ctx, attr);
	const struct ratio *r = &ratios[k];
	int n = 0;

	switch (k) {
	case K_TASK_CLOCK:
	case K_CPU_CLOCK:
		return column(&out[0], W_CPUS, "CPUs utilized", &fixed3);
	case K_CYCLES:
		return has_clock(ctx, s) ? column(&out[0], W_GHZ, "GHz",
						  &fixed3) : 0;
	case K_INSTRUCTIONS:
		if (has(s, r->den))
			n += column(&out[n], W_RATIO, r->unit, r->layout);
		if (has(s, K_STALLED_FRONT) || has(s, K_STALLED_BACK))
			n += column(&out[n], W_STALLED,
				    "stalled cycles per insn", &per_cycle);
		return n;
	case K_NONE:
		return 0;
	default:
		break;
	}
	if (r->unit)
		return has(s, r->den) ? column(&out[0], W_RATIO, r->unit,
					       r->layout) : 0;
	return has_clock(ctx, s) ? column(&out[0], W_RATE, "/sec", &fixed3)
				 : 0;
}

/* num / den x scale, when den is a positive number. */
static bool quotient(double num, double den, double scale, double *v)
{
	if (!(den > 0.0))
		return false;
	*v = num / den * scale;
	return true;
}

bool metrics_column_value(const struct metrics_ctx *ctx,
			  const struct perf_event_attr *attr, double value,
			  const struct metrics_column *col, double *v)
{
	enum kind k = kind_of(attr);
	const struct metrics_set *s = set_of(ctx, attr);
	double ns = 0.0, front, back;

	switch (col->what) {
	case W_CPUS:
		return quotient(value, ctx->wall_ns, 1.0, v);
	case W_GHZ:
		return clock_ns(ctx, s, &ns) && quotient(value, ns, 1.0, v);
	case W_RATE:
		return clock_ns(ctx, s, &ns) && quotient(value, ns, 1e9, v);
	case W_RATIO:
		return ratios[k].unit &&
		       quotient(value, mean(s, ratios[k].den), ratios[k].scale,
				v);
	case W_STALLED:
		if (!has(s, K_STALLED_FRONT) && !has(s, K_STALLED_BACK))
			return false;
		front = mean(s, K_STALLED_FRONT);
		back = mean(s, K_STALLED_BACK);
		return quotient(front > back ? front : back, value, 1.0, v);
	default:
		return false;
	}
}

const char *metric_status_name(const struct metric *m)
{
	if (m->status == METRIC_NOT_COUNTED)
		return "not-counted";
	if (m->status == METRIC_NOT_SUPPORTED)
		return "not-supported";
	if (isnan(m->value))
		return "nan";
	if (isinf(m->value))
		return m->value < 0 ? "-inf" : "inf";
	return "counted";
}

void metric_value_text(char *buf, size_t len, const struct metric *m,
		       int prec)
{
	if (m->status != METRIC_COUNTED)
		snprintf(buf, len, "<%s: %s>",
			 m->status == METRIC_NOT_COUNTED ? "not counted"
							 : "not supported",
			 m->missing ? m->missing : "?");
	else if (!isfinite(m->value))
		snprintf(buf, len, "%s", metric_status_name(m));
	else
		fmt_fixed(buf, len, prec, m->value);
}
