/* SPDX-License-Identifier: GPL-2.0-or-later */
/* -M: perf's metrics from its tables, their events counted, their values. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdint.h>
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

/* A literal a metric's formulas read, and its value here. */
struct mg_literal {
	char name[24];
	double v;
};

/* A metric asked for. */
struct mg_metric {
	const struct formula *f;
	double scale;		/* ScaleUnit's number (1 without one) */
	char unit[24];		/* and its unit ("%", "GHz") */
	size_t leader;		/* el's index of its group's first event */
	/* How its events were chosen: perf 6.1's struct metric. */
	struct idset *ids;	/* the events (and tool events) it reads */
	const struct pmu_metric **refs;	/* the metrics its formulas name */
	size_t n_refs;
	struct mg_literal *lits;	/* the literals they read */
	size_t n_lits;
	bool constrained;	/* its events in no group */
	bool own;		/* the group is its own, not an earlier one's */
	size_t group;		/* in groups[] */
	struct expr *threshold;	/* MetricThreshold, parsed, or NULL */
};

/* The events one group (or ungrouped list) of -M counts. */
struct mg_group {
	char **names;		/* perf's order: counters, then tool events */
	size_t n, n_counters;
	bool braces;		/* the counters are a weak group, {...}:W */
	size_t first;		/* el's index of names[0] */
	const char *by;		/* the metric it is made for, the first */
	size_t lead;		/* names[lead] leads it (perf's topdown rule) */
	const char *split;	/* an event on several PMUs (cha): no braces */
};

struct metricgroup {
	struct pmu_tables *t;
	struct formula **formulas;	/* each its own: pointers stay */
	size_t n_formulas;
	struct mg_metric *m;
	size_t n_m;
	struct mg_event *ev;
	size_t n_ev;
	struct mg_group *groups;
	size_t n_groups;
	bool core_wide;		/* #core_wide: what is counted is all a core
				 * runs (perf's core_wide()) */
	/* perf 6.1's names taken as 6.12's: "IpBranch" for the one name
	 * of the tables that ends in _ipbranch, each allocated. */
	char *renamed_from[METRICGROUP_RENAMED_MAX];
	const char *renamed_to[METRICGROUP_RENAMED_MAX];
	size_t n_renamed;
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

/*
 * perf's core_wide(): a count covers all a core runs when every CPU is
 * counted (-a, or -C with every thread of its cores; pstat does not
 * look for threads and says no) and the cores run one thread each or
 * all of them are counted. A command is never counted core-wide.
 */
static bool core_wide(const struct metricgroup_opts *o)
{
	if (!o->system_wide)
		return false;
	return !smt_on() || !o->cpu_list;
}

/*
 * perf's literals (expr.h), as perf finds them for a command. arg is
 * the caller's, whose first member is the metricgroup.
 */
static bool literal(void *arg, const char *name, double *v)
{
	const struct metricgroup *mg = *(const struct metricgroup **)arg;
	char path[512];
	double cores, dies, packages;

	if (strcasecmp(name, "smt_on") == 0) {
		*v = smt_on();
	} else if (strcmp(name, "core_wide") == 0) {
		*v = mg->core_wide;
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
	struct metricgroup *mg;		/* first: literal() reads it */
	struct mg_metric *m;		/* the metric whose events they are */
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

/*
 * perf 6.1's sets of identifiers: libbpf's hashmap with perf's key_hash.
 * perf writes a metric's group in the order of its buckets, so pstat
 * keeps the same buckets, grown and joined as perf's are.
 */
struct idset_entry {
	char *key;
	struct idset_entry *next;
};

struct idset {
	struct idset_entry **bucket;
	size_t cap, sz;
	unsigned int bits;
};

/* key_hash (h * 31 + c), then hash_bits' top bits of the product. */
static size_t idset_bucket(const char *key, unsigned int bits)
{
	uint64_t h = 0;

	for (; *key; key++)
		h = h * 31 + (uint64_t)(int64_t)(signed char)*key;
	if (!bits)
		return 0;
	return (size_t)((h * 11400714819323198485ULL) >> (64 - bits));
}

static struct idset_entry **idset_find(const struct idset *s,
				       const char *key)
{
	struct idset_entry **p;

	if (!s || !s->cap)
		return NULL;
	for (p = &s->bucket[idset_bucket(key, s->bits)]; *p; p = &(*p)->next)
		if (strcmp((*p)->key, key) == 0)
			return p;
	return NULL;
}

/* hashmap_grow: bucket by bucket, each entry to the head of its new one. */
static int idset_grow(struct idset *s)
{
	unsigned int bits = s->bits + 1 < 2 ? 2 : s->bits + 1;
	size_t cap = (size_t)1 << bits, b, h;
	struct idset_entry **nb, *e, *next;

	/* NOLINTNEXTLINE(bugprone-sizeof-expression): it holds pointers */
	nb = calloc(cap, sizeof(*nb));
	if (!nb)
		return -ENOMEM;
	for (b = 0; b < s->cap; b++) {
		for (e = s->bucket[b]; e; e = next) {
			next = e->next;
			h = idset_bucket(e->key, bits);
			e->next = nb[h];
			nb[h] = e;
		}
	}
	free(s->bucket);
	s->bucket = nb;
	s->cap = cap;
	s->bits = bits;
	return 0;
}

/* hashmap__set: a key already there stays where it is. */
static int idset_add(struct idset *s, const char *key)
{
	struct idset_entry *e, **head;

	if (idset_find(s, key))
		return 0;
	if ((s->cap == 0 || (s->sz + 1) * 4 / 3 > s->cap) &&
	    idset_grow(s) < 0)
		return -ENOMEM;
	e = malloc(sizeof(*e));
	if (e)
		e->key = strdup(key);
	if (!e || !e->key) {
		free(e);
		return -ENOMEM;
	}
	head = &s->bucket[idset_bucket(key, s->bits)];
	e->next = *head;
	*head = e;
	s->sz++;
	return 0;
}

static void idset_del(struct idset *s, const char *key)
{
	struct idset_entry **p = idset_find(s, key), *e;

	if (!p)
		return;
	e = *p;
	*p = e->next;
	free(e->key);
	free(e);
	s->sz--;
}

static void idset_free(struct idset *s)
{
	struct idset_entry *e, *next;
	size_t b;

	if (!s)
		return;
	for (b = 0; b < s->cap; b++) {
		for (e = s->bucket[b]; e; e = next) {
			next = e->next;
			free(e->key);
			free(e);
		}
	}
	free(s->bucket);
	free(s);
}

/* The keys in perf's order (hashmap__for_each_entry), into out[sz]. */
static void idset_keys(const struct idset *s, const char **out)
{
	const struct idset_entry *e;
	size_t b, n = 0;

	for (b = 0; s && b < s->cap; b++)
		for (e = s->bucket[b]; e; e = e->next)
			out[n++] = e->key;
}

/* What expr_id_sets' callbacks see: the first failure. */
struct set_ctx {
	int err;
};

/* ids__union: the smaller set's keys go into the larger, in its order. */
static void *idset_union(void *arg, void *pa, void *pb)
{
	struct set_ctx *c = arg;
	struct idset *a = pa, *b = pb, *t;
	const struct idset_entry *e;
	size_t k;

	if (!a || !b)
		return a ? a : b;
	if (a->sz < b->sz) {
		t = a;
		a = b;
		b = t;
	}
	for (k = 0; k < b->cap; k++)
		for (e = b->bucket[k]; e; e = e->next)
			if (idset_add(a, e->key) < 0)
				c->err = -ENOMEM;
	idset_free(b);
	return a;
}

static void *idset_of(void *arg, const char *name)
{
	struct set_ctx *c = arg;
	struct idset *s = calloc(1, sizeof(*s));

	if (!s || idset_add(s, name) < 0) {
		c->err = -ENOMEM;
		idset_free(s);
		return NULL;
	}
	return s;
}

/* Whether every key of a is one of b (expr__subset_of_ids). */
static bool idset_within(const struct idset *a, const struct idset *b)
{
	const struct idset_entry *e;
	size_t k;

	for (k = 0; k < a->cap; k++)
		for (e = a->bucket[k]; e; e = e->next)
			if (!idset_find(b, e->key))
				return false;
	return true;
}

/* Its keys that are no tool event: what perf sorts metrics by. */
static size_t idset_counters(const struct idset *s)
{
	size_t n = s->sz, i;

	for (i = 0; i < sizeof(tools) / sizeof(tools[0]); i++)
		if (idset_find(s, tools[i]))
			n--;
	return n;
}


/* The metrics being resolved, innermost first: perf's visited list. */
struct visit {
	const char *name;
	const struct visit *up;
};

/* A literal's value, once per metric, for --explain (perf -vv's). */
static void note_literal(struct mg_metric *m, const char *name, double v)
{
	struct mg_literal *grown;
	size_t i;

	for (i = 0; i < m->n_lits; i++)
		if (strcmp(m->lits[i].name, name) == 0)
			return;
	grown = reallocarray(m->lits, m->n_lits + 1, sizeof(*grown));
	if (!grown)
		return;
	m->lits = grown;
	snprintf(grown[m->n_lits].name, sizeof(grown->name), "%s", name);
	grown[m->n_lits++].v = v;
}

static bool choose_literal(void *arg, const char *name, double *v)
{
	struct choose *c = arg;
	bool ok = literal(arg, name, v);

	if (ok && c->m)
		note_literal(c->m, name, *v);
	return ok;
}

static int metric_ids(struct metricgroup *mg, struct mg_metric *m,
		      const struct pmu_metric *pm, const struct visit *up,
		      struct error *err);

/* A metric m's formulas name, unless already read (perf's metric_refs). */
/* NOLINTNEXTLINE(misc-no-recursion): as deep as the tables name */
static int add_ref(struct metricgroup *mg, struct mg_metric *m,
		   const struct pmu_metric *ref, const struct visit *up,
		   struct error *err)
{
	const struct pmu_metric **grown;
	const struct visit *v;
	size_t i;

	for (v = up; v; v = v->up)
		if (strcmp(v->name, ref->name) == 0)
			return error_at(err, 0, NULL,
					"metric %s of the %s tables: its formula names itself, through %s",
					ref->name, pmu_tables_model(mg->t),
					up->name);
	for (i = 0; i < m->n_refs; i++)
		if (strcmp(m->refs[i]->name, ref->name) == 0)
			return 0;
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): it holds pointers */
	grown = reallocarray(m->refs, m->n_refs + 1, sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	m->refs = grown;
	grown[m->n_refs++] = ref;
	return metric_ids(mg, m, ref, up, err);
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
 * perf's resolve_metric: the identifiers of m that name metrics leave
 * its set, then those metrics' identifiers join it, in the set's order.
 */
/* NOLINTNEXTLINE(misc-no-recursion): as deep as the tables name */
static int resolve_refs(struct metricgroup *mg, struct mg_metric *m,
			const struct visit *here, struct error *err)
{
	size_t n = m->ids->sz, i, k = 0;
	const char **keys = calloc(n + 1, sizeof(*keys));
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): it holds pointers */
	const struct pmu_metric **refs = calloc(n + 1, sizeof(*refs));
	const struct pmu_metric *ref;
	int ret = keys && refs ? 0 : -ENOMEM;

	if (ret == 0)
		idset_keys(m->ids, keys);
	for (i = 0; ret == 0 && i < n; i++) {
		ref = ref_metric(mg->t, keys[i], m->f->pm);
		if (ref && ref->expr) {
			keys[k] = keys[i];
			refs[k++] = ref;
		}
	}
	for (i = 0; ret == 0 && i < k; i++)
		idset_del(m->ids, keys[i]);
	for (i = 0; ret == 0 && i < k; i++)
		ret = add_ref(mg, m, refs[i], here, err);
	free(keys);
	free(refs);
	return ret;
}

/*
 * perf's __add_metric: the identifiers pm's formula needs join m's set
 * (ids__union), then the metrics among them are resolved.
 */
/* NOLINTNEXTLINE(misc-no-recursion): as deep as the tables name */
static int metric_ids(struct metricgroup *mg, struct mg_metric *m,
		      const struct pmu_metric *pm, const struct visit *up,
		      struct error *err)
{
	const struct visit here = { pm->name, up };
	struct choose c = { mg, m };
	struct set_ctx sc = { 0 };
	const struct expr_env env = {
		.arg = &c, .id = no_value, .literal = choose_literal,
		.has_event = event_exists, .source_count = one_source,
		.cpuid_cmp = choose_cpuid,
	};
	const struct expr_sets sets = { &sc, idset_of, idset_union };
	const struct formula *f;
	void *s = NULL;
	int ret;

	ret = formula_of(mg, pm, &f, err);
	if (ret == 0)
		ret = expr_id_sets(f->e, &env, &sets, &s);
	if (ret == -EINVAL)
		error_at(err, 0, NULL,
			 "metric %s: perf's evaluation of '%s' fails here (a literal unknown on this machine, or a constant %% 0)",
			 pm->name, pm->expr);
	if (ret < 0)
		return ret;
	m->ids = idset_union(&sc, s, m->ids);
	if (sc.err < 0)
		return sc.err;
	return resolve_refs(mg, m, &here, err);
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
 * A table's event with perf's modifiers, NAME:k, as perf writes it for
 * a metric: pmu/terms,name=NAME:k/k.
 */
static int modified_spec(const struct metricgroup *mg, const char *name,
			 char **spec)
{
	const char *colon = strchr(name, ':');
	char *base = strndup(name, (size_t)(colon - name)), *s = NULL;
	const struct pmu_event *pe = base ? pmu_tables_event(mg->t, base, NULL)
					  : NULL;
	int ret;

	free(base);
	if (!pe) {
		*spec = strdup(name);
		return *spec ? 0 : -ENOMEM;
	}
	ret = table_spec(pe, name, &s);
	if (ret == 0 && asprintf(spec, "%s%s", s, colon + 1) < 0)
		ret = -ENOMEM;
	free(s);
	return ret;
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
	const char *at = strchr(name, '@');
	char *p;

	if (pe)
		return table_spec(pe, name, spec);
	if (!at && strchr(name, ':'))
		return modified_spec(mg, name, spec);
	*spec = strdup(name);
	if (!*spec)
		return -ENOMEM;
	/* perf's pmu@terms@ is pmu/terms/, whose terms evparse reads
	 * with the tables' names (cpu@UOPS_EXECUTED.THREAD\,cmask\=1@). */
	for (p = *spec; at && *p; p++)
		if (*p == '@')
			*p = '/';
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
	/* perf 6.1's name of the same constraint. */
	if (strcmp(c, "NO_GROUP_EVENTS_NMI") == 0 ||
	    strcmp(c, "NO_NMI_WATCHDOG") == 0)
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


/*
 * Whether an event a formula names is on a PMU of several instances
 * (cha: uncore_cha_0, uncore_cha_1, ...): each instance counts it, and
 * one group cannot hold them all. perf makes a group per instance; pstat
 * counts such a metric's events ungrouped, each summed over its
 * instances, and --explain says so.
 */
static bool several_pmus(const struct metricgroup *mg, const char *name)
{
	const struct pmu_event *pe;
	const char *at, *pmu = name;
	size_t len;
	char **names;
	int n;

	if (!name)
		return false;
	pe = pmu_tables_event(mg->t, name, NULL);
	at = strchr(name, '@');
	len = at ? (size_t)(at - name) : 0;
	if (pe && strcmp(pe->pmu, "cpu") == 0)
		return false;
	if (pe) {
		pmu = pe->pmu;
		len = strlen(pmu);
	}
	if (!len)
		return false;
	n = pmu_instances(pmu, len, &names);
	if (n > 0)
		pmu_instances_free(names, n);
	return n > 1;
}
/*
 * perf's parse_ids: the tool events the metrics read go in every set
 * (unless --metric-no-merge), an empty set reads duration_time, and
 * the group is the set's counters in its order, then its tool events.
 */
static int make_group(struct metricgroup *mg, struct idset *ids,
		      const struct metricgroup_opts *o, const bool *tool,
		      bool constrained, size_t *index)
{
	size_t i, n, nt = sizeof(tools) / sizeof(tools[0]);
	const char **keys = NULL;
	struct mg_group *grown, *g;
	bool added = false;
	int ret = 0;

	for (i = 0; (!o->no_merge || ids->sz == 0) && i < nt && ret == 0; i++)
		if (tool[i]) {
			ret = idset_add(ids, tools[i]);
			added = true;
		}
	if (ret == 0 && !added && ids->sz == 0)
		ret = idset_add(ids, tools[0]);
	grown = ret ? NULL : reallocarray(mg->groups, mg->n_groups + 1,
					  sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	mg->groups = grown;
	g = &grown[mg->n_groups];
	*g = (struct mg_group){ .first = SIZE_MAX };
	n = ids->sz;
	keys = calloc(n + 1, sizeof(*keys));
	g->names = calloc(n + 1, sizeof(*g->names));
	if (!keys || !g->names) {
		free(keys);
		free(g->names);
		return -ENOMEM;
	}
	mg->n_groups++;
	idset_keys(ids, keys);
	for (i = 0; i < n && keys[i] && ret == 0; i++)
		if (!is_tool(keys[i]) && !(g->names[g->n++] = strdup(keys[i])))
			ret = -ENOMEM;
	g->n_counters = g->n;
	for (i = 0; i < nt && ret == 0; i++)
		if (idset_find(ids, tools[i]) &&
		    !(g->names[g->n++] = strdup(tools[i])))
			ret = -ENOMEM;
	g->braces = !constrained && g->n_counters > 0;
	for (i = 0; ret == 0 && g->braces && i < g->n_counters; i++)
		if (several_pmus(mg, g->names[i])) {
			g->braces = false;
			g->split = g->names[i];
		}
	*index = mg->n_groups - 1;
	free(keys);
	return ret;
}

/* Whether the core PMU has perf metrics: type PERF_TYPE_RAW and slots. */
static bool perf_metrics(void)
{
	char core[256], buf[64];
	uint32_t type;

	return pmu_core_name(core, sizeof(core)) == 0 &&
	       pmu_type(core, &type) == 0 && type == PERF_TYPE_RAW &&
	       pmu_read(core, "events/slots", buf, sizeof(buf)) >= 0;
}

/* Whether a group's event is the core PMU's: a table's "cpu" event,
 * pmu@terms@ of the core PMU, or one of its sysfs events. */
static bool core_event(const struct metricgroup *mg, const char *name)
{
	const struct pmu_event *pe = pmu_tables_event(mg->t, name, NULL);
	char core[256], file[256], buf[256];
	const char *at = strchr(name, '@');

	if (pe)
		return strcmp(pe->pmu, "cpu") == 0;
	if (pmu_core_name(core, sizeof(core)) < 0)
		return false;
	if (at)
		return (size_t)(at - name) == strlen(core) &&
		       strncmp(name, core, strlen(core)) == 0;
	snprintf(file, sizeof(file), "events/%s", name);
	return pmu_read(core, file, buf, sizeof(buf)) >= 0;
}

/*
 * perf 6.1's arch_evlist__leader: where the core PMU has perf metrics,
 * a group with a core event named *slots* and one named *topdown* (in
 * any case) is led by that slots event, moved to the front.
 */
static size_t group_lead(const struct metricgroup *mg,
			 const struct mg_group *g)
{
	size_t i, slots = SIZE_MAX;
	bool topdown = false;

	if (!g->braces || !perf_metrics())
		return 0;
	for (i = 0; i < g->n_counters; i++) {
		if (!core_event(mg, g->names[i]))
			continue;
		if (strcasestr(g->names[i], "slots")) {
			slots = i;
			if (i == 0)
				return 0;
		}
		if (strcasestr(g->names[i], "topdown"))
			topdown = true;
		if (slots != SIZE_MAX && topdown)
			return slots;
	}
	return 0;
}

/* Which of names el's k-th event of the group is: its leader first. */
static size_t group_at(const struct mg_group *g, size_t k)
{
	if (k == 0)
		return g->lead;
	return k <= g->lead ? k - 1 : k;
}

/*
 * A group's events as perf's -vv shows them, without metric-id=, and
 * without the :W after the braces (every group of -M is weak): the
 * names of the events never carry it.
 */
static void group_text(FILE *f, const struct mg_group *g)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		fprintf(f, "%s%s%s%s", i ? "," : "",
			g->braces && i == 0 ? "{" : "", g->names[i],
			g->braces && i + 1 == g->n_counters ? "}" : "");
}

/* A group's events go to the end of el as one group (or none). */
static int add_group(struct metricgroup *mg, struct mg_group *g,
		     struct evlist *el, struct error *err)
{
	size_t first = evlist_count(el), i, at, n = g->n;
	char **specs = calloc(n + 1, sizeof(*specs)), *text = NULL;
	const struct pmu_event *pe;
	struct mg_event *grown;
	FILE *f;
	size_t len = 0;
	int ret = specs ? 0 : -ENOMEM;

	for (i = 0; ret == 0 && i < n; i++) {
		pe = pmu_tables_event(mg->t, g->names[i], NULL);
		if (pe && strcmp(table_pmu(pe), "cpu") == 0 &&
		    !pmu_have_core_pmu()) {
			ret = error_at(err, 0, NULL,
				       "its event %s is the core PMU's, which this machine does not have (a virtual machine without a virtual PMU?): see 'pstat --check'",
				       g->names[i]);
			snprintf(err->where, sizeof(err->where), "-M %s: ",
				 g->by);
			break;
		}
		ret = event_spec(mg, g->names[i], &specs[i]);
		if (ret == 0 && !specs[i])
			ret = -ENOMEM;
	}
	f = ret == 0 ? open_memstream(&text, &len) : NULL;
	if (ret == 0 && !f)
		ret = -ENOMEM;
	g->lead = ret == 0 ? group_lead(mg, g) : 0;
	for (i = 0; f && i < n; i++)
		fprintf(f, "%s%s%s%s", i ? "," : "",
			g->braces && i == 0 ? "{" : "", specs[group_at(g, i)],
			g->braces && i + 1 == g->n_counters ? "}:W" : "");
	if (f && fclose(f) != 0)
		ret = -ENOMEM;
	if (ret == 0)
		ret = evparse(el, text, err);
	if (ret == -EINVAL && !err->where[0])
		snprintf(err->where, sizeof(err->where), "-M %s: ", g->by);
	/* The spec at fault points into text: the error keeps it. */
	if (ret == -EINVAL && !err->buf && text && err->spec >= text &&
	    err->spec <= text + strlen(text)) {
		err->buf = text;
		text = NULL;
	}
	for (i = 0; ret == 0 && i < n; i++) {
		if (!specs[i] ||
		    find_event(el, first, g->names[i], specs[i], &at) < 0) {
			ret = error_at(err, 0, NULL, "event %s was not made (%s)",
				       g->names[i], specs[i]);
			break;
		}
		grown = reallocarray(mg->ev, mg->n_ev + 1, sizeof(*grown));
		if (!grown) {
			ret = -ENOMEM;
			break;
		}
		mg->ev = grown;
		grown[mg->n_ev].name = strdup(g->names[i]);
		grown[mg->n_ev].at = at;
		if (!grown[mg->n_ev].name) {
			ret = -ENOMEM;
			break;
		}
		if (i == g->lead)
			g->first = at;
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

/*
 * The event name that a metric of group g reads: the group's own copy
 * (perf's metrics read their own group's events: another group's copy
 * of the same event ran at other times when counters multiplex), else
 * the first of the name.
 */
static const struct mg_event *counted_in(const struct metricgroup *mg,
					 const char *name, size_t g)
{
	const struct mg_group *grp = g < mg->n_groups ? &mg->groups[g] : NULL;
	size_t i;

	for (i = 0; grp && grp->first != SIZE_MAX && i < mg->n_ev; i++)
		if (mg->ev[i].at >= grp->first &&
		    mg->ev[i].at < grp->first + grp->n &&
		    strcmp(mg->ev[i].name, name) == 0)
			return &mg->ev[i];
	return counted(mg, name);
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

/*
 * perf's metric_list_cmp, sorted stably: the metrics that read more
 * counters first, so that those that read fewer can share their group.
 */
static void sort_by_counters(struct mg_metric **order, size_t n)
{
	struct mg_metric *m;
	size_t i, j;

	for (i = 1; i < n; i++) {
		m = order[i];
		for (j = i; j > 0 && idset_counters(order[j - 1]->ids) <
					    idset_counters(m->ids); j--)
			order[j] = order[j - 1];
		order[j] = m;
	}
}

/*
 * The group each metric reads (perf 6.1's parse_groups): the metrics
 * in no group share one list, first; a metric whose events an earlier
 * group holds all of reads that group; any other makes its own.
 */
static int choose_groups(struct metricgroup *mg, struct mg_metric **order,
			 size_t n, const struct metricgroup_opts *o)
{
	bool tool[sizeof(tools) / sizeof(tools[0])] = { false };
	size_t i, j, k, combined = SIZE_MAX;
	struct idset *all = calloc(1, sizeof(*all));
	const char **keys;
	int ret = all ? 0 : -ENOMEM;

	const char *by = NULL;

	for (i = 0; !o->no_merge && i < n; i++)
		for (k = 0; k < sizeof(tools) / sizeof(tools[0]); k++)
			tool[k] = tool[k] || idset_find(order[i]->ids, tools[k]);
	for (i = 0; ret == 0 && !o->no_merge && i < n; i++) {
		if (!order[i]->constrained)
			continue;
		by = by ? by : order[i]->f->pm->name;
		keys = calloc(order[i]->ids->sz + 1, sizeof(*keys));
		if (!keys) {
			ret = -ENOMEM;
			break;
		}
		idset_keys(order[i]->ids, keys);
		for (k = 0; ret == 0 && k < order[i]->ids->sz; k++)
			ret = idset_add(all, keys[k]);
		free(keys);
	}
	if (ret == 0 && all->sz)
		ret = make_group(mg, all, o, tool, true, &combined);
	if (ret == 0 && combined != SIZE_MAX)
		mg->groups[combined].by = by;
	for (i = 0; ret == 0 && i < n; i++) {
		order[i]->group = SIZE_MAX;
		if (combined != SIZE_MAX && order[i]->constrained)
			order[i]->group = combined;
		for (j = 0; !o->no_merge && order[i]->group == SIZE_MAX &&
			    j < i; j++)
			if (order[j]->own &&
			    idset_within(order[i]->ids, order[j]->ids))
				order[i]->group = order[j]->group;
		if (order[i]->group == SIZE_MAX) {
			ret = make_group(mg, order[i]->ids, o, tool,
					 order[i]->constrained,
					 &order[i]->group);
			if (ret == 0)
				mg->groups[order[i]->group].by =
					order[i]->f->pm->name;
			order[i]->own = true;
		}
	}
	idset_free(all);
	return ret;
}

/* The row a metric is shown on: the first event of its group it reads. */
static void set_leader(const struct metricgroup *mg, struct mg_metric *m)
{
	const struct mg_group *g = &mg->groups[m->group];
	size_t i;

	for (i = 0; i < g->n; i++)
		if (idset_find(m->ids, g->names[group_at(g, i)])) {
			m->leader = g->first + i;
			return;
		}
}

/*
 * The metrics of -M, in perf 6.1's order: each word's in the order of
 * perf's table (jevents.py: those without a description first, then by
 * file and name as written), the last word's first and each word's
 * backwards (perf adds each at the head of its list).
 */
static int table_order(const void *pa, const void *pb)
{
	const struct pmu_metric *a = *(const struct pmu_metric *const *)pa;
	const struct pmu_metric *b = *(const struct pmu_metric *const *)pb;
	int c = (a->desc != NULL) - (b->desc != NULL);

	c = c ? c : strcmp(a->topic ? a->topic : "", b->topic ? b->topic : "");
	c = c ? c : strcmp(a->name, b->name);
	return c ? c : strcmp(a->pmu, b->pmu);
}


/*
 * Whether name, the one name closest to word, is a metric whose name
 * ends in "_WORD" in any case: perf 6.12's tables renamed perf 6.1's
 * IpBranch to tma_info_inst_mix_ipbranch.
 */
static bool renamed_metric(const struct metricgroup *mg, const char *word,
			   const char *name)
{
	size_t ln = strlen(name), lw = strlen(word);

	return lw > 1 && ln > lw && name[ln - lw - 1] == '_' &&
	       strcasecmp(name + ln - lw, word) == 0 &&
	       pmu_tables_metric(mg->t, name, NULL) != NULL;
}
/* One word of -M: its metrics, added to picked, or the reason none is. */
static int add_word(struct metricgroup *mg, const char *word,
		    const struct pmu_metric ***picked, size_t *n_picked,
		    struct error *err)
{
	const struct pmu_metric **grown;
	const char *close[4];
	size_t n = pmu_tables_select(mg->t, word, NULL, 0), i, k;
	char near[256] = "";
	bool far;

	if (n == 0 && pmu_tables_closest(mg->t, word, close, 4) == 1 &&
	    renamed_metric(mg, word, close[0]) &&
	    mg->n_renamed < METRICGROUP_RENAMED_MAX) {
		/* perf 6.1's name of the one metric 6.12's tables renamed
		 * so: taken, and said (metricgroup_renamed). */
		mg->renamed_from[mg->n_renamed] = strdup(word);
		if (!mg->renamed_from[mg->n_renamed])
			return -ENOMEM;
		mg->renamed_to[mg->n_renamed++] = close[0];
		word = close[0];
		n = pmu_tables_select(mg->t, word, NULL, 0);
	}
	if (n == 0) {
		k = pmu_tables_closest(mg->t, word, close, 4);
		/* None close: the nearest, said to be far. */
		far = k == 0;
		if (far)
			k = pmu_tables_nearest(mg->t, word, close, 4);
		for (i = 0; i < k && i < 4; i++)
			snprintf(near + strlen(near), sizeof(near) - strlen(near),
				 "%s%s", i ? ", " : far ? " (none is close; the nearest: "
							: " (closest: ",
				 close[i]);
		if (k)
			snprintf(near + strlen(near), sizeof(near) - strlen(near),
				 ")");
		return error_at(err, 0, NULL,
				"no metric or metric group '%s' in the %s tables%s; see 'pstat --list metrics'",
				word, pmu_tables_model(mg->t), near);
	}
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): it holds pointers */
	grown = reallocarray(*picked, *n_picked + n, sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	*picked = grown;
	pmu_tables_select(mg->t, word, grown + *n_picked, n);
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): it holds pointers */
	qsort(grown + *n_picked, n, sizeof(*grown), table_order);
	*n_picked += n;
	return 0;
}

/* A metric asked for: its events chosen as perf chooses them. */
static int add_metric(struct metricgroup *mg, const struct pmu_metric *pm,
		      const struct metricgroup_opts *o, struct error *err)
{
	struct mg_metric *m = &mg->m[mg->n_m];
	int ret;

	*m = (struct mg_metric){ .leader = SIZE_MAX, .group = SIZE_MAX };
	scale_unit(pm->scale_unit, m);
	m->constrained = o->no_group || ungrouped(pm);
	m->ids = calloc(1, sizeof(*m->ids));
	mg->n_m++;
	if (!m->ids)
		return -ENOMEM;
	ret = formula_of(mg, pm, &m->f, err);
	if (ret == 0)
		ret = metric_ids(mg, m, pm, NULL, err);
	if (ret == -EINVAL && !err->where[0])
		snprintf(err->where, sizeof(err->where), "-M %s: ", pm->name);
	return ret;
}

/*
 * The metrics of picked (perf's list, backwards) and their groups: the
 * groups go to el in the order perf opens them, and mg->m holds the
 * metrics as perf shows them on a row (the last one sorted first).
 */
static int add_metrics(struct metricgroup *mg,
		       const struct pmu_metric **picked, size_t n,
		       const struct metricgroup_opts *o, struct evlist *el,
		       struct error *err)
{
	struct mg_metric **order = NULL, *sorted = NULL;
	size_t i;
	int ret = 0;

	mg->m = calloc(n + 1, sizeof(*mg->m));
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): it holds pointers */
	order = calloc(n + 1, sizeof(*order));
	sorted = calloc(n + 1, sizeof(*sorted));
	if (!mg->m || !order || !sorted)
		ret = -ENOMEM;
	for (i = 0; ret == 0 && i < n; i++)
		ret = add_metric(mg, picked[n - 1 - i], o, err);
	for (i = 0; ret == 0 && i < n; i++)
		order[i] = &mg->m[i];
	if (ret == 0) {
		sort_by_counters(order, n);
		ret = choose_groups(mg, order, n, o);
	}
	for (i = 0; ret == 0 && i < mg->n_groups; i++)
		ret = add_group(mg, &mg->groups[i], el, err);
	for (i = 0; ret == 0 && i < n; i++) {
		set_leader(mg, order[i]);
		sorted[n - 1 - i] = *order[i];
	}
	if (ret == 0) {
		memcpy(mg->m, sorted, n * sizeof(*sorted));
	}
	free(sorted);
	free(order);
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
	const struct pmu_metric **picked = NULL;
	char why[512] = "", *copy = NULL, *word, *save;
	size_t i, n = 0;
	int ret;

	*out = NULL;
	if (!mg)
		return -ENOMEM;
	mg->core_wide = core_wide(opts);
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
			ret = add_word(mg, topdown_word(mg, word), &picked, &n,
				       err);
	}
	free(copy);
	if (ret == 0)
		ret = add_metrics(mg, picked, n, opts, el, err);
	free(picked);
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
	size_t i, j;

	if (!mg)
		return;
	for (i = 0; i < mg->n_formulas; i++) {
		expr_free(mg->formulas[i]->e);
		free(mg->formulas[i]);
	}
	for (i = 0; i < mg->n_ev; i++)
		free(mg->ev[i].name);
	for (i = 0; i < mg->n_m; i++) {
		expr_free(mg->m[i].threshold);
		idset_free(mg->m[i].ids);
		free(mg->m[i].refs);
		free(mg->m[i].lits);
	}
	for (i = 0; i < mg->n_groups; i++) {
		for (j = 0; j < mg->groups[i].n; j++)
			free(mg->groups[i].names[j]);
		free(mg->groups[i].names);
	}
	for (i = 0; i < mg->n_renamed; i++)
		free(mg->renamed_from[i]);
	free(mg->groups);
	free(mg->formulas);
	free(mg->ev);
	free(mg->m);
	pmu_tables_free(mg->t);
	free(mg);
}

/* One metric: its formula, those it names, its literals, its group. */
static void explain_metric(FILE *f, const struct metricgroup *mg,
			   const struct mg_metric *m, const struct evlist *el)
{
	size_t i;

	fprintf(f, "  %s = %s\n", m->f->pm->name, m->f->pm->expr);
	if (m->f->pm->scale_unit)
		fprintf(f, "    ScaleUnit %s\n", m->f->pm->scale_unit);
	if (m->leader < evlist_count(el))
		fprintf(f, "    shown beside %s\n",
			evsel_name(evlist_at(el, m->leader)));
	for (i = 0; i < m->n_refs; i++)
		fprintf(f, "    metric %s = %s\n", m->refs[i]->name,
			m->refs[i]->expr);
	for (i = 0; i < m->n_lits; i++)
		fprintf(f, "    literal #%s = %g\n", m->lits[i].name,
			m->lits[i].v);
	if (m->group < mg->n_groups)
		fprintf(f, "    events of group %zu\n", m->group + 1);
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
	size_t k;

	fprintf(f, "metrics of the %s tables (CPUID %s):\n",
		pmu_tables_model(mg->t), pmu_tables_cpuid(mg->t));
	for (k = 0; k < mg->n_m; k++)
		explain_metric(f, mg, &mg->m[k], el);
	fprintf(f, "their events, as perf 6.1 groups them ({...}: a weak group):\n");
	for (k = 0; k < mg->n_groups; k++) {
		fprintf(f, "  group %zu: ", k + 1);
		group_text(f, &mg->groups[k]);
		fputc('\n', f);
		if (mg->groups[k].lead)
			fprintf(f, "    led by %s: slots first where topdown events are\n",
				mg->groups[k].names[mg->groups[k].lead]);
		if (mg->groups[k].split)
			fprintf(f, "    not a group: %s is on several PMUs, each counting it (perf groups them per PMU); each event is the sum over them\n",
				mg->groups[k].split);
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
	size_t group;	/* the metric's group, whose events it reads */
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
	const struct mg_event *e = counted_in(mg, name, ev->group);
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
	const struct mg_event *e = counted_in(ev.mg, name, ev.group);
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
	quiet.group = m->group;
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
	keep.group = m->group;
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
	const struct eval ev = { mg, v, 0, NULL, NULL, SIZE_MAX };
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
		if (!mg->m[k].f || !mg->m[k].f->pm->threshold)
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

bool metricgroup_renamed(const struct metricgroup *mg, size_t i,
			 const char **from, const char **to)
{
	if (!mg || i >= mg->n_renamed)
		return false;
	*from = mg->renamed_from[i];
	*to = mg->renamed_to[i];
	return true;
}
