/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pstat --list: the events this machine knows, grouped by kind. */
#include "config.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include "evsel.h"
#include "event_table.h"
#include "json.h"
#include "list.h"
#include "pfm.h"
#include "pmu.h"
#include "pmu_tables.h"

enum support {
	SUPPORT_UNKNOWN,	/* not probed, or the kernel would not say */
	SUPPORT_YES,
	SUPPORT_NO,
};

static const char *const support_words[] = {
	[SUPPORT_UNKNOWN] = NULL,
	[SUPPORT_YES] = "supported",
	[SUPPORT_NO] = "not supported here",
};

/* One listing, as text or as one JSON document. */
struct lister {
	FILE *f;
	const char *filter;
	bool json;
	const char *kind;	/* of the section being written */
	bool section_open;
	bool first_entry;
	int err;		/* -ENOMEM: the list is not whole */
	char **cores;		/* a hybrid CPU's core PMUs */
	uint32_t core_types[8];	/* and their types */
	int n_cores;
};

static bool matches(const char *name, const char *filter)
{
	if (!filter)
		return true;
	if (strpbrk(filter, "*?["))
		return fnmatch(filter, name, 0) == 0;
	return strstr(name, filter) != NULL;
}

/* Open a counter on pstat itself, user space only (allowed at
 * perf_event_paranoid 2), to learn whether the kernel has the event. */
static enum support probe(uint32_t type, uint64_t config)
{
	int err = evsel_probe(type, config, true, 0, -1);

	if (err == 0)
		return SUPPORT_YES;
	return evsel_err_unsupported(err) ? SUPPORT_NO : SUPPORT_UNKNOWN;
}

static void section(struct lister *l, const char *kind)
{
	l->kind = kind;
	l->section_open = false;
}

/* "a OR b" as ["a", "b"]. */
static void json_aliases(FILE *f, const char *aliases)
{
	char buf[128], *word, *save = NULL;
	const char *sep = "";

	snprintf(buf, sizeof(buf), "%s", aliases);
	fputs(", \"aliases\": [", f);
	for (word = strtok_r(buf, " ", &save); word;
	     word = strtok_r(NULL, " ", &save)) {
		if (strcmp(word, "OR") == 0)
			continue;
		fputs(sep, f);
		json_string(f, word);
		sep = ", ";
	}
	fputc(']', f);
}

static void entry(struct lister *l, const char *title, const char *name,
		  const char *aliases, enum support s, const char *what)
{
	char left[256];

	if (!matches(name, l->filter) &&
	    !(aliases && matches(aliases, l->filter)))
		return;
	if (l->json) {
		fputs(l->first_entry ? "\n  " : ",\n  ", l->f);
		l->first_entry = false;
		fputs("{\"name\": ", l->f);
		json_string(l->f, name);
		fputs(", \"kind\": ", l->f);
		json_string(l->f, l->kind);
		if (aliases)
			json_aliases(l->f, aliases);
		if (s != SUPPORT_UNKNOWN)
			fprintf(l->f, ", \"supported\": %s",
				s == SUPPORT_YES ? "true" : "false");
		if (what) {
			fputs(", \"description\": ", l->f);
			json_string(l->f, what);
		}
		fputc('}', l->f);
		return;
	}
	if (!l->section_open)
		fprintf(l->f, "%s%s:\n", l->first_entry ? "" : "\n", title);
	l->section_open = true;
	l->first_entry = false;
	snprintf(left, sizeof(left), "%s%s%s", name, aliases ? " OR " : "",
		 aliases ? aliases : "");
	if (support_words[s] || what)
		fprintf(l->f, "  %-48s [%s]\n", left,
			what ? what : support_words[s]);
	else
		fprintf(l->f, "  %s\n", left);
}

/* A generic event on a hybrid CPU: pmu/name/ for each core PMU, probed
 * there. */
static void core_entries(struct lister *l, const char *title,
			 const char *name, uint32_t type, uint64_t config)
{
	char full[320];
	int i;

	for (i = 0; i < l->n_cores; i++) {
		snprintf(full, sizeof(full), "%s/%s/", l->cores[i], name);
		entry(l, title, full, NULL,
		      probe(type, config | (uint64_t)l->core_types[i] << 32),
		      NULL);
	}
}

static void list_table(struct lister *l, uint32_t type, const char *kind,
		       const char *title)
{
	const struct event_def *defs;
	char aliases[128];
	size_t n, i, j, len;

	section(l, kind);
	defs = event_table_all(&n);
	for (i = 0; i < n; i++) {
		if (defs[i].type != type || defs[i].alias_of || defs[i].tool)
			continue;
		aliases[0] = '\0';
		for (j = 0, len = 0; j < n; j++)
			if (defs[j].alias_of &&
			    strcmp(defs[j].alias_of, defs[i].name) == 0)
				len += (size_t)snprintf(aliases + len,
							sizeof(aliases) - len,
							"%s%s", len ? " OR " : "",
							defs[j].name);
		if (l->n_cores > 0 && type == PERF_TYPE_HARDWARE)
			core_entries(l, title, defs[i].name, type,
				     defs[i].config);
		else
			entry(l, title, defs[i].name, len ? aliases : NULL,
			      probe(defs[i].type, defs[i].config), NULL);
	}
}

/* perf's tool events, which pstat counts itself. */
static void list_tools(struct lister *l)
{
	static const char *const what[] = {
		[EVENT_TOOL_DURATION] = "tool: wall-clock time counting, ns",
		[EVENT_TOOL_USER] = "tool: the command's user CPU time, ns",
		[EVENT_TOOL_SYSTEM] = "tool: the command's system CPU time, ns",
	};
	const struct event_def *defs;
	size_t n, i;

	section(l, "tool");
	defs = event_table_all(&n);
	for (i = 0; i < n; i++)
		if (defs[i].tool)
			entry(l, "Tool events", defs[i].name, NULL,
			      SUPPORT_UNKNOWN, what[defs[i].tool]);
}

static void list_caches(struct lister *l)
{
	enum support s = SUPPORT_UNKNOWN;
	char name[64];
	uint64_t config;
	size_t i;

	section(l, "cache");
	for (i = 0; event_table_cache_at(i, name, sizeof(name), &config) == 0;
	     i++) {
		if (l->n_cores > 0) {
			core_entries(l, "Hardware cache events", name,
				     PERF_TYPE_HW_CACHE, config);
			continue;
		}
		if (!matches(name, l->filter))
			continue;
		/* Without a core PMU there is no cache event: ask once. */
		if (s != SUPPORT_NO || pmu_have_core_pmu())
			s = probe(PERF_TYPE_HW_CACHE, config);
		entry(l, "Hardware cache events", name, NULL, s, NULL);
	}
}

static void list_pmu(struct lister *l, const char *pmu)
{
	char **aliases, name[512];
	int n, i;

	n = pmu_names(pmu, "events", &aliases);
	if (n == -ENOMEM)
		l->err = n;
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "%s/%s/", pmu, aliases[i]);
		entry(l, "PMU events", name, NULL, SUPPORT_UNKNOWN, NULL);
	}
	if (n > 0)
		pmu_instances_free(aliases, n);
}

static void list_pmus(struct lister *l)
{
	char **pmus;
	int n, i;

	section(l, "pmu");
	n = pmu_all(&pmus);
	if (n == -ENOMEM)
		l->err = n;
	for (i = 0; i < n; i++)
		list_pmu(l, pmus[i]);
	if (n > 0)
		pmu_instances_free(pmus, n);
}

static int add_tracepoint(void *arg, const char *sys, const char *name,
			  uint64_t id)
{
	struct lister *l = arg;
	char full[512];

	snprintf(full, sizeof(full), "%s:%s", sys, name);
	entry(l, "Tracepoints", full, NULL, SUPPORT_UNKNOWN, NULL);
	return 0;
}

static void list_tracepoints(struct lister *l)
{
	int ret;

	section(l, "tracepoint");
	ret = pmu_tracepoint_glob("*", "*", add_tracepoint, l);
	if (ret == -ENOMEM)
		l->err = ret;
	else if (ret < 0 && !l->json && !l->filter)
		fprintf(l->f, "\nTracepoints: %s\n",
			ret == -EACCES ? "tracefs is readable by root only here" :
			ret == -ENODEV ? "no tracefs is mounted" :
			"tracefs cannot be read");
}

static void list_forms(struct lister *l)
{
	static const struct {
		const char *form, *what;
	} forms[] = {
		{ "rNNNN, r0xNNNN", "raw hardware event, hexadecimal config" },
		{ "pmu/term=value,.../", "PMU event by its format terms" },
		{ "mem:ADDR[/LEN][:rwx]", "breakpoint: LEN 1, 2, 4 or 8" },
		{ "system:name", "tracepoint; globs * and ? expand" },
	};
	size_t i;

	section(l, "form");
	for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++)
		entry(l, "Other forms", forms[i].form, NULL, SUPPORT_UNKNOWN,
		      forms[i].what);
}

/* On a hybrid CPU, its core PMUs and their types, for the generic
 * events listed once for each. */
static void hybrid_cores(struct lister *l)
{
	int n = pmu_hybrid_cores(&l->cores), i, kept = 0;

	if (n == -ENOMEM)
		l->err = n;
	for (i = 0; i < n; i++) {
		if (kept < 8 && pmu_type(l->cores[i], &l->core_types[kept]) == 0)
			l->cores[kept++] = l->cores[i];
		else
			free(l->cores[i]);
	}
	l->n_cores = kept;
	if (n > 0 && kept == 0)
		free(l->cores);
}

/* The sections of the list. */
enum {
	LIST_HW = 1 << 0,
	LIST_CACHE = 1 << 1,
	LIST_SW = 1 << 2,
	LIST_TOOL = 1 << 3,
	LIST_PMU = 1 << 4,
	LIST_TRACEPOINT = 1 << 5,
	LIST_FORMS = 1 << 6,
};

/* perf list's classes: words that name sections, not filters. */
static const struct {
	const char *word;
	unsigned int sections;
} classes[] = {
	{ "hw", LIST_HW },
	{ "hardware", LIST_HW },
	{ "cache", LIST_CACHE },
	{ "hwcache", LIST_CACHE },
	{ "sw", LIST_SW | LIST_TOOL },
	{ "software", LIST_SW | LIST_TOOL },
	{ "pmu", LIST_PMU },
	{ "tracepoint", LIST_TRACEPOINT },
};

/* The sections filter asks for; a class word, then, filters nothing. */
static unsigned int sections_of(const char **filter)
{
	size_t i;

	if (!*filter)
		return ~0u;
	for (i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
		if (strcmp(*filter, classes[i].word) == 0) {
			*filter = NULL;
			return classes[i].sections;
		}
	}
	return ~0u & ~(unsigned int)LIST_FORMS;
}

int list_print(FILE *f, const char *filter, bool json)
{
	unsigned int want = sections_of(&filter);
	struct lister l = {
		.f = f,
		.filter = filter,
		.json = json,
		.first_entry = true,
	};

	hybrid_cores(&l);
	if (json)
		fputs("{\"version\": 1, \"events\": [", f);
	if (want & LIST_HW)
		list_table(&l, PERF_TYPE_HARDWARE, "hardware",
			   "Hardware events");
	if (want & LIST_CACHE)
		list_caches(&l);
	if (want & LIST_SW)
		list_table(&l, PERF_TYPE_SOFTWARE, "software",
			   "Software events");
	if (want & LIST_TOOL)
		list_tools(&l);
	if (want & LIST_PMU)
		list_pmus(&l);
	if (want & LIST_TRACEPOINT)
		list_tracepoints(&l);
	if (want & LIST_FORMS)
		list_forms(&l);
	if (json)
		fputs("\n]}\n", f);
	if (l.n_cores > 0)
		pmu_instances_free(l.cores, l.n_cores);
	errno = 0;
	if (fflush(f) != 0 || ferror(f))
		return errno ? -errno : -EIO;
	return l.err;
}

/* --list pfm: libpfm4's names, a section per model, each ready for -e. */
struct pfm_lister {
	struct lister l;
	char filter[256];	/* '.' as ':', as libpfm4 spells it */
	const char *model;	/* of the section being written */
	char title[256];
};

/* A glob may leave out the model: INST_RETIRED* */
static bool pfm_matches(const char *name, const char *filter)
{
	const char *event = strstr(name, "::");

	if (!filter[0])
		return true;
	if (strpbrk(filter, "*?["))
		return fnmatch(filter, name, FNM_CASEFOLD) == 0 ||
		       (event && fnmatch(filter, event + 2, FNM_CASEFOLD) == 0);
	return strcasestr(name, filter) != NULL;
}

static int pfm_entry(void *arg, const char *model, const char *model_desc,
		     const char *event, const char *umask, const char *desc)
{
	struct pfm_lister *pl = arg;
	char name[512];

	snprintf(name, sizeof(name), "%s::%s%s%s", model, event,
		 umask ? ":" : "", umask ? umask : "");
	if (!pfm_matches(name, pl->filter))
		return 0;
	if (!pl->model || strcmp(pl->model, model) != 0) {
		section(&pl->l, "pfm");
		pl->model = model;
		snprintf(pl->title, sizeof(pl->title),
			 "libpfm4 events of %s (%s)", model, model_desc);
	}
	entry(&pl->l, pl->title, name, NULL, SUPPORT_UNKNOWN,
	      desc && desc[0] ? desc : NULL);
	return 0;
}

int list_print_pfm(FILE *f, const char *filter, bool json)
{
	struct pfm_lister pl = {
		.l = { .f = f, .json = json, .first_entry = true },
	};
	char *dot, models[512];
	int ret;

	snprintf(pl.filter, sizeof(pl.filter), "%s", filter ? filter : "");
	while ((dot = strchr(pl.filter, '.')))
		*dot = ':';
	if (json)
		fputs("{\"version\": 1, \"events\": [", f);
	ret = pfm_each_event(pfm_entry, &pl);
	if (json)
		fputs("\n]}\n", f);
	/* An empty list says why, as pstat -V does. */
	else if (ret == 0 && pfm_models(models, sizeof(models), NULL) == 0 &&
		 !models[0])
		fputs("libpfm4 events: libpfm4 detects no PMU model of this CPU\n",
		      f);
	errno = 0;
	if (fflush(f) != 0 || ferror(f))
		return errno ? -errno : -EIO;
	return ret;
}

/* --list metrics and metricgroups: a filter in any case, or a glob. */
static bool matches_any_case(const char *name, const char *filter)
{
	if (!filter)
		return true;
	if (strpbrk(filter, "*?["))
		return fnmatch(filter, name, FNM_CASEFOLD) == 0;
	return strcasestr(name, filter) != NULL;
}

/* The model's words, the head of a listing. */
static void tables_head(FILE *f, const struct pmu_tables *t, bool json,
			const char *what)
{
	if (json) {
		fputs("{\"version\": 1, \"cpuid\": ", f);
		json_string(f, pmu_tables_cpuid(t));
		fputs(", \"model\": ", f);
		json_string(f, pmu_tables_model(t));
		fprintf(f, ", \"%s\": [", what);
		return;
	}
	fprintf(f, "%s of %s (cpuid %s):\n",
		strcmp(what, "metrics") == 0 ? "Metrics" : "Metric groups",
		pmu_tables_model(t), pmu_tables_cpuid(t));
}

/* 0, or -errno as list_print; err: -ENOMEM when the list is not whole. */
static int tables_end(FILE *f, bool json, int err)
{
	if (json)
		fputs("\n]}\n", f);
	errno = 0;
	if (fflush(f) != 0 || ferror(f))
		return errno ? -errno : -EIO;
	return err;
}

/* A ';'-separated list as a JSON array; -ENOMEM into *err. */
static void json_list(FILE *f, const char *key, const char *list, int *err)
{
	const char *sep = "";
	char *word;
	size_t n;

	if (!list)
		return;
	fprintf(f, ", \"%s\": [", key);
	for (; *list; list += n + (list[n] == ';')) {
		n = strcspn(list, ";");
		if (n == 0)
			continue;
		word = strndup(list, n);
		if (!word) {
			*err = -ENOMEM;
			continue;
		}
		fputs(sep, f);
		json_string(f, word);
		free(word);
		sep = ", ";
	}
	fputc(']', f);
}

static void json_field(FILE *f, const char *key, const char *value)
{
	if (!value)
		return;
	fprintf(f, ", \"%s\": ", key);
	json_string(f, value);
}

static void metric_json(FILE *f, const struct pmu_metric *m, int *err)
{
	fputs("{\"name\": ", f);
	json_string(f, m->name);
	json_field(f, "pmu", m->pmu);
	json_list(f, "groups", m->groups, err);
	json_field(f, "description", m->desc);
	json_field(f, "expression", m->expr);
	json_field(f, "threshold", m->threshold);
	json_field(f, "scale_unit", m->scale_unit);
	json_field(f, "constraint", m->constraint);
	json_list(f, "nogroup_groups", m->nogroup_groups, err);
	json_field(f, "default_group", m->default_group);
	fputc('}', f);
}

int list_print_metrics(FILE *f, const struct pmu_tables *t,
		       const char *filter, bool json)
{
	const struct pmu_metric *m;
	char left[320];
	bool first = true;
	size_t i;
	int err = 0;

	tables_head(f, t, json, "metrics");
	for (i = 0; (m = pmu_tables_metric_at(t, i)); i++) {
		if (!matches_any_case(m->name, filter) &&
		    !(filter && pmu_tables_listed(m->groups, filter)))
			continue;
		if (json) {
			fputs(first ? "\n  " : ",\n  ", f);
			metric_json(f, m, &err);
		} else {
			/* A hybrid CPU's: each core PMU's. */
			snprintf(left, sizeof(left), "%s%s%s%s", m->name,
				 strcmp(m->pmu, "cpu") ? " (" : "",
				 strcmp(m->pmu, "cpu") ? m->pmu : "",
				 strcmp(m->pmu, "cpu") ? ")" : "");
			fprintf(f, m->desc ? "  %-48s [%s]\n" : "  %s\n", left,
				m->desc);
		}
		first = false;
	}
	return tables_end(f, json, err);
}

/* The names of a group's metrics, each once (a hybrid CPU has a metric
 * once a core PMU). */
static void group_metrics_json(FILE *f, const struct pmu_tables *t,
			       const char *group)
{
	const struct pmu_metric *m, *last = NULL;
	const char *sep = "";
	size_t i;

	fputs(", \"metrics\": [", f);
	for (i = 0; (m = pmu_tables_metric_at(t, i)); i++) {
		if (!pmu_tables_listed(m->groups, group) ||
		    (last && strcmp(last->name, m->name) == 0))
			continue;
		fputs(sep, f);
		json_string(f, m->name);
		sep = ", ";
		last = m;
	}
	fputc(']', f);
}

int list_print_metricgroups(FILE *f, const struct pmu_tables *t,
			    const char *filter, bool json)
{
	const struct pmu_group *g;
	char what[1024];
	bool first = true;
	size_t i;

	tables_head(f, t, json, "metricgroups");
	for (i = 0; (g = pmu_tables_group_at(t, i)); i++) {
		if (!matches_any_case(g->name, filter))
			continue;
		if (json) {
			fputs(first ? "\n  " : ",\n  ", f);
			fputs("{\"name\": ", f);
			json_string(f, g->name);
			json_field(f, "description", g->desc);
			group_metrics_json(f, t, g->name);
			fputc('}', f);
		} else {
			snprintf(what, sizeof(what), "%s%s%zu metric%s%s",
				 g->desc ? g->desc : "", g->desc ? " (" : "",
				 g->n_metrics, g->n_metrics == 1 ? "" : "s",
				 g->desc ? ")" : "");
			fprintf(f, "  %-48s [%s]\n", g->name, what);
		}
		first = false;
	}
	return tables_end(f, json, 0);
}
