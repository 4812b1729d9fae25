/* SPDX-License-Identifier: GPL-2.0-or-later */
/* -M: perf's metrics from its tables, their events counted, their values. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "evlist.h"
#include "evparse.h"
#include "evsel.h"
#include "expr.h"
#include "fit.h"
#include "metricgroup.h"
#include "pmu.h"
#include "pmu_tables.h"
#include "topology.h"

/* Metrics naming metrics: deeper than this is a loop (perf: 100). */
#define REF_DEPTH_MAX 32

/* A formula, parsed once: a metric asked for or one another names. */
struct formula {
	const struct pmu_metric *pm;
	struct expr *e;
};

/* An event the metrics read, and where el holds it. */
struct mg_event {
	char *name;		/* as the formulas name it */
	size_t at;		/* its index in el */
};

/* A metric asked for. */
struct mg_metric {
	const struct formula *f;
	double scale;		/* ScaleUnit's number (1 without one) */
	char unit[24];		/* and its unit ("%", "GHz") */
	size_t leader;		/* el's index of its group's first event */
	struct expr *threshold;	/* MetricThreshold, parsed, or NULL */
};

struct metricgroup {
	struct pmu_tables *t;
	struct formula **formulas;	/* each its own: pointers stay */
	size_t n_formulas;
	struct mg_metric *m;
	size_t n_m;
	struct mg_event *ev;
	size_t n_ev;
};

/* Tool events: not counters, but the run's times (seconds, as perf). */
static const char *const tools[] = {
	"duration_time", "user_time", "system_time",
};

static bool is_tool(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(tools) / sizeof(tools[0]); i++)
		if (strcmp(name, tools[i]) == 0)
			return true;
	return false;
}

/* The formula of metric name, parsed the first time it is asked for. */
static int formula_of(struct metricgroup *mg, const struct pmu_metric *pm,
		      const struct formula **f, struct error *err)
{
	struct formula **grown, *nf;
	size_t i;
	int ret;

	for (i = 0; i < mg->n_formulas; i++)
		if (mg->formulas[i]->pm == pm) {
			*f = mg->formulas[i];
			return 0;
		}
	i = mg->n_formulas + 1;
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): it holds pointers */
	grown = reallocarray(mg->formulas, i, sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	mg->formulas = grown;
	nf = calloc(1, sizeof(*nf));
	if (!nf)
		return -ENOMEM;
	nf->pm = pm;
	ret = expr_parse(pm->expr ? pm->expr : "", &nf->e, err);
	if (ret == -EINVAL) {
		/* The table's fault: name the metric and show its text. */
		char reason[sizeof(err->reason)];

		snprintf(reason, sizeof(reason), "%s", err->reason);
		error_at(err, err->col, NULL,
			 "metric %s of the %s tables: its formula is not one perf reads: %s",
			 pm->name, pmu_tables_model(mg->t), reason);
		/* The tables go with mg before the error is said. */
		err->buf = strdup(pm->expr);
		err->spec = err->buf;
	}
	if (ret < 0) {
		free(nf);
		return ret;
	}
	grown[mg->n_formulas++] = nf;
	*f = nf;
	return 0;
}

/* The number a small file (sysfs, procfs) holds, or -1 when unread. */
static double sysfs_number(const char *path)
{
	char buf[64];
	double v = -1.0;
	FILE *f = fopen(path, "re");

	if (!f)
		return v;
	if (fgets(buf, sizeof(buf), f))
		v = strtod(buf, NULL);
	(void)fclose(f);
	return v;
}

/* Whether two hardware threads share a core here (#smt_on). */
static bool smt_on(void)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/devices/system/cpu/smt/active",
		 pmu_sysfs_root());
	return sysfs_number(path) > 0.0;
}

/* How many different cores, dies and packages the online CPUs sit on. */
static void count_topology(double *cores, double *dies, double *packages)
{
	struct topology_cpu t;
	int *cpus = NULL, n = topology_online(&cpus), i, j, core, die;
	int *seen = n > 0 ? calloc((size_t)n * 3, sizeof(*seen)) : NULL;
	int *dies_seen, *packages_seen;
	size_t nc = 0, nd = 0, np = 0;

	*cores = *dies = *packages = NAN;
	if (!seen) {
		free(cpus);
		return;
	}
	dies_seen = seen + n;
	packages_seen = seen + 2 * (size_t)n;
	for (i = 0; i < n; i++) {
		if (topology_describe(cpus[i], &t) < 0)
			goto out;
		/* A core is one of a die of a package: all three count. */
		die = t.socket * 4096 + t.die;
		core = die * 65536 + t.core;

		for (j = 0; j < (int)nc && seen[j] != core; j++)
			;
		if (j == (int)nc)
			seen[nc++] = core;
		for (j = 0; j < (int)nd && dies_seen[j] != die; j++)
			;
		if (j == (int)nd)
			dies_seen[nd++] = die;
		for (j = 0; j < (int)np && packages_seen[j] != t.socket; j++)
			;
		if (j == (int)np)
			packages_seen[np++] = t.socket;
	}
	*cores = (double)nc;
	*dies = (double)nd;
	*packages = (double)np;
out:
	free(seen);
	free(cpus);
}

/* The TSC's frequency, as perf finds it: cpuinfo's "@ 2.10GHz". */
static double tsc_freq(void)
{
	char line[512], *at;
	double ghz = NAN;
	FILE *f = fopen("/proc/cpuinfo", "re");

	if (!f)
		return NAN;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10) != 0)
			continue;
		at = strstr(line, "@ ");
		if (at && strstr(at, "GHz"))
			ghz = strtod(at + 2, NULL);
		break;
	}
	(void)fclose(f);
	return ghz * 1e9;
}

/* perf's literals (expr.h), as perf finds them for a command. */
static bool literal(void *arg, const char *name, double *v)
{
	char path[512];
	double cores, dies, packages;

	(void)arg;
	if (strcasecmp(name, "smt_on") == 0) {
		*v = smt_on();
	} else if (strcmp(name, "core_wide") == 0) {
		*v = !smt_on();
	} else if (strcmp(name, "num_cpus") == 0) {
		*v = (double)sysconf(_SC_NPROCESSORS_CONF);
	} else if (strcmp(name, "num_cpus_online") == 0) {
		*v = (double)sysconf(_SC_NPROCESSORS_ONLN);
	} else if (strcmp(name, "num_cores") == 0 ||
		   strcmp(name, "num_dies") == 0 ||
		   strcmp(name, "num_packages") == 0) {
		count_topology(&cores, &dies, &packages);
		*v = name[4] == 'c' ? cores : name[4] == 'd' ? dies : packages;
	} else if (strcmp(name, "slots") == 0) {
		snprintf(path, sizeof(path),
			 "%s/bus/event_source/devices/cpu/caps/slots",
			 pmu_sysfs_root());
		*v = sysfs_number(path);
		if (*v < 0.0)
			*v = NAN;
	} else if (strcasecmp(name, "system_tsc_freq") == 0) {
		*v = tsc_freq();
	} else {
		return false;
	}
	return !isnan(*v);
}

/* What an expression's callbacks see while events are chosen. */
struct choose {
	struct metricgroup *mg;
};

/* has_event(name) as the events are chosen: whether it could be
 * opened, which is whether it parses (perf asks the same). */
static bool event_exists(void *arg, const char *name)
{
	struct choose *c = arg;
	struct evlist *el;
	struct error err = { 0 };
	bool ok;

	if (pmu_tables_event(c->mg->t, name, NULL) || is_tool(name))
		return true;
	el = evlist_new();
	ok = el && evparse(el, name, &err) == 0;
	error_fini(&err);
	evlist_free(el);
	return ok;
}

static bool no_value(void *arg, const char *name, double *v)
{
	(void)arg;
	(void)name;
	*v = NAN;
	return false;
}

static double one_source(void *arg, const char *name)
{
	(void)arg;
	(void)name;
	return 1.0;
}

/* strcmp_cpuid_str(re): 0 when the tables' CPUID matches re, as perf. */
static int cpuid_match(const struct metricgroup *mg, const char *re)
{
	regex_t r;
	int ret;

	if (regcomp(&r, re, REG_EXTENDED | REG_NOSUB) != 0)
		return 1;
	ret = regexec(&r, pmu_tables_cpuid(mg->t), 0, NULL, 0) == 0 ? 0 : 1;
	regfree(&r);
	return ret;
}

static int choose_cpuid(void *arg, const char *s)
{
	struct choose *c = arg;

	return cpuid_match(c->mg, s);
}

/* Adds name to the sorted set names (n of them) unless there. */
static int add_name(char ***names, size_t *n, const char *name)
{
	char **grown;
	size_t i;
	int cmp = 1;

	for (i = 0; i < *n && (cmp = strcmp((*names)[i], name)) < 0; i++)
		;
	if (i < *n && cmp == 0)
		return 0;
	grown = reallocarray(*names, *n + 1, sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	*names = grown;
	memmove(grown + i + 1, grown + i, (*n - i) * sizeof(*grown));
	grown[i] = strdup(name);
	if (!grown[i]) {
		memmove(grown + i, grown + i + 1, (*n - i) * sizeof(*grown));
		return -ENOMEM;
	}
	(*n)++;
	return 0;
}

static void free_names(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/*
 * The metric a formula of metric from names: on a hybrid CPU the one of
 * from's core PMU (cpu_core's tma_retiring, not cpu_atom's), else the
 * first of the name. NULL: no metric has it.
 */
static const struct pmu_metric *ref_metric(const struct pmu_tables *t,
					   const char *name,
					   const struct pmu_metric *from)
{
	const struct pmu_metric *m;
	size_t n = 0, i;

	m = pmu_tables_metric(t, name, &n);
	for (i = 0; m && from && i < n; i++)
		if (strcmp(m[i].pmu, from->pmu) == 0)
			return &m[i];
	return m;
}

/*
 * The events f reads, and those of the metrics it names, into the
 * sorted set names: those evaluation can need (expr_ids_needed).
 */
/* NOLINTNEXTLINE(misc-no-recursion): REF_DEPTH_MAX deep at most */
static int collect_events(struct metricgroup *mg, const struct formula *f,
			  char ***names, size_t *n, int depth,
			  struct error *err)
{
	struct choose c = { mg };
	const struct expr_env env = {
		.arg = &c, .id = no_value, .literal = literal,
		.has_event = event_exists, .source_count = one_source,
		.cpuid_cmp = choose_cpuid,
	};
	size_t i, ids = expr_n_ids(f->e);
	bool *needed = calloc(ids + 1, sizeof(*needed));
	const struct pmu_metric *ref;
	const struct formula *rf;
	const char *id;
	int ret;

	if (!needed)
		return -ENOMEM;
	if (depth > REF_DEPTH_MAX) {
		free(needed);
		return error_at(err, 0, NULL,
				"metric %s: its formula names metrics more than %d deep (a loop?)",
				f->pm->name, REF_DEPTH_MAX);
	}
	ret = expr_ids_needed(f->e, &env, needed);
	if (ret == -EINVAL)
		error_at(err, 0, NULL,
			 "metric %s: perf's evaluation of '%s' fails here (a literal unknown on this machine, or a constant %% 0)",
			 f->pm->name, f->pm->expr);
	for (i = 0; ret == 0 && i < ids; i++) {
		id = expr_id(f->e, i);
		if (!needed[i] || is_tool(id))
			continue;
		ref = pmu_tables_event(mg->t, id, NULL) ? NULL
		      : ref_metric(mg->t, id, f->pm);
		if (ref) {
			ret = formula_of(mg, ref, &rf, err);
			if (ret == 0)
				ret = collect_events(mg, rf, names, n,
						     depth + 1, err);
		} else {
			ret = add_name(names, n, id);
		}
	}
	free(needed);
	return ret;
}

/* The PMU of a table's event here: "cpu" is the core PMU's name. */
static const char *table_pmu(const struct pmu_event *pe)
{
	static char core[256];

	if (strcmp(pe->pmu, "cpu") != 0)
		return pe->pmu;
	if (!core[0] && pmu_core_name(core, sizeof(core)) < 0)
		return pe->pmu;
	return core;
}

/* A table's event as pmu/terms,name=NAME/ (pmu_tables.h's terms). */
static int table_spec(const struct pmu_event *pe, const char *name,
		      char **spec)
{
	char *terms = pmu_tables_counting_terms(pe);
	int ret;

	if (!terms)
		return -ENOMEM;
	ret = asprintf(spec, "%s/%s%sname=%s/", table_pmu(pe), terms,
		       terms[0] ? "," : "", name);
	free(terms);
	return ret < 0 ? -ENOMEM : 0;
}

/*
 * How el is to count the event a formula names: the table's event as
 * pmu/terms,name=NAME/ (perf shows its name), perf's pmu@terms@ as
 * pmu/terms/, anything else as written.
 */
static int event_spec(const struct metricgroup *mg, const char *name,
		      char **spec)
{
	const struct pmu_event *pe = pmu_tables_event(mg->t, name, NULL);
	char *s, *p;

	if (pe)
		return table_spec(pe, name, spec);
	s = strdup(name);
	if (!s)
		return -ENOMEM;
	for (p = s; *p; p++)
		if (*p == '@')
			*p = '/';
	*spec = s;
	return 0;
}

/* Whether the metric's events go in no group: its constraint, here. */
static bool ungrouped(const struct pmu_metric *pm)
{
	const char *c = pm->constraint;

	if (!c)
		return false;
	if (strcmp(c, "NO_GROUP_EVENTS") == 0)
		return true;
	if (strcmp(c, "NO_GROUP_EVENTS_NMI") == 0)
		return sysfs_number("/proc/sys/kernel/nmi_watchdog") > 0.0;
	if (strcmp(c, "NO_GROUP_EVENTS_SMT") == 0)
		return smt_on();
	return false;
}

/* The index in el, from first, of the event the formulas call name. */
static int find_event(const struct evlist *el, size_t first,
		      const char *name, const char *spec, size_t *at)
{
	size_t i, n = strlen(spec);
	const char *shown;

	for (i = first; i < evlist_count(el); i++) {
		shown = evsel_name(evlist_at(el, i));
		/* Named by name=, or as written, its group's :W after. */
		if (strcmp(shown, name) == 0 ||
		    (strncmp(shown, spec, n) == 0 &&
		     (shown[n] == '\0' || strcmp(shown + n, ":W") == 0))) {
			*at = i;
			return 0;
		}
	}
	return -ENOENT;
}

/* The events of names not yet counted go to el as one group (or none). */
static int add_group(struct metricgroup *mg, struct mg_metric *m,
		     char **names, size_t n, bool braces, struct evlist *el,
		     struct error *err)
{
	size_t first = evlist_count(el), i, len = 0, at;
	char **specs = calloc(n + 1, sizeof(*specs)), *text = NULL;
	const struct pmu_event *pe;
	struct mg_event *grown;
	int ret = specs ? 0 : -ENOMEM;

	for (i = 0; ret == 0 && i < n; i++) {
		pe = pmu_tables_event(mg->t, names[i], NULL);
		if (pe && strcmp(table_pmu(pe), "cpu") == 0 &&
		    !pmu_have_core_pmu()) {
			error_at(err, 0, NULL,
				 "its event %s is the core PMU's, which this machine does not have (a virtual machine without a virtual PMU?): see 'pstat --check'",
				 names[i]);
			ret = -EINVAL;
			break;
		}
		ret = event_spec(mg, names[i], &specs[i]);
		if (ret == 0)
			len += strlen(specs[i]) + 1;
	}
	if (ret == 0 && !(text = malloc(len + 8)))
		ret = -ENOMEM;
	if (ret == 0) {
		at = 0;
		if (braces)
			text[at++] = '{';
		for (i = 0; i < n; i++) {
			memcpy(text + at, specs[i], strlen(specs[i]));
			at += strlen(specs[i]);
			if (i + 1 < n)
				text[at++] = ',';
		}
		if (braces) {
			memcpy(text + at, "}:W", 3);
			at += 3;
		}
		text[at] = '\0';
		ret = evparse(el, text, err);
	}
	if (ret == -EINVAL && !err->where[0])
		snprintf(err->where, sizeof(err->where), "-M %s: ",
			 m->f->pm->name);
	/* The spec at fault points into text: the error keeps it. */
	if (ret == -EINVAL && !err->buf && text && err->spec >= text &&
	    err->spec <= text + strlen(text)) {
		err->buf = text;
		text = NULL;
	}
	for (i = 0; ret == 0 && i < n; i++) {
		if (find_event(el, first, names[i], specs[i], &at) < 0) {
			ret = error_at(err, 0, NULL,
				       "-M %s: event %s was not made (%s)",
				       m->f->pm->name, names[i], specs[i]);
			break;
		}
		grown = reallocarray(mg->ev, mg->n_ev + 1, sizeof(*grown));
		if (!grown) {
			ret = -ENOMEM;
			break;
		}
		mg->ev = grown;
		grown[mg->n_ev].name = strdup(names[i]);
		grown[mg->n_ev].at = at;
		if (!grown[mg->n_ev].name) {
			ret = -ENOMEM;
			break;
		}
		if (i == 0)
			m->leader = at;
		mg->n_ev++;
	}
	for (i = 0; specs && i < n; i++)
		free(specs[i]);
	free(specs);
	free(text);
	return ret;
}

/* The event the metrics already count under name, or NULL. */
static const struct mg_event *counted(const struct metricgroup *mg,
				      const char *name)
{
	size_t i;

	for (i = 0; i < mg->n_ev; i++)
		if (strcmp(mg->ev[i].name, name) == 0)
			return &mg->ev[i];
	return NULL;
}

/* ScaleUnit: "100%" is 100 and "%", "1GHz" 1 and "GHz". */
static void scale_unit(const char *su, struct mg_metric *m)
{
	char *end;

	m->scale = 1.0;
	m->unit[0] = '\0';
	if (!su)
		return;
	m->scale = strtod(su, &end);
	if (end == su)
		m->scale = 1.0;
	snprintf(m->unit, sizeof(m->unit), "%s", end);
}

/* The metric pm's events counted (a group, or an earlier one's), and
 * the metric kept for its values. */
static int add_metric(struct metricgroup *mg, const struct pmu_metric *pm,
		      const struct metricgroup_opts *o, struct evlist *el,
		      struct error *err)
{
	struct mg_metric *grown, *m;
	const struct mg_event *ev;
	char **names = NULL;
	size_t n = 0, i, j;
	int ret;

	grown = reallocarray(mg->m, mg->n_m + 1, sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	mg->m = grown;
	m = &grown[mg->n_m];
	*m = (struct mg_metric){ .leader = SIZE_MAX };
	scale_unit(pm->scale_unit, m);
	ret = formula_of(mg, pm, &m->f, err);
	if (ret == 0)
		ret = collect_events(mg, m->f, &names, &n, 0, err);
	/*
	 * perf's merging: a metric whose events are all counted already
	 * reads those. Its leader is then the first of them.
	 */
	for (i = j = 0; ret == 0 && !o->no_merge && i < n; i++)
		if (counted(mg, names[i]))
			j++;
	if (ret == 0 && n && j == n) {
		ev = counted(mg, names[0]);
		m->leader = ev->at;
	} else if (ret == 0 && n) {
		ret = add_group(mg, m, names, n,
				!o->no_group && !ungrouped(pm) && n > 1, el,
				err);
	}
	free_names(names, n);
	if (ret == 0)
		mg->n_m++;
	return ret;
}

/* One word of -M: its metrics, or the reason none is. */
static int add_word(struct metricgroup *mg, const char *word,
		    const struct metricgroup_opts *o, struct evlist *el,
		    struct error *err)
{
	const struct pmu_metric **pick;
	const char *close[4];
	size_t n = pmu_tables_select(mg->t, word, NULL, 0), i, k;
	char near[256] = "";
	int ret = 0;

	if (n == 0) {
		k = pmu_tables_closest(mg->t, word, close, 4);
		for (i = 0; i < k && i < 4; i++)
			snprintf(near + strlen(near), sizeof(near) - strlen(near),
				 "%s%s", i ? ", " : " (closest: ", close[i]);
		if (k)
			snprintf(near + strlen(near), sizeof(near) - strlen(near),
				 ")");
		return error_at(err, 0, NULL,
				"no metric or metric group '%s' in the %s tables%s; see 'pstat --list metrics'",
				word, pmu_tables_model(mg->t), near);
	}
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): it holds pointers */
	pick = calloc(n, sizeof(*pick));
	if (!pick)
		return -ENOMEM;
	pmu_tables_select(mg->t, word, pick, n);
	for (i = 0; ret == 0 && i < n; i++)
		ret = add_metric(mg, pick[i], o, el, err);
	free(pick);
	return ret;
}

/*
 * --topdown's TopdownL<N> where the model has it; AMD's tables call the
 * same levels PipelineL<N>.
 */
static const char *topdown_word(const struct metricgroup *mg,
				const char *word)
{
	static char amd[32];

	if (strncmp(word, "TopdownL", 8) != 0 ||
	    pmu_tables_select(mg->t, word, NULL, 0) > 0)
		return word;
	snprintf(amd, sizeof(amd), "PipelineL%s", word + 8);
	return pmu_tables_select(mg->t, amd, NULL, 0) > 0 ? amd : word;
}

static int add_thresholds(struct metricgroup *mg);

int metricgroup_add(struct metricgroup **out, const char *const *lists,
		    size_t n_lists, const struct metricgroup_opts *opts,
		    struct evlist *el, struct error *err)
{
	struct metricgroup *mg = calloc(1, sizeof(*mg));
	char why[512] = "", *copy = NULL, *word, *save;
	size_t i;
	int ret;

	*out = NULL;
	if (!mg)
		return -ENOMEM;
	ret = pmu_tables_load(&mg->t, PMU_TABLES_EVENTS | PMU_TABLES_METRICS,
			      why, sizeof(why));
	if (ret < 0 && ret != -ENOMEM) {
		error_at(err, 0, NULL, "-M: %s", why);
		ret = -EINVAL;
	}
	for (i = 0; ret == 0 && i < n_lists; i++) {
		free(copy);
		copy = strdup(lists[i]);
		if (!copy) {
			ret = -ENOMEM;
			break;
		}
		word = strtok_r(copy, ",", &save);
		if (!word)
			ret = error_at(err, 0, NULL,
				       "-M '%s' names no metric: give names or groups, as in -M TopdownL1 (see 'pstat --list metrics')",
				       lists[i]);
		for (; ret == 0 && word; word = strtok_r(NULL, ",", &save))
			ret = add_word(mg, topdown_word(mg, word), opts, el,
				       err);
	}
	free(copy);
	if (ret == 0)
		ret = add_thresholds(mg);
	if (ret < 0) {
		metricgroup_free(mg);
		return ret;
	}
	*out = mg;
	return 0;
}

void metricgroup_free(struct metricgroup *mg)
{
	size_t i;

	if (!mg)
		return;
	for (i = 0; i < mg->n_formulas; i++) {
		expr_free(mg->formulas[i]->e);
		free(mg->formulas[i]);
	}
	for (i = 0; i < mg->n_ev; i++)
		free(mg->ev[i].name);
	for (i = 0; i < mg->n_m; i++)
		expr_free(mg->m[i].threshold);
	free(mg->formulas);
	free(mg->ev);
	free(mg->m);
	pmu_tables_free(mg->t);
	free(mg);
}

/* The table's event that el's event at counts, or NULL. */
static const struct pmu_event *table_event_at(const struct metricgroup *mg,
					      size_t at)
{
	const struct pmu_event *pe;
	const char *name, *at_sign;
	char pmu[64], ev[256];
	size_t i, k, n = 0;

	for (i = 0; i < mg->n_ev && mg->ev[i].at != at; i++)
		;
	if (i == mg->n_ev)
		return NULL;
	name = mg->ev[i].name;
	pe = pmu_tables_event(mg->t, name, NULL);
	/* cpu_atom@TOPDOWN_BE_BOUND.ALL@: that PMU's event of the name. */
	at_sign = strchr(name, '@');
	if (pe || !at_sign || (size_t)(at_sign - name) >= sizeof(pmu) ||
	    sscanf(at_sign + 1, "%255[^@]@", ev) != 1)
		return pe;
	snprintf(pmu, sizeof(pmu), "%.*s", (int)(at_sign - name), name);
	pe = pmu_tables_event(mg->t, ev, &n);
	for (k = 0; pe && k < n; k++)
		if (strcmp(pe[k].pmu, pmu) == 0)
			return &pe[k];
	return NULL;
}

/* Whether a table's event has a real event code (the kernel schedules
 * it on a generic counter too), not a fixed counter's event=0. */
static bool real_code(const struct pmu_event *pe)
{
	const char *e = strstr(pe->terms, "event=");

	return !e || strtoull(e + 6, NULL, 0) != 0;
}

/*
 * The NMI watchdog's counter: on Intel's core PMU, fixed counter 1
 * (cycles), while kernel.nmi_watchdog is 1 on this machine, whose
 * tables these are (no PERF_CPUID): the mask of it, or 0.
 */
static unsigned int watchdog_fixed(const struct metricgroup *mg,
				   const char *pmu)
{
	if (strcmp(pmu, "cpu") != 0 ||
	    strncmp(pmu_tables_cpuid(mg->t), "GenuineIntel", 12) != 0 ||
	    secure_getenv("PERF_CPUID"))
		return 0;
	return sysfs_number("/proc/sys/kernel/nmi_watchdog") > 0.0 ? 1u << 1
								  : 0;
}

/* The title of --explain's counters, before its first line. */
static void fit_title(FILE *f, const struct metricgroup *mg, bool *said)
{
	if (!*said)
		fprintf(f, "counters (the %s tables' counter counts):\n",
			pmu_tables_model(mg->t));
	*said = true;
}

/*
 * One group of el (from first, n events): whether its events fit the
 * counters the tables give their PMU, said on one line.
 */
static void explain_group_fit(FILE *f, const struct metricgroup *mg,
			      const struct evlist *el, size_t first, size_t n,
			      bool *said)
{
	struct fit_event ev[2 * FIT_MAX_COUNTERS];
	const struct pmu_counters *c = NULL;
	const struct pmu_event *pe;
	const char *pmu = NULL;
	struct fit_pmu p = { 0 };
	unsigned int gen, fix;
	size_t i, k = 0;

	for (i = first; i < first + n; i++) {
		pe = table_event_at(mg, i);
		if (!pe)
			continue;
		if (!pmu) {
			pmu = pe->pmu;
			c = pmu_tables_counters(mg->t, pmu);
			if (!c)
				break;
			p = (struct fit_pmu){ c->generic, c->fixed,
					      watchdog_fixed(mg, pmu) };
		}
		if (k == sizeof(ev) / sizeof(*ev) ||
		    fit_event_parse(pe->counter, real_code(pe), &p,
				    &ev[k++]) < 0) {
			fit_title(f, mg, said);
			fprintf(f, "  group of %s: cannot say (%s's counters: '%s')\n",
				evsel_name(evlist_at(el, first)), pe->name,
				pe->counter ? pe->counter : "");
			return;
		}
	}
	if (!pmu)
		return;
	fit_title(f, mg, said);
	if (!c) {
		fprintf(f, "  group of %s: cannot say: the tables give no counter count for the %s PMU\n",
			evsel_name(evlist_at(el, first)), pmu);
		return;
	}
	fprintf(f, "  group of %s (%zu of the %s PMU's events): ",
		evsel_name(evlist_at(el, first)), k, pmu);
	if (fit_group(ev, k, &p, &gen, &fix))
		fprintf(f, "fits: %u of %u generic counters, %u of %u fixed\n",
			gen, p.generic, fix, p.fixed);
	else
		fprintf(f, "does not fit %u generic and %u fixed counters (%u of its events at most at once): the weak group is opened as single events, multiplexed\n",
			p.generic, p.fixed, gen);
	if (p.fixed_taken)
		fprintf(f, "    (the NMI watchdog holds fixed counter 1: sysctl kernel.nmi_watchdog=0 frees it)\n");
}

/* --explain -M: whether each group fits its PMU's counters. */
static void explain_fit(FILE *f, const struct metricgroup *mg,
			const struct evlist *el)
{
	struct evlist_group g;
	size_t i;
	bool said = false;

	for (i = 0; i < evlist_count(el); i += g.n ? g.n : 1) {
		g = evlist_group_of(el, i);
		if (g.n > 1)
			explain_group_fit(f, mg, el, g.first, g.n, &said);
	}
}

void metricgroup_explain(FILE *f, const struct metricgroup *mg,
			 const struct evlist *el)
{
	const struct mg_metric *m;
	size_t k;

	fprintf(f, "metrics of the %s tables (CPUID %s):\n",
		pmu_tables_model(mg->t), pmu_tables_cpuid(mg->t));
	for (k = 0; k < mg->n_m; k++) {
		m = &mg->m[k];
		fprintf(f, "  %s = %s\n", m->f->pm->name, m->f->pm->expr);
		if (m->f->pm->scale_unit)
			fprintf(f, "    ScaleUnit %s\n", m->f->pm->scale_unit);
		if (m->leader < evlist_count(el))
			fprintf(f, "    shown beside %s\n",
				evsel_name(evlist_at(el, m->leader)));
	}
	explain_fit(f, mg, el);
	fputc('\n', f);
}

/* What a formula's callbacks see while a value is computed. */
struct eval {
	const struct metricgroup *mg;
	const struct metricgroup_values *v;
	int depth;
	struct metric *m;	/* what it read, NULL: nothing kept */
	const struct pmu_metric *pm;	/* whose formula is evaluated */
};

static double formula_value(const struct eval *ev, const struct formula *f);

/* An input read, each once; the first that did not count is kept. */
static void note_input(struct metric *m, const struct mg_event *e,
		       enum counts_state state, double running_pct)
{
	const char *name = e->name;
	unsigned int i;

	for (i = 0; i < m->n_inputs; i++)
		if (m->inputs[i] == name)
			return;
	if (m->n_inputs < METRIC_INPUTS_MAX) {
		m->input_at[m->n_inputs] = e->at;
		m->inputs[m->n_inputs++] = name;
	} else {
		m->inputs_cut = true;
	}
	if (counts_counted(&(struct counts_result){ .state = state })) {
		if (running_pct < m->running_pct)
			m->running_pct = running_pct;
	} else if (!m->missing ||
		   (state == COUNTS_NOT_SUPPORTED &&
		    m->status != METRIC_NOT_SUPPORTED)) {
		/* Not supported says more: it never will count here. */
		m->missing = name;
		m->status = state == COUNTS_NOT_SUPPORTED
			    ? METRIC_NOT_SUPPORTED : METRIC_NOT_COUNTED;
	}
}

/* A counted event's value: NaN when it did not count. */
static bool event_of(const struct eval *ev, const struct mg_event *e,
		     double *v)
{
	double pct = 100.0;
	enum counts_state state = ev->v->event(ev->v->arg, e->at, v, &pct);
	bool ok = counts_counted(&(struct counts_result){ .state = state });

	if (ev->m)
		note_input(ev->m, e, state, pct);
	if (!ok)
		*v = NAN;
	return ok;
}

/* NOLINTNEXTLINE(misc-no-recursion): REF_DEPTH_MAX deep at most */
static bool id_value(void *arg, const char *name, double *v)
{
	struct eval *ev = arg;
	const struct metricgroup *mg = ev->mg;
	const struct mg_event *e = counted(mg, name);
	const struct pmu_metric *ref;
	struct eval deeper = *ev;
	size_t i;

	if (strcmp(name, "duration_time") == 0) {
		*v = ev->v->wall_ns / 1e9;
		return true;
	}
	if (strcmp(name, "user_time") == 0 || strcmp(name, "system_time") == 0) {
		*v = (name[0] == 'u' ? ev->v->user_ns : ev->v->system_ns) / 1e9;
		return true;
	}
	if (e)
		return event_of(ev, e, v);
	ref = ref_metric(mg->t, name, ev->pm);
	for (i = 0; ref && i < mg->n_formulas; i++)
		if (mg->formulas[i]->pm == ref && ev->depth < REF_DEPTH_MAX) {
			deeper.depth++;
			*v = formula_value(&deeper, mg->formulas[i]);
			return true;
		}
	return false;
}

/* has_event(name) as a value is computed: whether it counted. */
static bool counted_event(void *arg, const char *name)
{
	struct eval ev = *(struct eval *)arg;
	const struct mg_event *e = counted(ev.mg, name);
	double v;

	/* Asking is not reading: the metric's inputs stay as they are. */
	ev.m = NULL;
	return is_tool(name) || (e && event_of(&ev, e, &v));
}

static int eval_cpuid(void *arg, const char *s)
{
	struct eval *ev = arg;

	return cpuid_match(ev->mg, s);
}

/* An expression's value with the run's values; NaN when perf has none. */
static double expr_value(const struct eval *ev, const struct expr *e)
{
	struct eval in = *ev;
	const struct expr_env env = {
		.arg = &in, .id = id_value, .literal = literal,
		.has_event = counted_event, .source_count = one_source,
		.cpuid_cmp = eval_cpuid,
	};
	double v;

	return expr_eval(e, &env, &v) == 0 ? v : NAN;
}

/* NOLINTNEXTLINE(misc-no-recursion): REF_DEPTH_MAX deep at most */
static double formula_value(const struct eval *ev, const struct formula *f)
{
	struct eval in = *ev;

	/* The metrics it names are those of its own PMU (ref_metric). */
	in.pm = f->pm;
	return expr_value(&in, f->e);
}

/* perf's colours: a threshold of 0 is green, any other number red. */
static enum metric_threshold threshold_of(const struct eval *ev,
					  const struct mg_metric *m)
{
	struct eval quiet = *ev;
	double t;

	if (!m->threshold || !ev->v->thresholds)
		return METRIC_THRESHOLD_NONE;
	/* Its inputs are the formula's, not the threshold's. */
	quiet.m = NULL;
	quiet.pm = m->f->pm;
	t = expr_value(&quiet, m->threshold);
	if (isnan(t))
		return METRIC_THRESHOLD_NONE;
	return t == 0 ? METRIC_THRESHOLD_GOOD : METRIC_THRESHOLD_BAD;
}

/* One metric's value and what pstat says of it, into out. */
static void metric_of(const struct eval *ev, const struct mg_metric *m,
		      struct metric *out)
{
	struct eval keep = *ev;
	double v;

	*out = (struct metric){
		.width = 8, .prec = 2, .suffix = "",
		.name = m->f->pm->name, .formula = m->f->pm->expr,
		.running_pct = 100.0, .scale = m->scale,
	};
	keep.m = out;
	v = formula_value(&keep, m->f) * m->scale;
	/* A number despite an input that did not count (in a branch not
	 * taken, or has_event's): the number stands. */
	if (!isnan(v) && out->status != METRIC_COUNTED) {
		out->status = METRIC_COUNTED;
		out->missing = NULL;
	}
	out->value = v;
	out->threshold = out->status == METRIC_COUNTED ? threshold_of(ev, m)
						       : METRIC_THRESHOLD_NONE;
	snprintf(out->unit, sizeof(out->unit), "%s%s%s", m->unit,
		 m->unit[0] ? "  " : "", m->f->pm->name);
}

int metricgroup_row(const struct metricgroup *mg, size_t i,
		    const struct metricgroup_values *v, struct metric *out,
		    int max)
{
	const struct eval ev = { mg, v, 0, NULL };
	size_t k;
	int n = 0;

	for (k = 0; mg && k < mg->n_m && n < max; k++) {
		if (mg->m[k].leader != i)
			continue;
		metric_of(&ev, &mg->m[k], &out[n]);
		n++;
	}
	return n;
}

/*
 * The metrics e names, parsed, and those their formulas name, so that
 * e can be evaluated from what the run counts. 0 or -ENOMEM: a formula
 * perf's grammar refuses only leaves its name without a value.
 */
/* NOLINTNEXTLINE(misc-no-recursion): REF_DEPTH_MAX deep at most */
static int parse_refs(struct metricgroup *mg, const struct expr *e,
		      int depth)
{
	struct error err = { 0 };
	const struct pmu_metric *ref;
	const struct formula *f;
	size_t i, known;
	int ret = 0;

	for (i = 0; ret == 0 && depth < REF_DEPTH_MAX && i < expr_n_ids(e);
	     i++) {
		if (pmu_tables_event(mg->t, expr_id(e, i), NULL))
			continue;
		ref = pmu_tables_metric(mg->t, expr_id(e, i), NULL);
		known = mg->n_formulas;
		if (ref)
			ret = formula_of(mg, ref, &f, &err);
		error_fini(&err);
		if (ret == -EINVAL)
			ret = 0;
		else if (ret == 0 && ref && mg->n_formulas > known)
			ret = parse_refs(mg, f->e, depth + 1);
	}
	return ret;
}

/*
 * Each metric's MetricThreshold, parsed, with the metrics it names. A
 * threshold perf's grammar refuses is left out: it only colours.
 */
static int add_thresholds(struct metricgroup *mg)
{
	struct error err = { 0 };
	struct expr *e;
	size_t k;
	int ret = 0;

	for (k = 0; ret == 0 && k < mg->n_m; k++) {
		if (!mg->m[k].f->pm->threshold)
			continue;
		ret = expr_parse(mg->m[k].f->pm->threshold, &e, &err);
		error_fini(&err);
		if (ret == -EINVAL) {
			ret = 0;
			continue;
		}
		if (ret == 0) {
			mg->m[k].threshold = e;
			ret = parse_refs(mg, e, 0);
		}
	}
	return ret;
}
