/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pstat top's table of an interval: a text table, -x's lines, JSON lines. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "csv.h"
#include "fmt.h"
#include "json.h"
#include "options.h"
#include "top_impl.h"

/* pstat top's JSON lines: bumped when a key changes meaning or goes. */
#define TOP_JSON_VERSION 1

static const char *const state_words[] = {
	[TOP_LIVE] = "live",
	[TOP_ENDED] = "ended",
	[TOP_DENIED] = "denied",
};

/* Whether r is a row of the table: counted, or denied with a reason. */
static bool shown(const struct top_row *r)
{
	return r->el || r->state == TOP_DENIED;
}

static size_t counted(const struct top *t)
{
	size_t i, n = 0;

	for (i = 0; i < t->n_rows; i++)
		n += t->rows[i]->el && t->rows[i]->state == TOP_LIVE;
	return n;
}

void top_print_budget_note(const struct top *t, char *buf, size_t len)
{
	if (!t->n_over) {
		buf[0] = '\0';
		return;
	}
	snprintf(buf, len,
		 "%zu of %zu tasks are not counted: their counters would pass the open-file limit (ulimit -n); counted are the busiest by CPU time (utime+stime in /proc)",
		 t->n_over, t->n_tasks);
}

/* Rate per second of event i in r, or NaN. */
static double rate(const struct top *t, const struct top_row *r, size_t i)
{
	if (!r->counted[i] || t->interval_s <= 0)
		return NAN;
	return (double)r->delta[i] / t->interval_s;
}

static void put_fixed(FILE *f, int width, int prec, double v)
{
	char buf[64];

	if (isnan(v))
		fprintf(f, "%*s", width, "-");
	else {
		fmt_fixed(buf, sizeof(buf), prec, v);
		fprintf(f, "%*s", width, buf);
	}
}

static int column_width(const char *name)
{
	int n = (int)strlen(name) + 2;

	return n < 12 ? 14 : n + 2;
}

static void human_header(FILE *f, const struct top *t)
{
	char time[32], len[32], note[512];
	size_t i;

	fmt_fixed(time, sizeof(time), 2, t->time_s);
	fmt_fixed(len, sizeof(len), 2, t->interval_s);
	fprintf(f, "pstat top: %s s (interval %s s), %zu tasks, %zu counted\n",
		time, len, t->n_tasks, counted(t));
	top_print_budget_note(t, note, sizeof(note));
	if (note[0])
		fprintf(f, "note: %s\n", note);
	fprintf(f, "%7s ", "PID");
	if (t->o->top_per_thread)
		fprintf(f, "%7s ", "TID");
	fprintf(f, "%-15s %-6s", "COMM", "STATE");
	if (t->clock >= 0)
		fprintf(f, "%7s", "%CPU");
	for (i = 0; i < t->n_events; i++)
		fprintf(f, "%*s/s", column_width(top_event_name(t, i)) - 2,
			top_event_name(t, i));
	fputc('\n', f);
}

static void human_row(FILE *f, const struct top *t, const struct top_row *r)
{
	size_t i;

	fprintf(f, "%7d ", r->pid);
	if (t->o->top_per_thread)
		fprintf(f, "%7d ", r->tid);
	fprintf(f, "%-15s %-6s", r->comm,
		r->state == TOP_LIVE ? "" : state_words[r->state]);
	if (r->state == TOP_DENIED) {
		fprintf(f, " %s\n", r->reason);
		return;
	}
	if (t->clock >= 0)
		put_fixed(f, 7, 1, r->cpu_pct);
	for (i = 0; i < t->n_events; i++)
		put_fixed(f, column_width(top_event_name(t, i)), 1,
			  rate(t, r, i));
	fputc('\n', f);
}

void top_print_table(FILE *f, const struct top *t)
{
	size_t i;

	human_header(f, t);
	for (i = 0; i < t->n_rows; i++)
		if (shown(t->rows[i]))
			human_row(f, t, t->rows[i]);
}

/* A -x field and its separator (none before the first). */
static void csv_put(FILE *f, const struct top *t, const char *s, bool first)
{
	if (!first)
		fputs(t->o->out.sep, f);
	csv_field(csv_file_put, f, s, strlen(s), t->o->out.sep);
}

static void csv_number(FILE *f, const struct top *t, int prec, double v)
{
	char buf[64] = "";

	if (!isnan(v))
		fmt_fixed(buf, sizeof(buf), prec, v);
	csv_put(f, t, buf, false);
}

/*
 * time, pid, tid (empty per process), comm, state, reason, %CPU, then
 * each event's name, count and rate per second.
 */
static void csv_row(FILE *f, const struct top *t, const struct top_row *r)
{
	char buf[32];
	size_t i;

	fmt_fixed(buf, sizeof(buf), 3, t->time_s);
	csv_put(f, t, buf, true);
	fmt_u64(buf, sizeof(buf), (uint64_t)r->pid);
	csv_put(f, t, buf, false);
	fmt_u64(buf, sizeof(buf), (uint64_t)r->tid);
	csv_put(f, t, t->o->top_per_thread ? buf : "", false);
	csv_put(f, t, r->comm, false);
	csv_put(f, t, state_words[r->state], false);
	csv_put(f, t, r->state == TOP_DENIED ? r->reason : "", false);
	csv_number(f, t, 2, r->state == TOP_DENIED ? NAN : r->cpu_pct);
	for (i = 0; i < t->n_events; i++) {
		csv_put(f, t, top_event_name(t, i), false);
		if (r->state == TOP_DENIED || !r->counted[i]) {
			csv_put(f, t, r->state == TOP_DENIED ? "" :
				"<not supported>", false);
			csv_put(f, t, "", false);
			continue;
		}
		fmt_u64(buf, sizeof(buf), r->delta[i]);
		csv_put(f, t, buf, false);
		csv_number(f, t, 2, rate(t, r, i));
	}
	fputc('\n', f);
}

static void print_csv(FILE *f, const struct top *t)
{
	size_t i;

	for (i = 0; i < t->n_rows; i++)
		if (shown(t->rows[i]))
			csv_row(f, t, t->rows[i]);
}

static void json_key(FILE *f, const char *key, bool first)
{
	if (!first)
		fputc(',', f);
	json_string(f, key);
	fputc(':', f);
}

static void json_row_events(FILE *f, const struct top *t,
			    const struct top_row *r)
{
	size_t i;

	json_key(f, "events", false);
	fputc('[', f);
	for (i = 0; i < t->n_events; i++) {
		if (i)
			fputc(',', f);
		fputc('{', f);
		json_key(f, "event", true);
		json_string(f, top_event_name(t, i));
		json_key(f, "count", false);
		if (r->counted[i])
			json_uint(f, r->delta[i]);
		else
			json_null(f);
		json_key(f, "rate", false);
		json_number(f, rate(t, r, i));
		if (!r->counted[i]) {
			json_key(f, "status", false);
			json_string(f, "not supported");
		}
		fputc('}', f);
	}
	fputc(']', f);
}

static void json_row(FILE *f, const struct top *t, const struct top_row *r)
{
	fputc('{', f);
	json_key(f, "pid", true);
	json_int(f, r->pid);
	if (t->o->top_per_thread) {
		json_key(f, "tid", false);
		json_int(f, r->tid);
	}
	json_key(f, "comm", false);
	json_string(f, r->comm);
	json_key(f, "state", false);
	json_string(f, state_words[r->state]);
	if (r->state == TOP_DENIED) {
		json_key(f, "reason", false);
		json_string(f, r->reason);
	} else {
		json_key(f, "cpu_pct", false);
		json_number(f, r->cpu_pct);
		json_row_events(f, t, r);
	}
	fputc('}', f);
}

static void print_json(FILE *f, const struct top *t)
{
	char note[512];
	bool first = true;
	size_t i;

	fputc('{', f);
	json_key(f, "format", true);
	json_string(f, "pstat-top");
	json_key(f, "format_version", false);
	json_int(f, TOP_JSON_VERSION);
	json_key(f, "interval", false);
	json_int(f, t->n_interval);
	json_key(f, "time", false);
	json_number(f, t->time_s);
	json_key(f, "seconds", false);
	json_number(f, t->interval_s);
	json_key(f, "per", false);
	json_string(f, t->o->top_per_thread ? "thread" : "process");
	json_key(f, "tasks", false);
	json_uint(f, t->n_tasks);
	json_key(f, "counted", false);
	json_uint(f, counted(t));
	json_key(f, "not_counted", false);
	json_uint(f, t->n_over);
	json_key(f, "notes", false);
	top_print_budget_note(t, note, sizeof(note));
	fputc('[', f);
	if (note[0])
		json_string(f, note);
	fputc(']', f);
	json_key(f, "rows", false);
	fputc('[', f);
	for (i = 0; i < t->n_rows; i++) {
		if (!shown(t->rows[i]))
			continue;
		if (!first)
			fputc(',', f);
		first = false;
		json_row(f, t, t->rows[i]);
	}
	fputs("]}\n", f);
}

int top_print(FILE *f, const struct top *t)
{
	switch (t->o->out.format) {
	case OUTPUT_CSV:
		print_csv(f, t);
		break;
	case OUTPUT_JSONL:
	case OUTPUT_PSTAT_JSON:
		print_json(f, t);
		break;
	default:
		if (t->n_interval > 1)
			fputc('\n', f);
		top_print_table(f, t);
	}
	errno = 0;
	if (fflush(f) != 0 || ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}
