/* SPDX-License-Identifier: GPL-2.0-or-later */
/* perf stat's derived metrics: IPC, GHz, miss ratios, rates (pure). */
#ifndef PSTAT_METRICS_H
#define PSTAT_METRICS_H

#include <stdbool.h>
#include <stddef.h>

#include <linux/perf_event.h>

/* Modifier sets the context tells apart; events past them get no ratio. */
#define METRICS_SETS 8
/* Events that other events divide by (clocks, cycles, branches, ...). */
#define METRICS_NR_DENOMS 12

/* The denominators counted with one set of modifiers: metrics.c's own. */
struct metrics_set {
	unsigned long long key;		/* exclude_* bits, extended PMU type */
	double sum[METRICS_NR_DENOMS];
	unsigned int n[METRICS_NR_DENOMS];
};

/*
 * What the run measured that metrics divide by. On the stack, no
 * allocation; fill it with metrics_ctx_add() for every counted event
 * before the first metrics_compute().
 */
struct metrics_ctx {
	double wall_ns;			/* elapsed time of the command */
	unsigned int nsets;
	struct metrics_set set[METRICS_SETS];
};

void metrics_ctx_init(struct metrics_ctx *ctx, double wall_ns);

/*
 * Record one counted event. value is the multiplex-scaled count times the
 * event's unit scale; task-clock and cpu-clock in nanoseconds. The same
 * event recorded twice with the same modifiers counts the same thing, so
 * the context keeps their mean, as perf does: record a merged counter
 * once, with its total.
 */
void metrics_ctx_add(struct metrics_ctx *ctx,
		     const struct perf_event_attr *attr, double value);

/* Whether a metric divides by attr's event: what metrics_ctx_add keeps. */
bool metrics_denominator(const struct perf_event_attr *attr);

#define METRICS_MAX 2

/* Whether a metric's inputs counted: if not, it has no value. */
enum metric_status {
	METRIC_COUNTED,		/* a value: a number, NaN, an infinity */
	METRIC_NOT_COUNTED,	/* an input read <not counted> */
	METRIC_NOT_SUPPORTED,	/* an input read <not supported> */
};

/* What -M's MetricThreshold says of a value. */
enum metric_threshold {
	METRIC_THRESHOLD_NONE,	/* none, not evaluated, or NaN */
	METRIC_THRESHOLD_GOOD,	/* it evaluated to 0: perf's green */
	METRIC_THRESHOLD_BAD,	/* to anything else: perf's red */
};

/* The events a metric of -M reads, for pstat's own formats. */
#define METRIC_INPUTS_MAX 24

/* One metric and perf's layout for it. */
struct metric {
	double value;
	char unit[96];		/* "insn per cycle", "of all branches",
				 * or -M's "%  tma_frontend_bound" */
	/* perf: printf("%*.*f%s", width, prec, value, suffix), the unit */
	int width, prec;
	const char *suffix;	/* "", " ", "%" or " %" */
	/*
	 * -M's metrics say more; perf's own ratios leave it zero (NULL
	 * name, counted, no threshold). The strings are the tables':
	 * they live as long as the metricgroup.
	 */
	const char *name;	/* MetricName */
	const char *formula;	/* MetricExpr */
	enum metric_status status;
	const char *missing;	/* the input that did not count, if any */
	/* The events it read, each once, in the order read; more than
	 * METRIC_INPUTS_MAX are cut (inputs_cut). */
	const char *inputs[METRIC_INPUTS_MAX];
	size_t input_at[METRIC_INPUTS_MAX];	/* each its event's index
						 * in the evlist */
	unsigned int n_inputs;
	bool inputs_cut;
	double running_pct;	/* the least of its inputs' (100: exact) */
	enum metric_threshold threshold;
	double scale;		/* ScaleUnit's number: value = formula x it */
};

/*
 * The word pstat's formats give a metric's value: "counted" for a
 * number, "nan", "inf" or "-inf" for what is none (a division by zero
 * is NaN), "not-counted" or "not-supported" when an input did not
 * count (m->missing names it).
 */
const char *metric_status_name(const struct metric *m);

/*
 * A metric's value as machine formats write it, in the C locale: the
 * number with prec decimals, "nan", "inf", "-inf", or for a metric
 * whose input did not count "<not counted: NAME>" or
 * "<not supported: NAME>", as the human layout shows it too.
 */
void metric_value_text(char *buf, size_t len, const struct metric *m,
		       int prec);

/*
 * The metrics perf stat prints after '#' for this event and value (as
 * given to metrics_ctx_add): 0, 1 or 2. A second one goes on a line of
 * its own, as perf prints it.
 */
int metrics_compute(const struct metrics_ctx *ctx,
		    const struct perf_event_attr *attr, double value,
		    struct metric out[METRICS_MAX]);

/*
 * One column of --metric-only: a metric an event can have in the run,
 * with one unit for the whole run. Rates are always per second,
 * unscaled ("/sec"): a column never changes scale from line to line.
 */
struct metrics_column {
	unsigned int what;	/* metrics.c's own: which metric it is */
	char unit[40];		/* "CPUs utilized", "GHz", "/sec" */
	int prec;		/* decimals */
	int width;		/* the widest value it usually holds */
};

/*
 * The columns this event has in a run whose events are all recorded in
 * ctx (by metrics_ctx_add, whatever their values or states: only which
 * events the run has counts here, not what they read): 0, 1 or 2, in
 * metrics_compute's order. The same list for every interval.
 */
int metrics_columns(const struct metrics_ctx *ctx,
		    const struct perf_event_attr *attr,
		    struct metrics_column out[METRICS_MAX]);

/*
 * The value of col, one of this event's columns, for its value in ctx
 * (as metrics_compute takes them); false when it has none there: its
 * denominator was not counted or is 0.
 */
bool metrics_column_value(const struct metrics_ctx *ctx,
			  const struct perf_event_attr *attr, double value,
			  const struct metrics_column *col, double *v);

#endif
