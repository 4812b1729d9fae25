/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pstat compare of saved results: pstat -r N --format=json documents,
 * one side each (every event's "runs", and "runs_elapsed_s"), or one
 * comparison saved with --format=json (its samples and its order).
 */
#include "config.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compare_impl.h"
#include "error.h"
#include "merge_impl.h"

/*
 * More than pstat compare writes or reads with use: bounds that keep
 * the cost of a file, whatever it says, in proportion to its bytes
 * (a row's name is looked for among the rows so far).
 */
#define MAX_SIDES 64
#define MAX_ROWS 4096
/* No count or metric pstat writes comes near: its differences and sums
 * stay finite. */
#define VALUE_MAX 1e30

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;

	return json_object_is_type(o, json_type_object) &&
	       json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static const char *str(json_object *o, const char *key)
{
	json_object *v = get(o, key);

	return json_object_is_type(v, json_type_string)
	       ? json_object_get_string(v) : NULL;
}

static bool is_number(json_object *v)
{
	return json_object_is_type(v, json_type_int) ||
	       json_object_is_type(v, json_type_double);
}

/* A name of a file in a message: its first 64 bytes, each control
 * character as '?', so that the message stays one line. */
static const char *shown(char *out, size_t len, const char *text)
{
	size_t i;

	snprintf(out, len, "%.64s", text);
	for (i = 0; out[i]; i++)
		if ((unsigned char)out[i] < 0x20 || out[i] == 0x7f)
			out[i] = '?';
	return out;
}

/* A whole number of a document, 0 when it is none or negative. */
static size_t count_of(json_object *v)
{
	int64_t n = is_number(v) ? json_object_get_int64(v) : 0;

	return n > 0 ? (size_t)n : 0;
}

/* The row named name (and unit) of path's file into *r, made when
 * there is none: 0, -ENOMEM, or -EINVAL said when there are MAX_ROWS
 * already. */
static int row_of(struct compare *c, const char *name, const char *unit,
		  enum compare_kind kind, struct compare_row **r,
		  const char *path, char *err, size_t len)
{
	size_t i;

	for (i = 0; i < c->n_rows; i++)
		if (strcmp(c->rows[i].name, name) == 0) {
			*r = &c->rows[i];
			return 0;
		}
	if (c->n_rows >= MAX_ROWS)
		return error_say(err, len,
			   "%s: more than %d events, more than pstat compare takes",
			   path, MAX_ROWS);
	*r = compare_add_row(c, name, unit, kind);
	return *r ? 0 : -ENOMEM;
}

/* The numbers of array a as samples of s (null: a run that did not
 * count). 0, -EINVAL (something else in it, or a number beyond
 * VALUE_MAX), -ENOMEM. */
static int samples(struct compare_samples *s, json_object *a)
{
	size_t i, n = json_object_array_length(a);
	json_object *v;
	double d;

	for (i = 0; i < n; i++) {
		v = json_object_array_get_idx(a, i);
		if (!v) {
			s->missing++;
			continue;
		}
		if (!is_number(v))
			return -EINVAL;
		d = json_object_get_double(v);
		if (!isfinite(d) || fabs(d) > VALUE_MAX)
			return -EINVAL;
		if (compare_add_sample(s, d) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* The command of a document's run record, as c->argv's side s. */
static int command(struct compare *c, size_t s, json_object *a)
{
	size_t i, n = json_object_is_type(a, json_type_array)
		      ? json_object_array_length(a) : 0;
	const char *w;

	c->argv[s] = calloc(n + 1, sizeof(char *));
	if (!c->argv[s])
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		w = json_object_get_string(json_object_array_get_idx(a, i));
		c->argv[s][i] = strdup(w ? w : "");
		if (!c->argv[s][i])
			return -ENOMEM;
	}
	return 0;
}

/* A pstat -r N --format=json document as side s. */
static int count_doc(struct compare *c, size_t s, const char *path,
		     json_object *doc, char *err, size_t len)
{
	json_object *events = get(doc, "events"), *run = get(doc, "run");
	json_object *e, *runs, *wall;
	struct compare_row *r;
	const char *name, *unit, *cg;
	char full[1024], name_buf[72];
	size_t i, n;
	double v;
	int ret;

	if (!json_object_is_type(events, json_type_array) ||
	    !json_object_is_type(run, json_type_object))
		return error_say(err, len,
			   "%s: not the results of pstat --format=json: no events and run record",
			   path);
	if (json_object_is_type(get(doc, "intervals"), json_type_array) &&
	    json_object_array_length(get(doc, "intervals")) > 0)
		return error_say(err, len,
			   "%s: results of -I: compare takes those of pstat -r N --format=json without -I",
			   path);
	n = json_object_array_length(events);
	for (i = 0; i < n; i++) {
		e = json_object_array_get_idx(events, i);
		name = str(e, "event");
		unit = str(e, "unit");
		cg = str(e, "cgroup");
		if (!name)
			return error_say(err, len, "%s: event %zu has no name",
				   path, i + 1);
		snprintf(full, sizeof(full), cg ? "%s (cgroup %s)" : "%s%s",
			 name, cg ? cg : "");
		ret = row_of(c, full, unit, COMPARE_EVENT, &r, path, err, len);
		if (ret < 0)
			return ret;
		runs = get(e, "runs");
		if (json_object_is_type(runs, json_type_array)) {
			ret = samples(&r->side[s], runs);
		} else if (is_number(get(e, "value")) &&
			   str(e, "status") &&
			   (strcmp(str(e, "status"), "counted") == 0 ||
			    strcmp(str(e, "status"), "scaled") == 0)) {
			v = json_object_get_double(get(e, "value"));
			ret = isfinite(v) && fabs(v) <= VALUE_MAX
			      ? compare_add_sample(&r->side[s], v) : -EINVAL;
		} else {
			r->side[s].missing++;
			r->side[s].state = str(e, "status") &&
				strcmp(str(e, "status"), "not-supported") == 0
				? COUNTS_NOT_SUPPORTED : COUNTS_NOT_COUNTED;
			ret = 0;
		}
		if (ret == -EINVAL)
			return error_say(err, len,
				   "%s: event '%s' has runs that are not numbers (or beyond 1e30)",
				   path, shown(name_buf, sizeof(name_buf), full));
		if (ret < 0)
			return ret;
		if (is_number(get(e, "running_pct")) &&
		    json_object_get_double(get(e, "running_pct")) < 100.0) {
			r->side[s].multiplexed = true;
			r->side[s].least_running_pct = fmax(0.0,
				json_object_get_double(get(e, "running_pct")));
		}
	}
	wall = get(run, "runs_elapsed_s");
	if (json_object_is_type(wall, json_type_array)) {
		ret = row_of(c, "wall-time", "msec", COMPARE_WALL, &r, path,
			     err, len);
		if (ret < 0)
			return ret;
		n = r->side[s].n;
		ret = samples(&r->side[s], wall);
		for (i = n; ret == 0 && i < r->side[s].n; i++)
			r->side[s].v[i] *= 1e3;
		if (ret < 0)
			return ret == -ENOMEM ? ret
			       : error_say(err, len, "%s: runs_elapsed_s holds what is not a time",
					   path);
	}
	c->kept[s] = count_of(get(run, "runs"));
	return command(c, s, get(run, "command"));
}

/* The order of a saved comparison's runs. */
static int order(struct compare *c, json_object *a)
{
	size_t i, n = json_object_is_type(a, json_type_array)
		      ? json_object_array_length(a) : 0, s;
	json_object *o;
	const char *label;
	char buf[16];
	struct compare_run r;

	for (i = 0; i < n; i++) {
		o = json_object_array_get_idx(a, i);
		label = str(o, "side");
		for (s = 0; label && s < c->n_sides; s++)
			if (strcmp(compare_label(s, buf, sizeof(buf)), label) == 0)
				break;
		if (!label || s == c->n_sides)
			continue;
		r = (struct compare_run){
			.side = s,
			.run = count_of(get(o, "run")),
			.warmup = json_object_get_boolean(get(o, "warmup")),
			.exit_status = get(o, "exit_status")
				       ? json_object_get_int(get(o, "exit_status")) : -1,
			.signal = json_object_get_int(get(o, "signal")),
			.timed_out = json_object_get_boolean(get(o, "timed_out")),
			.kept = json_object_get_boolean(get(o, "kept")),
		};
		if (compare_log_run(c, &r) < 0)
			return -ENOMEM;
		if (!r.warmup && !r.kept)
			c->failed[s]++;
	}
	return 0;
}

/* A comparison saved with --format=json, its sides and samples. */
static int compare_doc(struct compare *c, const char *path, json_object *doc,
		       char *err, size_t len)
{
	json_object *cmds = get(doc, "commands"), *rows = get(doc, "rows");
	json_object *row, *smp;
	struct compare_row *r;
	const char *name, *kind;
	enum compare_kind k;
	char label[16], name_buf[72];
	size_t i, s, n;
	int ret;

	if (!json_object_is_type(cmds, json_type_array) ||
	    !json_object_is_type(rows, json_type_array) ||
	    json_object_array_length(cmds) < 2)
		return error_say(err, len,
			   "%s: not a comparison of pstat compare --format=json: no commands and rows",
			   path);
	c->n_sides = json_object_array_length(cmds);
	n = json_object_array_length(rows);
	if (c->n_sides > MAX_SIDES || n > MAX_ROWS)
		return error_say(err, len,
			   "%s: more than %d commands or %d rows, more than pstat compare takes",
			   path, MAX_SIDES, MAX_ROWS);
	free(c->kept);
	free(c->failed);
	c->kept = calloc(c->n_sides, sizeof(*c->kept));
	c->failed = calloc(c->n_sides, sizeof(*c->failed));
	c->argv = calloc(c->n_sides, sizeof(*c->argv));
	if (!c->kept || !c->failed || !c->argv)
		return -ENOMEM;
	c->own_argv = true;
	for (s = 0; s < c->n_sides; s++)
		if (command(c, s, get(json_object_array_get_idx(cmds, s),
				      "command")) < 0)
			return -ENOMEM;
	c->runs = count_of(get(doc, "runs"));
	c->warmup = count_of(get(doc, "warmup"));
	c->interrupted = json_object_get_boolean(get(doc, "interrupted"));
	for (i = 0; i < n; i++) {
		row = json_object_array_get_idx(rows, i);
		name = str(row, "event");
		kind = str(row, "kind");
		smp = get(row, "samples");
		if (!name || !kind || !smp)
			return error_say(err, len,
				   "%s: row %zu has no event, kind or samples",
				   path, i + 1);
		k = strcmp(kind, "metric") == 0 ? COMPARE_METRIC :
		    strcmp(kind, "wall-time") == 0 ? COMPARE_WALL :
		    strcmp(kind, "max-rss") == 0 ? COMPARE_RSS : COMPARE_EVENT;
		r = compare_add_row(c, name, str(row, "unit"), k);
		if (!r)
			return -ENOMEM;
		for (s = 0; s < c->n_sides; s++) {
			json_object *a = get(smp, compare_label(s, label,
								sizeof(label)));
			json_object *st = get(get(row, "stats"), label);

			if (!json_object_is_type(a, json_type_array))
				return error_say(err, len,
					   "%s: row '%s' has no samples of %s",
					   path, shown(name_buf, sizeof(name_buf),
						       name), label);
			ret = samples(&r->side[s], a);
			if (ret == -EINVAL)
				return error_say(err, len,
					   "%s: row '%s' has samples that are not numbers (or beyond 1e30)",
					   path, shown(name_buf, sizeof(name_buf),
						       name));
			if (ret < 0)
				return ret;
			if (is_number(get(st, "least_running_pct")))
				r->side[s].least_running_pct = fmin(100.0, fmax(0.0,
					json_object_get_double(get(st, "least_running_pct"))));
			r->side[s].missing = count_of(get(st, "missing"));
		}
	}
	for (s = 0; s < c->n_sides; s++)
		c->kept[s] = count_of(get(json_object_array_get_idx(cmds, s),
					  "runs"));
	return order(c, get(doc, "order"));
}

int compare_read(struct compare *c, const struct options *o, char *err,
		 size_t len)
{
	json_object *doc = NULL;
	const char *format;
	size_t s;
	int ret;

	c->files = (const char *const *)o->compare_files;
	c->argv = calloc(c->n_sides, sizeof(*c->argv));
	if (!c->argv)
		return -ENOMEM;
	c->own_argv = true;
	for (s = 0, ret = 0; s < o->n_compare_files && ret == 0; s++) {
		ret = merge_json_load(o->compare_files[s], &doc, err, len);
		if (ret == -EINVAL)
			snprintf(err + strlen(err), len - strlen(err), "%s",
				 " (to compare commands, separate them with ':::')");
		if (ret < 0)
			break;
		format = str(doc, "format");
		if (format && strcmp(format, "pstat-compare") == 0 &&
		    o->n_compare_files == 1) {
			free(c->argv);
			c->argv = NULL;
			c->files = NULL;
			ret = compare_doc(c, o->compare_files[s], doc, err, len);
		} else if (format && strcmp(format, "pstat") == 0 &&
			   o->n_compare_files > 1) {
			ret = count_doc(c, s, o->compare_files[s], doc, err,
					len);
		} else if (format && strcmp(format, "pstat-compare") == 0) {
			ret = error_say(err, len,
				   "%s: a saved comparison is compared alone: pstat compare %s",
				   o->compare_files[s], o->compare_files[s]);
		} else if (format && strcmp(format, "pstat") == 0) {
			ret = error_say(err, len,
				   "%s: one side alone: compare it with another (pstat compare A.json B.json), or separate commands with ':::'",
				   o->compare_files[s]);
		} else {
			ret = error_say(err, len,
				   "%s: not results of pstat -r N --format=json nor a comparison of pstat compare --format=json (to compare commands, separate them with ':::')",
				   o->compare_files[s]);
		}
		json_object_put(doc);
		doc = NULL;
	}
	return ret;
}
