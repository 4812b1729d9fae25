/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pstat compare: the commands run in balanced blocks (A B B A ...), one
 * run at a time through run.c's session, each run's values kept as a
 * sample; or saved results read back (compare_read.c). Then each row's
 * statistics (cmpstats.c), verdicts and --fail-on, and the printers
 * (compare_print.c).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compare.h"
#include "compare_impl.h"
#include "count.h"
#include "dest.h"
#include "diag.h"
#include "evlist.h"
#include "metricgroup.h"
#include "notes.h"
#include "options.h"
#include "output.h"
#include "progress.h"
#include "results.h"
#include "run.h"
#include "target.h"
#include "verbose.h"

/* The threshold without --threshold: 1%. */
#define DEFAULT_THRESHOLD 1.0
/* The interval's level. */
#define LEVEL 0.95

const char *compare_label(size_t side, char *buf, size_t len)
{
	if (side < 26)
		snprintf(buf, len, "%c", (char)('A' + side));
	else
		snprintf(buf, len, "S%zu", side + 1);
	return buf;
}

const char *compare_verdict_name(enum compare_verdict v,
				 enum compare_kind kind)
{
	static const char *const more[] = {
		[COMPARE_EVENT] = "slower", [COMPARE_WALL] = "slower",
		[COMPARE_RSS] = "larger", [COMPARE_METRIC] = "higher",
	};
	static const char *const less[] = {
		[COMPARE_EVENT] = "faster", [COMPARE_WALL] = "faster",
		[COMPARE_RSS] = "smaller", [COMPARE_METRIC] = "lower",
	};

	switch (v) {
	case COMPARE_NO_DATA:
		return "no data";
	case COMPARE_TOO_FEW:
		return "too few runs";
	case COMPARE_UNSURE:
		return "unsure";
	case COMPARE_SAME:
		return "no change";
	case COMPARE_MORE:
		return more[kind];
	case COMPARE_LESS:
		return less[kind];
	}
	return "?";
}

struct compare_row *compare_add_row(struct compare *c, const char *name,
				    const char *unit, enum compare_kind kind)
{
	struct compare_row *rows, *r;
	size_t i;

	rows = realloc(c->rows, (c->n_rows + 1) * sizeof(*rows));
	if (!rows)
		return NULL;
	c->rows = rows;
	r = &rows[c->n_rows];
	*r = (struct compare_row){ .kind = kind,
				   .threshold_pct = DEFAULT_THRESHOLD };
	r->name = strdup(name);
	r->unit = strdup(unit ? unit : "");
	r->side = calloc(c->n_sides, sizeof(*r->side));
	r->change = calloc(c->n_sides, sizeof(*r->change));
	if (!r->name || !r->unit || !r->side || !r->change) {
		free(r->name);
		free(r->unit);
		free(r->side);
		free(r->change);
		return NULL;
	}
	for (i = 0; i < c->n_sides; i++) {
		r->side[i].state = COUNTS_NOT_COUNTED;
		r->side[i].least_running_pct = 100.0;
	}
	c->n_rows++;
	return r;
}

int compare_add_sample(struct compare_samples *s, double v)
{
	size_t cap = s->cap ? s->cap * 2 : 16;
	double *nv;

	if (s->n == s->cap) {
		nv = realloc(s->v, cap * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		s->v = nv;
		s->cap = cap;
	}
	s->v[s->n++] = v;
	return 0;
}

int compare_log_run(struct compare *c, const struct compare_run *r)
{
	size_t cap = c->cap_log ? c->cap_log * 2 : 64;
	struct compare_run *nl;

	if (c->n_log == c->cap_log) {
		nl = realloc(c->log, cap * sizeof(*nl));
		if (!nl)
			return -ENOMEM;
		c->log = nl;
		c->cap_log = cap;
	}
	c->log[c->n_log++] = *r;
	return 0;
}

void compare_free(struct compare *c)
{
	size_t i, k;

	for (i = 0; i < c->n_rows; i++) {
		for (k = 0; k < c->n_sides; k++)
			free(c->rows[i].side[k].v);
		free(c->rows[i].side);
		free(c->rows[i].change);
		free(c->rows[i].name);
		free(c->rows[i].unit);
	}
	for (k = 0; c->own_argv && c->argv && k < c->n_sides; k++) {
		for (i = 0; c->argv[k] && c->argv[k][i]; i++)
			free(c->argv[k][i]);
		free(c->argv[k]);
	}
	if (c->own_argv)
		free(c->argv);
	c->argv = NULL;
	free(c->rows);
	free(c->log);
	free(c->kept);
	free(c->failed);
	c->rows = NULL;
	c->log = NULL;
	c->kept = c->failed = NULL;
	c->n_rows = c->n_log = c->cap_log = 0;
}

/* Whether name (n bytes) is row r's. */
static bool names_row(const struct compare_row *r, const char *name,
		      size_t n)
{
	return strlen(r->name) == n && memcmp(r->name, name, n) == 0;
}

/* d relative to base, in %: infinite for a change from 0. */
static double relative(double d, double base)
{
	if (base != 0.0)
		return 100.0 * d / fabs(base);
	return d > 0.0 ? INFINITY : d < 0.0 ? -INFINITY : 0.0;
}

/*
 * A change of the threshold or more is one (+1% at 1%); within it, in
 * (-threshold, threshold), none; and an interval of nothing but 0 is no
 * change at a threshold of 0 too.
 */
static void verdict(struct compare_change *ch, double threshold)
{
	if (!ch->hl.has_interval)
		ch->verdict = COMPARE_TOO_FEW;
	else if (ch->lo_pct >= threshold && ch->lo_pct > 0.0)
		ch->verdict = COMPARE_MORE;
	else if (ch->hi_pct <= -threshold && ch->hi_pct < 0.0)
		ch->verdict = COMPARE_LESS;
	else if ((ch->lo_pct > -threshold && ch->hi_pct < threshold) ||
		 (ch->lo_pct == 0.0 && ch->hi_pct == 0.0))
		ch->verdict = COMPARE_SAME;
	else
		ch->verdict = COMPARE_UNSURE;
}

/* Side s of row r against the first. 0 or -ENOMEM. */
static int change(struct compare_row *r, size_t s)
{
	const struct compare_samples *a = &r->side[0], *b = &r->side[s];
	struct compare_change *ch = &r->change[s];
	double base;
	int ret;

	*ch = (struct compare_change){ .verdict = COMPARE_NO_DATA,
				       .ratio = NAN, .est_pct = NAN,
				       .lo_pct = NAN, .hi_pct = NAN };
	ch->mwu.p = NAN;
	ch->mwu.u = NAN;
	ch->hl.estimate = ch->hl.lo = ch->hl.hi = NAN;
	if (!a->n || !b->n)
		return 0;
	base = a->sum.median;
	ch->ratio = relative(b->sum.median - base, base);
	ret = cmpstats_mann_whitney(a->v, a->n, b->v, b->n, &ch->mwu);
	if (ret == 0)
		ret = cmpstats_hodges_lehmann(a->v, a->n, b->v, b->n, LEVEL,
					      &ch->hl);
	if (ret < 0)
		return ret;
	ch->est_pct = relative(ch->hl.estimate, base);
	ch->lo_pct = relative(ch->hl.lo, base);
	ch->hi_pct = relative(ch->hl.hi, base);
	verdict(ch, r->threshold_pct);
	return 0;
}

/* The thresholds of --threshold: every row's, then each event's. */
static void thresholds(struct compare *c, const struct options *o)
{
	struct options_threshold t;
	size_t i, j;

	for (j = 0; j < o->n_thresholds; j++) {
		if (options_parse_threshold(o->thresholds[j], &t, NULL, 0) < 0)
			continue;
		for (i = 0; i < c->n_rows && !t.event; i++)
			c->rows[i].threshold_pct = t.pct;
	}
	for (j = 0; j < o->n_thresholds; j++) {
		if (options_parse_threshold(o->thresholds[j], &t, NULL, 0) < 0)
			continue;
		for (i = 0; i < c->n_rows && t.event; i++)
			if (names_row(&c->rows[i], t.event, t.event_len))
				c->rows[i].threshold_pct = t.pct;
	}
}

int compare_analyse(struct compare *c, const struct options *o)
{
	struct options_fail_on f;
	struct compare_row *r;
	size_t i, s, j;
	int ret;

	thresholds(c, o);
	for (i = 0; i < c->n_rows; i++) {
		r = &c->rows[i];
		for (s = 0; s < c->n_sides; s++)
			if (r->side[s].n &&
			    cmpstats_summary(r->side[s].v, r->side[s].n,
					     &r->side[s].sum) < 0)
				return -ENOMEM;
		for (s = 1; s < c->n_sides; s++) {
			ret = change(r, s);
			if (ret < 0)
				return ret;
		}
		for (j = 0; j < o->n_fail_on; j++) {
			if (options_parse_fail_on(o->fail_on[j], &f, NULL, 0) < 0 ||
			    !names_row(r, f.event, f.event_len))
				continue;
			for (s = 1; s < c->n_sides; s++)
				r->change[s].fail |= r->change[s].hl.has_interval &&
					(f.above ? r->change[s].lo_pct > f.pct
						 : r->change[s].hi_pct < f.pct);
		}
	}
	return 0;
}

/*
 * The --threshold and --fail-on names that are no row (names), or the
 * --fail-on rows without an interval: said, false. Else true.
 */
static bool conditions_hold(const struct compare *c, const struct options *o,
			    bool names)
{
	struct options_threshold t;
	struct options_fail_on f;
	const char *name;
	size_t j, i, n, s, few = 0;
	char all[1024];
	size_t at = 0;
	bool ok = true, found;

	all[0] = '\0';
	for (i = 0; i < c->n_rows && at < sizeof(all); i++)
		at += (size_t)snprintf(all + at, sizeof(all) - at, "%s%s",
				       i ? ", " : "", c->rows[i].name);
	for (j = 0; j < o->n_thresholds + o->n_fail_on; j++) {
		if (j < o->n_thresholds) {
			if (options_parse_threshold(o->thresholds[j], &t, NULL, 0) < 0 ||
			    !t.event)
				continue;
			name = t.event;
			n = t.event_len;
		} else {
			if (options_parse_fail_on(o->fail_on[j - o->n_thresholds],
						  &f, NULL, 0) < 0)
				continue;
			name = f.event;
			n = f.event_len;
		}
		found = false;
		for (i = 0; i < c->n_rows; i++) {
			if (!names_row(&c->rows[i], name, n))
				continue;
			found = true;
			for (s = 1; !names && j >= o->n_thresholds &&
				    s < c->n_sides; s++)
				if (!c->rows[i].change[s].hl.has_interval) {
					diag_error("--fail-on %s: %s has no 95%% interval of %s's change (%s): give each command %zu runs or more (-r)",
						   o->fail_on[j - o->n_thresholds],
						   c->rows[i].name,
						   compare_label(s, all, sizeof(all)),
						   compare_verdict_name(c->rows[i].change[s].verdict,
									c->rows[i].kind),
						   cmpstats_min_runs(LEVEL));
					few++;
				}
		}
		if (!found) {
			diag_error("%s '%.*s': no such row in the comparison; its rows are %s",
				   j < o->n_thresholds ? "--threshold" : "--fail-on",
				   (int)n, name, all);
			ok = false;
		}
	}
	return ok && !few;
}

/* ---- The live comparison ---- */

/* One command, counted as pstat counts one. */
struct side {
	struct options o;	/* the options, with this command */
	struct evlist *el;
	struct metricgroup *mg;
	struct target tg;
	struct output *out;	/* what run.c prepares the results for */
	struct output_run info;
	struct run *run;
	struct run_hooks hooks;
	size_t runs;		/* made so far */
};

/* A metric row: the results row its event is, and which of its. */
struct metric_ref {
	size_t row;		/* of c */
	size_t rr;		/* of the results */
	int k;
};

struct live {
	struct compare *c;
	struct side *sides;
	struct progress progress;
	size_t made, total;	/* runs made, and to make */
	size_t warmup;		/* warm-up runs of each command */
	size_t n_event_rows;	/* c's first rows: the results' */
	struct metric_ref *metrics;
	size_t n_metrics;
	size_t wall_row, rss_row;
	struct output_run *cur;	/* the run being read, for metrics */
	const struct results *res;
};

static void run_started(void *arg, size_t run, size_t of)
{
	struct live *l = arg;

	if (progress_on(&l->progress))
		progress_started(&l->progress, l->made, l->total,
				 progress_now());
}

static void run_ended(void *arg, size_t run, size_t of, int status,
		      int signalled, bool left_out)
{
	struct live *l = arg;

	if (progress_on(&l->progress))
		progress_ended(&l->progress, progress_now());
}

static void tick(void *arg)
{
	struct live *l = arg;

	progress_tick(&l->progress, progress_now());
}

/* The first command's counters are open: notes, -v's lines. */
static void opened(void *arg, const struct evlist *el, const char *command)
{
	struct live *l = arg;

	if (el == l->sides[0].el) {
		notes_opened(l->sides[0].o.argv, el, command);
		verbose_opened(el);
	}
}

/* Event i of the results of the run just made, for a metric. */
static enum counts_state event_value(void *arg, size_t i, double *v,
				     double *running_pct)
{
	const struct live *l = arg;
	const struct results *res = l->res;
	struct counts_result cr;
	struct counts_values cv;
	size_t k;

	for (k = 0; k < res->n_rows; k++) {
		const struct results_row *rr = &res->rows[k];

		if (rr->first != i)
			continue;
		if (!results_values(rr, false, &cv) || !rr->covered)
			return COUNTS_NOT_COUNTED;
		*v = results_value(res, rr, &cv, &cr);
		*running_pct = cr.running_pct;
		return cr.state;
	}
	return COUNTS_NOT_COUNTED;
}

static int metrics_of(const struct live *l, const struct side *sd,
		      size_t rr, struct metric *m, int max)
{
	const struct metricgroup_values v = {
		.arg = (void *)l, .event = event_value,
		.wall_ns = l->cur->last_elapsed_ns,
		.user_ns = l->cur->last_user_s * 1e9,
		.system_ns = l->cur->last_sys_s * 1e9,
	};

	return sd->mg ? metricgroup_row(sd->mg, l->res->rows[rr].first, &v,
					m, max) : 0;
}

/* A metric's unit without its name ("%  tma_retiring": "%"). */
static void metric_unit(char *buf, size_t len, const struct metric *m)
{
	size_t n = strlen(m->unit), k = m->name ? strlen(m->name) : 0;

	if (k && n >= k && strcmp(m->unit + n - k, m->name) == 0)
		n -= k;
	while (n && m->unit[n - 1] == ' ')
		n--;
	snprintf(buf, len, "%.*s", (int)n, m->unit);
}

/* The rows, from the first run's results: its events, -M's metrics,
 * wall time, max RSS. 0 or -ENOMEM. */
static int make_rows(struct live *l, const struct side *sd)
{
	struct metric m[64];
	char unit[96];
	size_t i;
	int n, k;

	for (i = 0; i < l->res->n_rows; i++)
		if (!compare_add_row(l->c, l->res->rows[i].name,
				     l->res->rows[i].unit, COMPARE_EVENT))
			return -ENOMEM;
	l->n_event_rows = l->c->n_rows;
	for (i = 0; i < l->res->n_rows; i++) {
		n = metrics_of(l, sd, i, m, 64);
		for (k = 0; k < n; k++) {
			struct metric_ref *mr;

			if (!m[k].name)
				continue;
			mr = realloc(l->metrics, (l->n_metrics + 1) *
					       sizeof(*mr));
			if (!mr)
				return -ENOMEM;
			l->metrics = mr;
			metric_unit(unit, sizeof(unit), &m[k]);
			l->metrics[l->n_metrics++] = (struct metric_ref){
				.row = l->c->n_rows, .rr = i, .k = k };
			if (!compare_add_row(l->c, m[k].name, unit,
					     COMPARE_METRIC))
				return -ENOMEM;
		}
	}
	l->wall_row = l->c->n_rows;
	if (!compare_add_row(l->c, "wall-time", "msec", COMPARE_WALL))
		return -ENOMEM;
	l->rss_row = l->c->n_rows;
	if (!compare_add_row(l->c, "max-rss", "KiB", COMPARE_RSS))
		return -ENOMEM;
	return 0;
}

static int add_value(struct compare_samples *s, enum counts_state state,
		     double v, double running_pct)
{
	if (state != COUNTS_COUNTED && state != COUNTS_SCALED) {
		s->missing++;
		s->state = state;
		return 0;
	}
	/* A metric's division by zero: counted, and no number. */
	if (!isfinite(v)) {
		s->missing++;
		s->no_number = true;
		return 0;
	}
	if (state == COUNTS_SCALED || running_pct < 100.0) {
		s->multiplexed = true;
		if (running_pct < s->least_running_pct)
			s->least_running_pct = running_pct;
	}
	return compare_add_sample(s, v);
}

/* The run side k just made: its values as samples of each row. */
static int take_values(struct live *l, size_t k)
{
	struct side *sd = &l->sides[k];
	const struct results *res = l->res;
	struct counts_result cr;
	struct counts_values cv;
	struct metric m[64];
	size_t i, j;
	double v;
	int ret = 0, n;

	if (res->n_rows != l->n_event_rows)
		return -EPROTO;
	for (i = 0; i < res->n_rows && ret == 0; i++) {
		const struct results_row *rr = &res->rows[i];

		if (strcmp(rr->name, l->c->rows[i].name) != 0)
			return -EPROTO;
		if (!results_values(rr, false, &cv) || !rr->covered) {
			cr = (struct counts_result){ .state = COUNTS_NOT_COUNTED,
						     .running_pct = 100.0 };
			v = 0.0;
		} else {
			v = results_value(res, rr, &cv, &cr);
		}
		if (rr->clock)
			v /= 1e6;
		ret = add_value(&l->c->rows[i].side[k], cr.state, v,
				cr.running_pct);
	}
	for (j = 0; j < l->n_metrics && ret == 0; j++) {
		n = metrics_of(l, sd, l->metrics[j].rr, m, 64);
		if (l->metrics[j].k >= n)
			return -EPROTO;
		const struct metric *mk = &m[l->metrics[j].k];

		ret = add_value(&l->c->rows[l->metrics[j].row].side[k],
				mk->status == METRIC_NOT_SUPPORTED
				? COUNTS_NOT_SUPPORTED
				: mk->status == METRIC_NOT_COUNTED
				? COUNTS_NOT_COUNTED : COUNTS_COUNTED,
				mk->value, mk->running_pct);
	}
	if (ret == 0)
		ret = compare_add_sample(&l->c->rows[l->wall_row].side[k],
					 sd->info.last_elapsed_ns / 1e6);
	if (ret == 0)
		ret = compare_add_sample(&l->c->rows[l->rss_row].side[k],
					 (double)sd->info.last_max_rss_kib);
	return ret;
}

/* A run that failed, said: it is left out. */
static void failed_note(const struct side *sd, size_t k, size_t run,
			const struct compare_run *cr)
{
	char label[16], name[16];

	compare_label(k, label, sizeof(label));
	if (cr->timed_out)
		diag_note("%s's run %zu ('%s') ran past --timeout %u ms and was stopped: it is left out",
			  label, run + 1, sd->o.argv[0], sd->o.timeout_ms);
	else if (cr->signal)
		diag_note("%s's run %zu ('%s') was killed by %s: it is left out",
			  label, run + 1, sd->o.argv[0],
			  output_signal_name(cr->signal, name, sizeof(name)));
	else
		diag_note("%s's run %zu ('%s') exited with status %d: it is left out",
			  label, run + 1, sd->o.argv[0], cr->exit_status);
}

/* One run of side k; warmup: left out whatever it gives. The outcome;
 * *fail says more. */
static enum run_outcome one_run(struct live *l, size_t k, bool warmup,
				struct run_failure *fail)
{
	struct side *sd = &l->sides[k];
	struct compare_run cr = {
		.side = k, .warmup = warmup,
		.run = warmup ? sd->runs : sd->runs - l->warmup,
	};
	enum run_outcome ret;
	char label[16];
	int status;

	ret = run_next(sd->run, &sd->info, fail);
	sd->runs++;
	l->made++;
	if (ret != RUN_DONE || run_stopped(sd->run))
		return ret;
	status = sd->info.last_status;
	cr.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	cr.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	cr.timed_out = sd->info.last_timed_out;
	l->res = run_results(sd->run);
	l->cur = &sd->info;
	if (!l->res) {
		fail->err = ENOMEM;
		return RUN_FAILED;
	}
	if (!l->c->n_rows && make_rows(l, sd) < 0) {
		fail->err = ENOMEM;
		return RUN_FAILED;
	}
	cr.kept = !warmup && cr.exit_status == 0 && !cr.timed_out;
	if (cr.kept) {
		int err = take_values(l, k);

		if (err < 0) {
			fail->err = -err;
			return RUN_FAILED;
		}
		l->c->kept[k]++;
	} else if (!warmup) {
		l->c->failed[k]++;
	}
	if (compare_log_run(l->c, &cr) < 0) {
		fail->err = ENOMEM;
		return RUN_FAILED;
	}
	if (!warmup && !cr.kept && diag_notes_on()) {
		if (progress_on(&l->progress))
			progress_clear(&l->progress);
		failed_note(sd, k, cr.run, &cr);
	}
	diag_verbose("run %zu of %zu: %s ('%s'), %s %zu of %zu: %s%s",
		     l->made, l->total, compare_label(k, label, sizeof(label)),
		     sd->o.argv[0], warmup ? "warm-up" : "run", cr.run + 1,
		     warmup ? l->warmup : sd->o.repeat - l->warmup,
		     cr.timed_out ? "stopped at --timeout" :
		     cr.signal ? "killed by a signal" :
		     cr.exit_status == 0 ? "exit status 0" : "failed",
		     cr.kept ? "" : ", left out");
	return RUN_DONE;
}

/* A side made ready to run: its events, target and session. 0, or -1
 * said. */
static int side_init(struct live *l, struct side *sd, const struct options *o,
		     size_t k, FILE *dest)
{
	char err[256];
	int ret;

	sd->o = *o;
	sd->o.argv = o->sides[k];
	sd->o.repeat = o->repeat + o->warmup;
	sd->o.out.format = OUTPUT_HUMAN;
	sd->o.out.metric_only = false;
	sd->el = evlist_new();
	if (!sd->el) {
		diag_errno(ENOMEM, "cannot allocate the event list");
		return -1;
	}
	ret = count_events(&sd->o, sd->el, NULL, &sd->mg);
	if (ret < 0) {
		if (ret != -EINVAL)
			diag_errno(-ret, "cannot make the event list");
		return -1;
	}
	ret = target_resolve(&sd->tg, &sd->o, err, sizeof(err));
	if (ret < 0) {
		if (ret == -EINVAL)
			diag_error("%s", err);
		else
			diag_errno(-ret, "cannot make the target of '%s'",
				   sd->o.argv[0]);
		return -1;
	}
	sd->out = output_new(dest, &sd->o.out);
	sd->hooks = (struct run_hooks){
		.opened = opened, .run_started = run_started,
		.run_ended = run_ended, .arg = l, .tick_fd = -1,
	};
	if (progress_on(&l->progress)) {
		sd->hooks.tick = tick;
		sd->hooks.tick_fd = l->progress.tick_fd;
	}
	sd->run = sd->out ? run_new(&sd->o, &sd->tg, sd->el, sd->out,
				    &sd->info, &sd->hooks, NULL) : NULL;
	if (!sd->run) {
		diag_errno(ENOMEM, "cannot allocate the runs of '%s'",
			   sd->o.argv[0]);
		return -1;
	}
	return 0;
}

static void side_fini(struct side *sd)
{
	enum run_outcome ret = RUN_DONE;
	struct run_failure fail = { 0 };

	if (sd->run)
		results_free(run_finish(sd->run, &ret, &sd->info, &fail));
	if (sd->out)
		output_close(sd->out);
	target_free(&sd->tg);
	metricgroup_free(sd->mg);
	/* The counters are exit's to close (evlist.h). */
	if (sd->el)
		evlist_leave_to_exit(sd->el);
	evlist_free(sd->el);
}

/* The runs, in balanced blocks: forward, then backward (A B, B A). The
 * exit status of a failure that stopped them (said), or 0; *signal: a
 * signal to pstat that stopped them. */
static int make_runs(struct live *l, const struct options *o, int *signal)
{
	size_t n = l->c->n_sides, j, t, k;
	struct run_failure fail;
	enum run_outcome ret;
	char msg[2048];
	int status;

	for (j = 0; j < o->warmup + o->repeat; j++) {
		for (t = 0; t < n; t++) {
			k = j % 2 ? n - 1 - t : t;
			fail = (struct run_failure){ 0 };
			ret = one_run(l, k, j < o->warmup, &fail);
			/* The rows are known after the first run: a name of
			 * none stops the runs there. */
			if (j == 0 && t == 0 && l->c->n_rows &&
			    !conditions_hold(l->c, o, true)) {
				progress_clear(&l->progress);
				return EXIT_PSTAT_FAILED;
			}
			if (fail.signal) {
				*signal = fail.signal;
				l->c->interrupted = true;
				return 0;
			}
			if (ret == RUN_DONE && !fail.step)
				continue;
			progress_clear(&l->progress);
			status = count_failed(&l->sides[k].o, &l->sides[k].tg,
					      l->sides[k].el, ret, &fail, msg,
					      sizeof(msg));
			diag_error("%s", msg);
			return status;
		}
	}
	return 0;
}

/* The terminal's width, or 0 when dest is none. */
static int tty_width(int fd)
{
	struct winsize ws;

	if (!isatty(fd))
		return 0;
	return ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col ? ws.ws_col : 80;
}

/* Commands run, or files read, into c: 0 or the exit status said. */
static int gather(struct compare *c, struct options *o, FILE *dest,
		  int *signal)
{
	struct live l = { .c = c };
	size_t k;
	char err[1024];
	int ret = 0;

	if (!o->sides) {
		ret = compare_read(c, o, err, sizeof(err));
		if (ret == -ENOMEM)
			diag_errno(ENOMEM, "cannot read the saved results");
		else if (ret < 0)
			diag_error("%s", err);
		return ret < 0 ? EXIT_PSTAT_FAILED : 0;
	}
	c->argv = o->sides;
	c->runs = o->repeat;
	c->warmup = o->warmup;
	l.sides = calloc(c->n_sides, sizeof(*l.sides));
	if (!l.sides) {
		diag_errno(ENOMEM, "cannot allocate the commands");
		return EXIT_PSTAT_FAILED;
	}
	l.total = (o->repeat + o->warmup) * c->n_sides;
	l.warmup = o->warmup;
	progress_init(&l.progress, o->out.format == OUTPUT_HUMAN && !o->quiet &&
		      isatty(STDERR_FILENO) ? diag_stream() : NULL);
	for (k = 0; k < c->n_sides && ret == 0; k++)
		if (side_init(&l, &l.sides[k], o, k, dest) < 0)
			ret = EXIT_PSTAT_FAILED;
	if (ret == 0)
		ret = make_runs(&l, o, signal);
	progress_fini(&l.progress);
	for (k = 0; k < c->n_sides; k++)
		side_fini(&l.sides[k]);
	free(l.sides);
	free(l.metrics);
	return ret;
}

/* What the comparison says: 1 for a --fail-on met or a failed run. */
static int verdicts(const struct compare *c, const struct options *o)
{
	size_t i, s, failed = 0;
	char label[16];
	bool met = false;

	for (i = 0; i < c->n_rows; i++)
		for (s = 1; s < c->n_sides; s++)
			met |= c->rows[i].change[s].fail;
	for (s = 0; s < c->n_sides; s++)
		failed += c->failed[s];
	for (s = 0; s < c->n_sides; s++)
		if (c->kept[s] == 0 && c->n_log)
			diag_notice("%s ('%s'): no run succeeded, so nothing of it is compared",
				    compare_label(s, label, sizeof(label)),
				    c->argv ? c->argv[s][0] : c->files[s]);
	if (met)
		return 1;
	if (failed && !o->ignore_failure) {
		diag_notice("%zu run%s failed and %s left out (-i: no failure)",
			    failed, failed == 1 ? "" : "s",
			    failed == 1 ? "was" : "were");
		return 1;
	}
	return 0;
}

int compare_run(struct options *o, int env_err)
{
	struct compare c = { 0 };
	FILE *dest = NULL;
	int ret, signal = 0, fd = STDERR_FILENO, wret;

	(void)env_err;
	c.n_sides = o->sides ? o->n_sides : o->n_compare_files;
	c.kept = calloc(c.n_sides + 1, sizeof(*c.kept));
	c.failed = calloc(c.n_sides + 1, sizeof(*c.failed));
	if (!c.kept || !c.failed) {
		diag_errno(ENOMEM, "cannot allocate the comparison");
		compare_free(&c);
		return EXIT_PSTAT_FAILED;
	}
	dest = count_destination(o, &fd);
	if (!dest) {
		compare_free(&c);
		return EXIT_PSTAT_FAILED;
	}
	/* Machine output and notes never share a stream. */
	diag_quiet(o->quiet || (o->out.format != OUTPUT_HUMAN &&
				count_shares_stderr(fd)));
	verbose_trace_opens();
	ret = gather(&c, o, dest, &signal);
	if (ret == 0 && c.n_rows == 0 && !signal) {
		diag_error("pstat compare: nothing was counted");
		ret = EXIT_PSTAT_FAILED;
	}
	if (ret == 0 && c.n_rows) {
		if (compare_analyse(&c, o) < 0) {
			diag_errno(ENOMEM, "cannot compute the statistics");
			ret = EXIT_PSTAT_FAILED;
		} else if (!conditions_hold(&c, o, false)) {
			ret = EXIT_PSTAT_FAILED;
		}
	}
	if (ret == 0 && c.n_rows) {
		wret = compare_print(dest, &c, o, isatty(fd), tty_width(fd));
		if (wret < 0) {
			diag_errno(-wret, "cannot write the comparison");
			ret = EXIT_PSTAT_FAILED;
		}
	}
	if (dest_finish(dest) != 0 && ret != EXIT_PSTAT_FAILED) {
		diag_errno(errno, "cannot write the comparison");
		ret = EXIT_PSTAT_FAILED;
	}
	if (ret == 0 && signal)
		ret = 128 + signal;
	else if (ret == 0)
		ret = verdicts(&c, o);
	compare_free(&c);
	return ret;
}
