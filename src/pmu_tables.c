/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf's event and metric tables: the model that mapfile.csv gives a
 * CPUID string, its JSON files read with json-c, and each entry made
 * what perf's tools/perf/pmu-events/jevents.py makes of it (Linux 6.12:
 * the reference for every rule here, cited by its names).
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <regex.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/auxv.h>
#include <unistd.h>
#include <json-c/json.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "error.h"
#include "pmu.h"
#include "pmu_tables.h"
#include "topology.h"

/* Larger is no file of perf's (its largest is 0.6 MB). */
#define MAX_FILE (64u << 20)
/* perf's files are a list of flat objects, or one flat object. */
#define MAX_DEPTH 4
#define STRINGS_BLOCK 65536

/* The tables' strings, in blocks freed together. */
struct block {
	struct block *next;
	size_t used, size;
	char data[];
};

struct pmu_tables {
	const char *cpuid, *model;
	struct pmu_event *events;
	size_t n_events, cap_events;
	struct pmu_metric *metrics;
	size_t n_metrics, cap_metrics;
	struct pmu_group *groups;
	size_t n_groups, cap_groups;
	struct pmu_counters *counters;	/* counter.json's, by PMU */
	size_t n_counters, cap_counters;
	struct block *strings;
};

/* What one load reads with, and where its words go. */
struct loader {
	struct pmu_tables *t;
	char arch_dir[PATH_MAX];	/* DIR/arch/ARCH */
	char path[PATH_MAX];		/* the file being read */
	json_object *std;	/* the arch's standard events, once needed */
	json_object *group_descs;	/* metricgroups.json, or NULL */
	unsigned int want;		/* enum pmu_tables_want */
	char unit[128];			/* the Unit last asked for */
	const char *pmu;		/* and its PMU, kept */
	const char *topic;		/* the file's, kept (pmu_metric) */
	char *err;
	size_t len;
};

/* A copy of s's first n bytes among the tables' strings; NULL: ENOMEM. */
static const char *keep_n(struct pmu_tables *t, const char *s, size_t n)
{
	struct block *b = t->strings;
	char *p;

	if (!b || b->size - b->used < n + 1) {
		size_t size = n + 1 > STRINGS_BLOCK ? n + 1 : STRINGS_BLOCK;

		b = malloc(sizeof(*b) + size);
		if (!b)
			return NULL;
		b->next = t->strings;
		b->used = 0;
		b->size = size;
		t->strings = b;
	}
	p = b->data + b->used;
	memcpy(p, s, n);
	p[n] = '\0';
	b->used += n + 1;
	return p;
}

/* s kept (NULL stays NULL); 0 or -ENOMEM. */
static int keep(struct pmu_tables *t, const char **s)
{
	if (!*s)
		return 0;
	*s = keep_n(t, *s, strlen(*s));
	return *s ? 0 : -ENOMEM;
}

void pmu_tables_free(struct pmu_tables *t)
{
	struct block *b, *next;

	if (!t)
		return;
	for (b = t->strings; b; b = next) {
		next = b->next;
		free(b);
	}
	free(t->events);
	free(t->metrics);
	free(t->groups);
	free(t->counters);
	free(t);
}

/*
 * A pstat run from its build tree (src/pstat, not installed) reads the
 * tables make copied beside it, in pmu-events/: found from its own
 * path, so that no build path is written into the binary. NULL where
 * that is not so, and for a pstat with privileges its user lacks.
 */
static const char *build_tree_dir(void)
{
	static char dir[PATH_MAX];
	char exe[PATH_MAX], probe[PATH_MAX + 32], *slash;
	ssize_t n;

	if (dir[0])
		return dir;
	if (getauxval(AT_SECURE) ||
	    access(PSTAT_PMU_EVENTS_DIR, F_OK) == 0 ||
	    (n = readlink("/proc/self/exe", exe, sizeof(exe) - 1)) <= 0)
		return NULL;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash || slash - exe < 4 || strncmp(slash - 4, "/src", 4) != 0)
		return NULL;
	slash[-4] = '\0';
	snprintf(probe, sizeof(probe), "%s/pmu-events/arch", exe);
	if (access(probe, F_OK) != 0)
		return NULL;
	snprintf(dir, sizeof(dir), "%s/pmu-events", exe);
	return dir;
}

const char *pmu_tables_dir(void)
{
	/* Not for a pstat with privileges its user lacks (caps.h). */
	const char *dir = secure_getenv("PSTAT_PMU_EVENTS");

	if (dir && dir[0])
		return dir;
	dir = build_tree_dir();
	return dir ? dir : PSTAT_PMU_EVENTS_DIR;
}

/* "cannot read PATH: why" into l->err: -err. */
static int unreadable(struct loader *l, const char *path, int err)
{
	error_say(l->err, l->len, "cannot read %s: %s", path, strerror(err));
	return -err;
}

/* ---- the CPUID string, as perf's arch/ARCH/util/header.c makes it */

#if defined(__x86_64__) || defined(__i386__)
/* get_cpuid_str: "%s-%u-%X-%X", vendor, family, model, stepping. */
static int x86_cpuid(char *buf, size_t len)
{
	unsigned int a, b, c, d, lvl, family = -1u, model = -1u, step = -1u;
	char vendor[13];

	__cpuid(0, lvl, b, c, d);
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = '\0';
	if (lvl >= 1) {
		__cpuid(1, a, b, c, d);
		family = (a >> 8) & 0xf;
		model = (a >> 4) & 0xf;
		step = a & 0xf;
		if (family == 0xf)
			family += (a >> 20) & 0xff;
		if (family >= 0x6)
			model += ((a >> 16) & 0xf) << 4;
	}
	snprintf(buf, len, "%s-%u-%X-%X", vendor, family, model, step);
	return 0;
}
#endif

int pmu_tables_midr(char *buf, size_t len)
{
	char rel[96];
	int *cpus, n, i, ret = -ENOENT;

	n = topology_online(&cpus);
	if (n < 0)
		return n;
	for (i = 0; i < n && ret < 0; i++) {
		snprintf(rel, sizeof(rel),
			 "devices/system/cpu/cpu%d/regs/identification/midr_el1",
			 cpus[i]);
		ret = pmu_read_sysfs(rel, buf, len);
		if (ret == 0 && !buf[0])
			ret = -ENOENT;
	}
	free(cpus);
	return ret;
}

int pmu_tables_host_cpuid(char *buf, size_t len)
{
#if defined(__x86_64__) || defined(__i386__)
	return x86_cpuid(buf, len);
#elif defined(__aarch64__)
	return pmu_tables_midr(buf, len);
#else
	(void)buf;
	(void)len;
	return -ENOSYS;
#endif
}

/* ---- mapfile.csv: which model a CPUID string names */

/* x86's is_full_cpuid: vendor-family-model-stepping, three dashes. */
static bool full_cpuid(const char *id)
{
	int dashes = 0;

	for (; *id; id++)
		dashes += *id == '-';
	return dashes == 3;
}

/*
 * x86's strcmp_cpuid_str: the row's extended regular expression
 * matches as long a text as the CPUID string, less its stepping when
 * the row names none. (perf compares the lengths only, not where the
 * match starts: so does pstat.)
 */
static bool x86_match(const char *row, const char *id)
{
	bool full_row = full_cpuid(row), full_id = full_cpuid(id);
	regmatch_t m[1];
	regex_t re;
	size_t want;
	bool match;

	if (full_row && !full_id)
		return false;
	if (regcomp(&re, row, REG_EXTENDED) != 0)
		return false;
	match = regexec(&re, id, 1, m, 0) == 0;
	regfree(&re);
	if (!match)
		return false;
	want = !full_row && full_id ? (size_t)(strrchr(id, '-') - id)
				    : strlen(id);
	return (size_t)(m[0].rm_eo - m[0].rm_so) == want;
}

#define MIDR_VARIANT(x) (((x) >> 20) & 0xf)
#define MIDR_REVISION(x) ((x) & 0xf)
#define MIDR_PART_MASK (~((0xfULL << 20) | 0xfULL))

/*
 * arm64's strcmp_cpuid_str: the same part (the MIDR but its variant
 * and revision), and a version (variant, then revision) no older than
 * the row's.
 */
static bool arm64_match(const char *row, const char *id)
{
	unsigned long long r = strtoull(row, NULL, 16);
	unsigned long long i = strtoull(id, NULL, 16);

	if ((r & MIDR_PART_MASK) != (i & MIDR_PART_MASK))
		return false;
	if (MIDR_VARIANT(i) != MIDR_VARIANT(r))
		return MIDR_VARIANT(i) > MIDR_VARIANT(r);
	return MIDR_REVISION(i) >= MIDR_REVISION(r);
}

static const struct arch {
	const char *name;
	bool (*match)(const char *row, const char *id);
} archs[] = {
	{ "x86", x86_match },
	{ "arm64", arm64_match },
};

/* A MIDR is arm64's; anything else is looked up as x86's. */
static const struct arch *arch_of(const char *cpuid)
{
	return &archs[strncmp(cpuid, "0x", 2) == 0];
}

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/*
 * The first row of mapfile.csv ("cpuid,version,directory,type"; the
 * first line names the columns, '#' starts a comment) that matches
 * cpuid, and whose directory is there (jevents.py leaves out a row
 * without tables): its directory into model. 0, or -ENOENT (or -errno
 * of the file) with the words.
 */
static int mapfile_find(struct loader *l, const struct arch *a,
			const char *cpuid, char *model, size_t len)
{
	char line[1024], dir[PATH_MAX], *field[4], *save;
	int n, ret = -ENOENT;
	FILE *f;

	snprintf(l->path, sizeof(l->path), "%s/mapfile.csv", l->arch_dir);
	f = fopen(l->path, "re");
	if (!f) {
		ret = -errno;
		error_say(l->err, l->len,
			  "cannot read %s: %s (a pstat configured --without-pmu-events has no tables; PSTAT_PMU_EVENTS=DIR names a copy)",
			  l->path, strerror(-ret));
		return ret;
	}
	for (bool first = true; ret < 0 && fgets(line, sizeof(line), f);
	     first = false) {
		line[strcspn(line, "\r\n")] = '\0';
		if (first || line[0] == '#')
			continue;
		for (n = 0, save = line; n < 4 && save; n++)
			field[n] = strsep(&save, ",");
		if (n < 3 || !field[2][0] || !a->match(field[0], cpuid))
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", l->arch_dir, field[2]);
		if (is_dir(dir) && (size_t)snprintf(model, len, "%s",
						    field[2]) < len)
			ret = 0;
	}
	(void)fclose(f);
	if (ret < 0)
		error_say(l->err, l->len,
			  "no model in %s matches cpuid '%s': PERF_CPUID=CPUID picks one of its rows (e.g. PERF_CPUID=GenuineIntel-6-55-4)",
			  l->path, cpuid);
	return ret;
}

/* ---- reading a file of perf's JSON */

/* The whole file, NUL-terminated, into *buf, its length into *n: 0,
 * or -errno. */
static int slurp(const char *path, char **buf, size_t *n)
{
	struct stat st;
	size_t size = 0;
	ssize_t r = 1;
	int ret = 0, fd = open(path, O_RDONLY | O_CLOEXEC);

	*buf = NULL;
	*n = 0;
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		ret = -errno;
	else if (st.st_size > MAX_FILE)
		ret = -EFBIG;
	else
		size = (size_t)st.st_size;
	*buf = ret == 0 ? malloc(size + 1) : NULL;
	if (ret == 0 && !*buf)
		ret = -ENOMEM;
	while (ret == 0 && *n < size &&
	       ((r = read(fd, *buf + *n, size - *n)) > 0 ||
		(r < 0 && errno == EINTR)))
		*n += r > 0 ? (size_t)r : 0;
	if (ret == 0 && r < 0)
		ret = -errno;
	close(fd);
	if (ret == 0)
		(*buf)[*n] = '\0';
	return ret;
}

/*
 * l->path parsed as strict JSON (RFC 8259, nothing after it) into
 * *root; or, when the text holds none of the keys in need (a list
 * ending with NULL; NULL: no test), *root NULL and nothing parsed.
 */
static int parse(struct loader *l, json_object **root,
		 const char *const *need)
{
	struct json_tokener *tok;
	enum json_tokener_error e;
	size_t end, n;
	char *buf;
	int ret = slurp(l->path, &buf, &n);

	*root = NULL;
	if (ret < 0) {
		free(buf);
		return ret == -ENOMEM ? ret : unreadable(l, l->path, -ret);
	}
	while (need && *need && !strstr(buf, *need))
		need++;
	tok = need && !*need ? NULL : json_tokener_new_ex(MAX_DEPTH);
	if (!tok) {
		free(buf);
		return need && !*need ? 0 : -ENOMEM;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	*root = json_tokener_parse_ex(tok, buf, (int)n);
	e = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (e == json_tokener_continue)
		e = json_tokener_error_parse_eof;
	free(buf);
	/* Strict json-c refuses what follows the text, but for a NUL. */
	if (e == json_tokener_success && end == (size_t)n && *root)
		return 0;
	json_object_put(*root);
	*root = NULL;
	if (e == json_tokener_success && end == (size_t)n)
		return error_say(l->err, l->len, "%s: null, no table of perf's",
				 l->path);
	return error_say(l->err, l->len, "%s: not JSON at byte %zu: %s",
			 l->path, end, e == json_tokener_success ?
			 "a NUL byte" : json_tokener_error_desc(e));
}

/* ---- an entry: what jevents.py's JsonEvent makes of it */

/* The keys of an entry pstat reads, in strcmp's order (bsearch). */
enum key {
	K_ANY_THREAD, K_ARCH_STD, K_BRIEF, K_CONFIG_CODE, K_COUNTER,
	K_COUNTER_MASK, K_COUNTERS_FIXED, K_COUNTERS_GENERIC, K_DEFAULT_GROUP, K_DEPRECATED, K_EDGE_DETECT, K_EN_ALL_CORES,
	K_EN_ALL_SLICES, K_EVENT_CODE, K_EVENT_NAME, K_EVENTID_CODE,
	K_EXT_SEL, K_FC_MASK, K_FILTER, K_INVERT, K_MSR_INDEX, K_MSR_VALUE,
	K_METRIC_CONSTRAINT, K_METRIC_EXPR, K_METRIC_GROUP, K_METRIC_NAME,
	K_METRIC_THRESHOLD, K_METRICGROUP_NO_GROUP, K_NODE_TYPE, K_PER_PKG,
	K_PORT_MASK, K_RD_WR_MASK, K_SAMPLE_AFTER, K_SCALE_UNIT,
	K_SLICE_ID, K_THREAD_MASK, K_UMASK, K_UNIT, N_KEYS
};

/*
 * from_std: what an entry without the key takes from its ArchStdEvent.
 * Not the terms' keys (the standard event's terms are taken whole), nor
 * Unit (JsonEvent's pmu is set without a Unit too).
 */
static const struct key_def {
	const char *name;
	bool from_std;
} keys[N_KEYS] = {
	[K_ANY_THREAD] = { "AnyThread" },
	[K_ARCH_STD] = { "ArchStdEvent" },
	[K_BRIEF] = { "BriefDescription", true },
	[K_CONFIG_CODE] = { "ConfigCode" },
	[K_COUNTER] = { "Counter", true },
	[K_COUNTER_MASK] = { "CounterMask" },
	[K_COUNTERS_FIXED] = { "CountersNumFixed" },
	[K_COUNTERS_GENERIC] = { "CountersNumGeneric" },
	[K_DEFAULT_GROUP] = { "DefaultMetricgroupName", true },
	[K_DEPRECATED] = { "Deprecated", true },
	[K_EDGE_DETECT] = { "EdgeDetect" },
	[K_EN_ALL_CORES] = { "EnAllCores" },
	[K_EN_ALL_SLICES] = { "EnAllSlices" },
	[K_EVENT_CODE] = { "EventCode" },
	[K_EVENT_NAME] = { "EventName", true },
	[K_EVENTID_CODE] = { "EventidCode" },
	[K_EXT_SEL] = { "ExtSel" },
	[K_FC_MASK] = { "FCMask" },
	[K_FILTER] = { "Filter" },
	[K_INVERT] = { "Invert" },
	[K_MSR_INDEX] = { "MSRIndex" },
	[K_MSR_VALUE] = { "MSRValue" },
	[K_METRIC_CONSTRAINT] = { "MetricConstraint", true },
	[K_METRIC_EXPR] = { "MetricExpr", true },
	[K_METRIC_GROUP] = { "MetricGroup", true },
	[K_METRIC_NAME] = { "MetricName", true },
	[K_METRIC_THRESHOLD] = { "MetricThreshold", true },
	[K_METRICGROUP_NO_GROUP] = { "MetricgroupNoGroup", true },
	[K_NODE_TYPE] = { "NodeType" },
	[K_PER_PKG] = { "PerPkg", true },
	[K_PORT_MASK] = { "PortMask" },
	[K_RD_WR_MASK] = { "RdWrMask" },
	[K_SAMPLE_AFTER] = { "SampleAfterValue" },
	[K_SCALE_UNIT] = { "ScaleUnit", true },
	[K_SLICE_ID] = { "SliceId" },
	[K_THREAD_MASK] = { "ThreadMask" },
	[K_UMASK] = { "UMask" },
	[K_UNIT] = { "Unit" },
};

/* The terms jevents.py adds when the key's value is not zero, in its
 * order. */
static const struct {
	enum key key;
	const char *term;
} event_fields[] = {
	{ K_ANY_THREAD, "any" },
	{ K_PORT_MASK, "ch_mask" },
	{ K_COUNTER_MASK, "cmask" },
	{ K_EDGE_DETECT, "edge" },
	{ K_FC_MASK, "fc_mask" },
	{ K_INVERT, "inv" },
	{ K_SAMPLE_AFTER, "period" },
	{ K_UMASK, "umask" },
	{ K_NODE_TYPE, "type" },
	{ K_RD_WR_MASK, "rdwrmask" },
	{ K_EN_ALL_CORES, "enallcores" },
	{ K_EN_ALL_SLICES, "enallslices" },
	{ K_SLICE_ID, "sliceid" },
	{ K_THREAD_MASK, "threadmask" },
};

/* lookup_msr: the term an MSRIndex (its first number) sets. */
static const struct {
	unsigned long long msr;
	const char *term;
} msr_terms[] = {
	{ 0x3f6, "ldlat" },
	{ 0x1a6, "offcore_rsp" },
	{ 0x1a7, "offcore_rsp" },
	{ 0x3f7, "frontend" },
};

/* real_event: the names perf gives fixed terms, whatever the JSON. */
static const struct {
	const char *name, *terms;
} fixed_events[] = {
	{ "inst_retired.any", "event=0xc0,period=2000003" },
	{ "inst_retired.any_p", "event=0xc0,period=2000003" },
	{ "cpu_clk_unhalted.ref", "event=0x0,umask=0x03,period=2000003" },
	{ "cpu_clk_unhalted.thread", "event=0x3c,period=2000003" },
	{ "cpu_clk_unhalted.core", "event=0x3c,period=2000003" },
	{ "cpu_clk_unhalted.thread_any", "event=0x3c,any=1,period=2000003" },
};

/* An entry's values (absent, null or "": NULL, as perf takes them),
 * valid while its JSON is, and its terms. */
struct entry {
	const char *v[N_KEYS];
	char terms[512];
	size_t n;		/* the length of terms */
};

static int key_cmp(const void *name, const void *def)
{
	return strcmp(name, ((const struct key_def *)def)->name);
}

/* Text appended to the terms; -EINVAL when it does not fit. */
static int put(struct loader *l, struct entry *e, size_t idx, const char *s)
{
	size_t len = strlen(s);

	if (e->n + len >= sizeof(e->terms))
		return error_say(l->err, l->len,
				 "%s: entry %zu: its terms are too long",
				 l->path, idx);
	memcpy(e->terms + e->n, s, len + 1);
	e->n += len;
	return 0;
}

/* A number as perf writes it: jevents.py's llx (small ones in decimal,
 * others as %#llx) when hex, else in decimal. Into buf, from its end. */
static const char *numeral(char buf[24], unsigned long long v, bool hex)
{
	unsigned int base = hex && v >= 10 ? 16 : 10;
	char *p = buf + 23;

	*p = '\0';
	do {
		*--p = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	if (base == 16) {
		*--p = 'x';
		*--p = '0';
	}
	return p;
}

/* The value of key k as Python's int(s, base) reads it, up to its first
 * ',' (EventCode and MSRIndex may list more); base 0 takes 0x. */
static int number(struct loader *l, const struct entry *e, size_t idx,
		  enum key k, int base, unsigned long long *v)
{
	const char *s = e->v[k];
	size_t n = strcspn(s, ",");
	char first[32], *end;

	if (n >= sizeof(first))
		n = sizeof(first) - 1;
	memcpy(first, s, n);
	first[n] = '\0';
	errno = 0;
	*v = strtoull(first, &end, base);
	while (isspace((unsigned char)*end))
		end++;
	if (errno || end == first || *end || strchr(first, '-'))
		return error_say(l->err, l->len,
				 "%s: entry %zu: %s '%s' is not a number",
				 l->path, idx, keys[k].name, s);
	return 0;
}

/* event=, config= or eventid= first (EventCode | ExtSel << 8). */
static int first_term(struct loader *l, struct entry *e, size_t idx)
{
	unsigned long long v = 0, ext = 0;
	enum key k = e->v[K_CONFIG_CODE] ? K_CONFIG_CODE :
		     e->v[K_EVENTID_CODE] ? K_EVENTID_CODE : K_EVENT_CODE;
	char num[24];
	int ret = 0;

	if (e->v[k])
		ret = number(l, e, idx, k, 0, &v);
	if (ret == 0 && k == K_EVENT_CODE && e->v[K_EXT_SEL])
		ret = number(l, e, idx, K_EXT_SEL, 10, &ext);
	if (ret < 0)
		return ret;
	e->n = 0;
	ret = put(l, e, idx, k == K_CONFIG_CODE ? "config=" :
			     k == K_EVENTID_CODE ? "eventid=" : "event=");
	return ret < 0 ? ret : put(l, e, idx, numeral(num, v | ext << 8, true));
}

/* The fields after it: zeros left out; 0x numbers as llx, others in
 * decimal. */
static int field_terms(struct loader *l, struct entry *e, size_t idx)
{
	unsigned long long v;
	enum key k;
	char num[24];
	size_t i;
	bool hex;
	int ret = 0;

	for (i = 0; i < sizeof(event_fields) / sizeof(*event_fields) &&
		    ret == 0; i++) {
		k = event_fields[i].key;
		if (!e->v[k])
			continue;
		hex = strncmp(e->v[k], "0x", 2) == 0;
		ret = number(l, e, idx, k, hex ? 16 : 10, &v);
		if (ret < 0 || v == 0)
			continue;
		ret = put(l, e, idx, ",");
		if (ret == 0)
			ret = put(l, e, idx, event_fields[i].term);
		if (ret == 0)
			ret = put(l, e, idx, "=");
		if (ret == 0)
			ret = put(l, e, idx, numeral(num, v, hex));
	}
	return ret;
}

/*
 * Filter as it is, then the term MSRIndex names with MSRValue as it is.
 * (jevents.py writes "ldlat=None" for the five events of Nehalem and
 * Westmere that have an MSRIndex and no MSRValue: pstat leaves the term
 * out.)
 */
static int msr_terms_of(struct loader *l, struct entry *e, size_t idx)
{
	unsigned long long msr;
	size_t i;
	int ret = 0;

	if (e->v[K_FILTER]) {
		ret = put(l, e, idx, ",");
		if (ret == 0)
			ret = put(l, e, idx, e->v[K_FILTER]);
	}
	if (ret < 0 || !e->v[K_MSR_INDEX] || !e->v[K_MSR_VALUE])
		return ret;
	ret = number(l, e, idx, K_MSR_INDEX, 0, &msr);
	for (i = 0; ret == 0 && i < sizeof(msr_terms) / sizeof(*msr_terms);
	     i++) {
		if (msr_terms[i].msr != msr)
			continue;
		ret = put(l, e, idx, ",");
		if (ret == 0)
			ret = put(l, e, idx, msr_terms[i].term);
		if (ret == 0)
			ret = put(l, e, idx, "=");
		return ret < 0 ? ret : put(l, e, idx, e->v[K_MSR_VALUE]);
	}
	if (ret < 0)
		return ret;
	return error_say(l->err, l->len,
			 "%s: entry %zu: MSRIndex %#llx is none perf knows",
			 l->path, idx, msr);
}

/* o's values and terms into e, as written (no ArchStdEvent followed):
 * one pass over the keys it has. */
static int entry_read(struct loader *l, json_object *o, size_t idx,
		      struct entry *e)
{
	struct json_object_iterator it, end;
	const struct key_def *def;
	json_object *val;
	const char *key;
	int ret;

	memset(e->v, 0, sizeof(e->v));
	if (!json_object_is_type(o, json_type_object))
		return error_say(l->err, l->len,
				 "%s: entry %zu is not an object",
				 l->path, idx);
	end = json_object_iter_end(o);
	for (it = json_object_iter_begin(o); !json_object_iter_equal(&it, &end);
	     json_object_iter_next(&it)) {
		key = json_object_iter_peek_name(&it);
		val = json_object_iter_peek_value(&it);
		def = bsearch(key, keys, N_KEYS, sizeof(*keys), key_cmp);
		if (!def || json_object_is_type(val, json_type_null))
			continue;
		if (!json_object_is_type(val, json_type_string))
			return error_say(l->err, l->len,
					 "%s: entry %zu: %s is not a string",
					 l->path, idx, key);
		e->v[def - keys] = json_object_get_string(val);
		if (!e->v[def - keys][0])
			e->v[def - keys] = NULL;
	}
	ret = first_term(l, e, idx);
	if (ret == 0)
		ret = field_terms(l, e, idx);
	return ret < 0 ? ret : msr_terms_of(l, e, idx);
}

static int is_json(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 5 &&
	       strcmp(d->d_name + n - 5, ".json") == 0;
}

/* The entries of l->path added to the standard ones. */
static int std_add(struct loader *l)
{
	json_object *root;
	size_t i, n;
	int ret = parse(l, &root, NULL);

	if (ret < 0)
		return ret;
	if (!json_object_is_type(root, json_type_array))
		ret = error_say(l->err, l->len,
				"%s: not a list of perf's events and metrics",
				l->path);
	n = ret == 0 ? json_object_array_length(root) : 0;
	for (i = 0; i < n && ret == 0; i++)
		if (json_object_array_add(l->std, json_object_get(
			json_object_array_get_idx(root, i))) < 0)
			ret = -ENOMEM;
	json_object_put(root);
	return ret;
}

/*
 * The .json files beside mapfile.csv, their entries in one array: the
 * architecture's standard events (preprocess_arch_std_files). l->path
 * is the model's file again after.
 */
static int std_load(struct loader *l)
{
	char model_file[PATH_MAX];
	struct dirent **d;
	int n, i, ret = 0;

	l->std = json_object_new_array();
	if (!l->std)
		return -ENOMEM;
	n = scandir(l->arch_dir, &d, is_json, alphasort);
	if (n < 0)
		return unreadable(l, l->arch_dir, errno);
	memcpy(model_file, l->path, sizeof(model_file));
	for (i = 0; i < n; i++) {
		snprintf(l->path, sizeof(l->path), "%s/%s", l->arch_dir,
			 d[i]->d_name);
		if (ret == 0)
			ret = std_add(l);
		free(d[i]);
	}
	free(d);
	if (ret == 0)
		memcpy(l->path, model_file, sizeof(model_file));
	return ret;
}

/* Whether o's key is name, in any case. */
static bool named(json_object *o, const char *key, const char *name)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) &&
	       json_object_is_type(v, json_type_string) &&
	       strcasecmp(json_object_get_string(v), name) == 0;
}

/* The standard event or metric of that name, in any case; the last of
 * its name, as jevents.py's dictionary keeps. */
static json_object *std_find(struct loader *l, const char *name)
{
	size_t i = json_object_array_length(l->std);
	json_object *o;

	while (i-- > 0) {
		o = json_object_array_get_idx(l->std, i);
		if (named(o, "EventName", name) || named(o, "MetricName", name))
			return o;
	}
	return NULL;
}

/*
 * An ArchStdEvent's: its terms, and what the entry leaves out of the
 * rest. The standard entry's words are valid while l->std is.
 */
static int entry_std(struct loader *l, size_t idx, struct entry *e)
{
	struct entry s;
	json_object *o;
	size_t k;
	int ret;

	if (!l->std && (ret = std_load(l)) < 0)
		return ret;
	o = std_find(l, e->v[K_ARCH_STD]);
	if (!o)
		return error_say(l->err, l->len,
			   "%s: entry %zu: ArchStdEvent '%s' is in no .json file of %s",
			   l->path, idx, e->v[K_ARCH_STD], l->arch_dir);
	ret = entry_read(l, o, idx, &s);
	if (ret < 0)
		return ret;
	for (k = 0; k < N_KEYS; k++)
		if (keys[k].from_std && !e->v[k])
			e->v[k] = s.v[k];
	memcpy(e->terms, s.terms, sizeof(e->terms));
	e->n = s.n;
	return 0;
}

/* unit_to_pmu: a Unit's PMU (default_core, "cpu", for none). */
static const char *unit_pmu(const char *unit, char *buf, size_t len)
{
	static const struct {
		const char *unit, *pmu;
	} units[] = {
		{ "CBO", "uncore_cbox" }, { "QPI LL", "uncore_qpi" },
		{ "SBO", "uncore_sbox" }, { "iMPH-U", "uncore_arb" },
		{ "CPU-M-CF", "cpum_cf" }, { "CPU-M-SF", "cpum_sf" },
		{ "PAI-CRYPTO", "pai_crypto" }, { "PAI-EXT", "pai_ext" },
		{ "UPI LL", "uncore_upi" },
		{ "hisi_sicl,cpa", "hisi_sicl,cpa" },
		{ "hisi_sccl,ddrc", "hisi_sccl,ddrc" },
		{ "hisi_sccl,hha", "hisi_sccl,hha" },
		{ "hisi_sccl,l3c", "hisi_sccl,l3c" },
		{ "imx8_ddr", "imx8_ddr" }, { "imx9_ddr", "imx9_ddr" },
		{ "L3PMC", "amd_l3" }, { "DFPMC", "amd_df" },
		{ "UMCPMC", "amd_umc" }, { "cpu_core", "cpu_core" },
		{ "cpu_atom", "cpu_atom" }, { "ali_drw", "ali_drw" },
		{ "arm_cmn", "arm_cmn" },
	};
	size_t i;

	if (!unit)
		return "cpu";
	for (i = 0; i < sizeof(units) / sizeof(*units); i++)
		if (strcmp(units[i].unit, unit) == 0)
			return units[i].pmu;
	snprintf(buf, len, "uncore_%s", unit);
	for (char *p = buf; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return buf;
}

/* The PMU of a Unit, kept; the last one asked for again, as entries
 * of one Unit come together. NULL: ENOMEM. */
static const char *pmu_of(struct loader *l, const char *unit)
{
	char buf[128];

	if (l->pmu && ((!unit && !l->unit[0]) ||
		       (unit && strcmp(unit, l->unit) == 0)))
		return l->pmu;
	snprintf(l->unit, sizeof(l->unit), "%s", unit ? unit : "");
	l->pmu = unit_pmu(unit, buf, sizeof(buf));
	l->pmu = keep_n(l->t, l->pmu, strlen(l->pmu));
	return l->pmu;
}

/* fixdesc: perf shows a description without its final full stop. */
static const char *desc_of(struct pmu_tables *t, const char *brief)
{
	static const char *const stops[] = { ".  ", ". ", "." };
	size_t n, i, k;

	if (!brief)
		return NULL;
	n = strlen(brief);
	for (i = 0; i < sizeof(stops) / sizeof(*stops); i++) {
		k = strlen(stops[i]);
		if (n >= k && memcmp(brief + n - k, stops[i], k) == 0)
			n -= k;
	}
	return keep_n(t, brief, n);
}

/* array with room for one more than n; NULL: ENOMEM, array kept. */
static void *grow(void *array, size_t *cap, size_t n, size_t size)
{
	void *p;

	if (n < *cap)
		return array;
	p = reallocarray(array, *cap ? *cap * 2 : 256, size);
	if (p)
		*cap = *cap ? *cap * 2 : 256;
	return p;
}

/* The flags perf reads as one character: "1" true. */
static bool flag(const char *s)
{
	return s && s[0] != '0';
}

static int add_event(struct loader *l, const struct entry *e)
{
	struct pmu_tables *t = l->t;
	struct pmu_event ev = {
		.name = e->v[K_EVENT_NAME],
		.terms = e->terms,
		.scale_unit = e->v[K_SCALE_UNIT],
		.per_pkg = flag(e->v[K_PER_PKG]),
		.deprecated = flag(e->v[K_DEPRECATED]),
		.counter = e->v[K_COUNTER],
	}, *events;
	size_t i;

	for (i = 0; i < sizeof(fixed_events) / sizeof(*fixed_events); i++)
		if (strcasecmp(ev.name, fixed_events[i].name) == 0)
			ev.terms = fixed_events[i].terms;
	ev.pmu = pmu_of(l, e->v[K_UNIT]);
	ev.desc = desc_of(t, e->v[K_BRIEF]);
	if (!ev.pmu || (e->v[K_BRIEF] && !ev.desc) || keep(t, &ev.name) < 0 ||
	    keep(t, &ev.terms) < 0 || keep(t, &ev.scale_unit) < 0 ||
	    keep(t, &ev.counter) < 0)
		return -ENOMEM;
	events = grow(t->events, &t->cap_events, t->n_events, sizeof(ev));
	if (!events)
		return -ENOMEM;
	t->events = events;
	t->events[t->n_events++] = ev;
	return 0;
}

/* jevents.py's topic of the file being read, kept once a file. */
static const char *topic_of(struct loader *l)
{
	const char *name = strrchr(l->path, '/');
	size_t n, i;
	char *p;

	if (l->topic)
		return l->topic;
	name = name ? name + 1 : l->path;
	n = strlen(name);
	if (n >= 12 && strcmp(name + n - 12, "metrics.json") == 0) {
		name = "metrics";
		n = 7;
	} else if (n >= 5 && strcmp(name + n - 5, ".json") == 0) {
		n -= 5;
	}
	l->topic = keep_n(l->t, name, n);
	p = (char *)l->topic;
	for (i = 0; p && i < n; i++)
		if (p[i] == '-')
			p[i] = ' ';
	return l->topic;
}

static int add_metric(struct loader *l, const struct entry *e)
{
	struct pmu_tables *t = l->t;
	struct pmu_metric m = {
		.name = e->v[K_METRIC_NAME],
		.expr = e->v[K_METRIC_EXPR],
		.groups = e->v[K_METRIC_GROUP],
		.threshold = e->v[K_METRIC_THRESHOLD],
		.scale_unit = e->v[K_SCALE_UNIT],
		.constraint = e->v[K_METRIC_CONSTRAINT],
		.nogroup_groups = e->v[K_METRICGROUP_NO_GROUP],
		.default_group = e->v[K_DEFAULT_GROUP],
	}, *metrics;
	const char **kept[] = { &m.name, &m.expr, &m.groups, &m.threshold,
				&m.scale_unit, &m.constraint,
				&m.nogroup_groups, &m.default_group };
	size_t i;

	m.pmu = pmu_of(l, e->v[K_UNIT]);
	m.desc = desc_of(t, e->v[K_BRIEF]);
	m.topic = topic_of(l);
	if (!m.pmu || (e->v[K_BRIEF] && !m.desc) || !m.topic)
		return -ENOMEM;
	for (i = 0; i < sizeof(kept) / sizeof(*kept); i++)
		if (keep(t, kept[i]) < 0)
			return -ENOMEM;
	metrics = grow(t->metrics, &t->cap_metrics, t->n_metrics, sizeof(m));
	if (!metrics)
		return -ENOMEM;
	t->metrics = metrics;
	t->metrics[t->n_metrics++] = m;
	return 0;
}

/* A count of counter.json's ("4"): -1 when it is not one. */
static int count_of(const char *s)
{
	char *end;
	long n;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	n = strtol(s, &end, 10);
	return *end || n > 1024 ? -1 : (int)n;
}

/* counter.json's entry: how many counters the Unit's PMU has. */
static int add_counters(struct loader *l, const struct entry *e, size_t idx)
{
	struct pmu_tables *t = l->t;
	const char *unit = e->v[K_UNIT];
	/* "core" is the core PMU's there, as no event's Unit is. */
	struct pmu_counters c = {
		.pmu = !unit || strcmp(unit, "core") == 0 ? "cpu"
							  : pmu_of(l, unit),
	}, *grown;
	int generic = count_of(e->v[K_COUNTERS_GENERIC]);
	int fixed = count_of(e->v[K_COUNTERS_FIXED]);

	if (generic < 0 || (e->v[K_COUNTERS_FIXED] && fixed < 0))
		return error_say(l->err, l->len,
				 "%s: entry %zu: CountersNumGeneric and CountersNumFixed are not counts",
				 l->path, idx);
	if (!c.pmu)
		return -ENOMEM;
	c.generic = (unsigned int)generic;
	c.fixed = fixed < 0 ? 0 : (unsigned int)fixed;
	grown = grow(t->counters, &t->cap_counters, t->n_counters, sizeof(c));
	if (!grown)
		return -ENOMEM;
	t->counters = grown;
	t->counters[t->n_counters++] = c;
	return 0;
}

/* Each entry of a file: an event when it has a name, a metric when it
 * has a name and an expression (perf lists no other), or both; those
 * the caller wants. */
static int load_entries(struct loader *l, json_object *root)
{
	struct entry e;
	size_t i, n;
	int ret = 0;

	if (!json_object_is_type(root, json_type_array))
		return error_say(l->err, l->len,
				 "%s: not a list of perf's events and metrics",
				 l->path);
	n = json_object_array_length(root);
	for (i = 0; i < n && ret == 0; i++) {
		ret = entry_read(l, json_object_array_get_idx(root, i), i, &e);
		if (ret == 0 && e.v[K_ARCH_STD])
			ret = entry_std(l, i, &e);
		if (ret == 0 && e.v[K_EVENT_NAME] &&
		    (l->want & PMU_TABLES_EVENTS))
			ret = add_event(l, &e);
		if (ret == 0 && e.v[K_METRIC_NAME] && e.v[K_METRIC_EXPR] &&
		    (l->want & PMU_TABLES_METRICS))
			ret = add_metric(l, &e);
		if (ret == 0 && e.v[K_COUNTERS_GENERIC] && !e.v[K_EVENT_NAME] &&
		    (l->want & PMU_TABLES_EVENTS))
			ret = add_counters(l, &e, i);
	}
	return ret;
}

/* metricgroups.json: each group's description, by its name. */
static int load_group_descs(struct loader *l, json_object *root)
{
	struct json_object_iterator it, end;

	if (!json_object_is_type(root, json_type_object))
		return error_say(l->err, l->len,
				 "%s: not an object of group descriptions",
				 l->path);
	end = json_object_iter_end(root);
	for (it = json_object_iter_begin(root);
	     !json_object_iter_equal(&it, &end); json_object_iter_next(&it))
		if (!json_object_is_type(json_object_iter_peek_value(&it),
					 json_type_string))
			return error_say(l->err, l->len,
					 "%s: %s's description is not a string",
					 l->path,
					 json_object_iter_peek_name(&it));
	json_object_put(l->group_descs);
	l->group_descs = json_object_get(root);
	return 0;
}

/*
 * One file of the model: its entries, or its groups' descriptions. A
 * file that names no key of what is wanted is not parsed: most of a
 * model's bytes are events, which --list metrics does not need.
 */
static int load_file(struct loader *l, const char *dir, const char *name)
{
	static const char *const metric_keys[] = {
		"\"MetricName\"", "\"MetricExpr\"", "\"ArchStdEvent\"", NULL
	};
	static const char *const event_keys[] = {
		"\"EventName\"", "\"ArchStdEvent\"", "\"CountersNumGeneric\"",
		NULL
	};
	bool groups = strcmp(name, "metricgroups.json") == 0;
	json_object *root;
	int ret;

	if (groups && !(l->want & PMU_TABLES_METRICS))
		return 0;
	snprintf(l->path, sizeof(l->path), "%s/%s", dir, name);
	l->topic = NULL;
	ret = parse(l, &root, groups || l->want == (PMU_TABLES_EVENTS |
						    PMU_TABLES_METRICS) ? NULL :
			      l->want & PMU_TABLES_METRICS ? metric_keys
							   : event_keys);
	if (ret == 0 && groups)
		ret = load_group_descs(l, root);
	else if (ret == 0 && root)
		ret = load_entries(l, root);
	json_object_put(root);
	return ret;
}

/* Every .json file of the model's directory, in the order of names. */
static int load_model(struct loader *l, const char *model)
{
	char dir[PATH_MAX];
	struct dirent **d;
	int n, i, ret = 0;

	snprintf(dir, sizeof(dir), "%s/%s", l->arch_dir, model);
	n = scandir(dir, &d, is_json, alphasort);
	if (n < 0)
		return unreadable(l, dir, errno);
	for (i = 0; i < n; i++) {
		if (ret == 0)
			ret = load_file(l, dir, d[i]->d_name);
		free(d[i]);
	}
	free(d);
	return ret;
}

/* ---- sorting, groups and lookups */

/* Names in any case, then as written, so that the order is whole. */
static int name_cmp(const char *a, const char *b)
{
	int c = strcasecmp(a, b);

	return c ? c : strcmp(a, b);
}

static int str_cmp(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int event_cmp(const void *pa, const void *pb)
{
	const struct pmu_event *a = pa, *b = pb;
	int c = name_cmp(a->name, b->name);

	c = c ? c : strcmp(a->pmu, b->pmu);
	return c ? c : strcmp(a->terms, b->terms);
}

static int metric_cmp(const void *pa, const void *pb)
{
	const struct pmu_metric *a = pa, *b = pb;
	int c = name_cmp(a->name, b->name);

	c = c ? c : strcmp(a->pmu, b->pmu);
	return c ? c : str_cmp(a->expr, b->expr);
}

static int group_cmp(const void *pa, const void *pb)
{
	const struct pmu_group *a = pa, *b = pb;

	return name_cmp(a->name, b->name);
}

/* A group of a metric counted: a new one when the name is new. */
static int count_group(struct loader *l, const char *name, size_t len)
{
	struct pmu_tables *t = l->t;
	struct pmu_group g = { 0 }, *groups;
	json_object *desc;
	size_t i;

	for (i = 0; i < t->n_groups; i++) {
		if (strncmp(t->groups[i].name, name, len) == 0 &&
		    !t->groups[i].name[len]) {
			t->groups[i].n_metrics++;
			return 0;
		}
	}
	g.name = keep_n(t, name, len);
	groups = g.name ? grow(t->groups, &t->cap_groups, t->n_groups,
			       sizeof(g)) : NULL;
	if (!groups)
		return -ENOMEM;
	t->groups = groups;
	if (l->group_descs &&
	    json_object_object_get_ex(l->group_descs, g.name, &desc)) {
		g.desc = json_object_get_string(desc);
		if (keep(t, &g.desc) < 0)
			return -ENOMEM;
	}
	g.n_metrics = 1;
	t->groups[t->n_groups++] = g;
	return 0;
}

static int make_groups(struct loader *l)
{
	struct pmu_tables *t = l->t;
	const char *p;
	size_t i, n;
	int ret = 0;

	for (i = 0; i < t->n_metrics && ret == 0; i++) {
		for (p = t->metrics[i].groups; p && *p && ret == 0; p += n) {
			n = strcspn(p, ";");
			if (n > 0)
				ret = count_group(l, p, n);
			n += p[n] == ';';
		}
	}
	if (t->n_groups > 0)
		qsort(t->groups, t->n_groups, sizeof(*t->groups), group_cmp);
	return ret;
}

int pmu_tables_load_cpuid(struct pmu_tables **tp, const char *cpuid,
			  unsigned int want, char *err, size_t len)
{
	const struct arch *a = arch_of(cpuid);
	struct loader l = { .want = want };
	char model[256];
	int ret;

	*tp = NULL;
	l.err = err;
	l.len = len;
	snprintf(l.arch_dir, sizeof(l.arch_dir), "%s/arch/%s",
		 pmu_tables_dir(), a->name);
	ret = mapfile_find(&l, a, cpuid, model, sizeof(model));
	if (ret < 0)
		return ret;
	l.t = calloc(1, sizeof(*l.t));
	if (!l.t)
		return -ENOMEM;
	l.t->cpuid = keep_n(l.t, cpuid, strlen(cpuid));
	l.t->model = keep_n(l.t, model, strlen(model));
	ret = l.t->cpuid && l.t->model ? load_model(&l, model) : -ENOMEM;
	if (ret == 0)
		ret = make_groups(&l);
	json_object_put(l.std);
	json_object_put(l.group_descs);
	if (ret < 0) {
		pmu_tables_free(l.t);
		return ret;
	}
	if (l.t->n_events > 0)
		qsort(l.t->events, l.t->n_events, sizeof(*l.t->events),
		      event_cmp);
	if (l.t->n_metrics > 0)
		qsort(l.t->metrics, l.t->n_metrics, sizeof(*l.t->metrics),
		      metric_cmp);
	*tp = l.t;
	return 0;
}

int pmu_tables_load(struct pmu_tables **t, unsigned int want, char *err,
		    size_t len)
{
	/* As perf's perf_pmu__getcpuid, but not for a privileged pstat. */
	const char *cpuid = secure_getenv("PERF_CPUID");
	char host[128];
	int ret;

	if (cpuid && cpuid[0])
		return pmu_tables_load_cpuid(t, cpuid, want, err, len);
	*t = NULL;
	ret = pmu_tables_host_cpuid(host, sizeof(host));
	if (ret == -ENOMEM)
		return ret;
	if (ret == -ENOSYS) {
		error_say(err, len,
			  "pstat reads no CPUID string on this architecture: PERF_CPUID=CPUID picks a model of %s",
			  pmu_tables_dir());
		return -ENOENT;
	}
	if (ret < 0) {
		error_say(err, len,
			  "cannot read this CPU's MIDR under %s: %s; PERF_CPUID=CPUID picks a model of %s",
			  pmu_sysfs_root(), strerror(-ret), pmu_tables_dir());
		return -ENOENT;
	}
	return pmu_tables_load_cpuid(t, host, want, err, len);
}

const char *pmu_tables_cpuid(const struct pmu_tables *t)
{
	return t->cpuid;
}

const char *pmu_tables_model(const struct pmu_tables *t)
{
	return t->model;
}

size_t pmu_tables_n_metrics(const struct pmu_tables *t)
{
	return t->n_metrics;
}

const struct pmu_metric *pmu_tables_metric_at(const struct pmu_tables *t,
					      size_t i)
{
	return i < t->n_metrics ? &t->metrics[i] : NULL;
}

size_t pmu_tables_n_events(const struct pmu_tables *t)
{
	return t->n_events;
}

const struct pmu_event *pmu_tables_event_at(const struct pmu_tables *t,
					    size_t i)
{
	return i < t->n_events ? &t->events[i] : NULL;
}

size_t pmu_tables_n_groups(const struct pmu_tables *t)
{
	return t->n_groups;
}

const struct pmu_group *pmu_tables_group_at(const struct pmu_tables *t,
					    size_t i)
{
	return i < t->n_groups ? &t->groups[i] : NULL;
}

_Static_assert(offsetof(struct pmu_metric, name) == 0 &&
	       offsetof(struct pmu_event, name) == 0 &&
	       offsetof(struct pmu_group, name) == 0,
	       "find() takes the name from the start of an element");

/*
 * In an array sorted by name in any case (the name its first member),
 * the first element named name, and how many are: the count, *first
 * its index.
 */
static size_t find(const void *array, size_t n, size_t size,
		   const char *name, size_t *first)
{
	size_t lo = 0, hi = n, end;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *s = *(const char *const *)((const char *)array +
						       mid * size);

		if (strcasecmp(s, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo; end < n; end++)
		if (strcasecmp(*(const char *const *)((const char *)array +
						      end * size), name) != 0)
			break;
	*first = lo;
	return end - lo;
}

const struct pmu_metric *pmu_tables_metric(const struct pmu_tables *t,
					   const char *name, size_t *n)
{
	size_t first, count = find(t->metrics, t->n_metrics,
				   sizeof(*t->metrics), name, &first);

	if (n)
		*n = count;
	return count ? &t->metrics[first] : NULL;
}

const struct pmu_event *pmu_tables_event(const struct pmu_tables *t,
					 const char *name, size_t *n)
{
	size_t first, count = find(t->events, t->n_events, sizeof(*t->events),
				   name, &first);

	if (n)
		*n = count;
	return count ? &t->events[first] : NULL;
}

const struct pmu_counters *pmu_tables_counters(const struct pmu_tables *t,
					       const char *pmu)
{
	size_t i;

	for (i = 0; i < t->n_counters; i++)
		if (strcmp(t->counters[i].pmu, pmu) == 0)
			return &t->counters[i];
	return NULL;
}

const struct pmu_group *pmu_tables_group(const struct pmu_tables *t,
					 const char *name)
{
	size_t first;

	return find(t->groups, t->n_groups, sizeof(*t->groups), name, &first)
		       ? &t->groups[first] : NULL;
}

/* perf's match_metric, but for "all". */
bool pmu_tables_listed(const char *list, const char *name)
{
	size_t len = strlen(name);

	for (; list; list = strchr(list, ';'), list = list ? list + 1 : NULL)
		if (strncasecmp(list, name, len) == 0 &&
		    (list[len] == '\0' || list[len] == ';'))
			return true;
	return false;
}

size_t pmu_tables_select(const struct pmu_tables *t, const char *word,
			 const struct pmu_metric **out, size_t max)
{
	const struct pmu_metric *m;
	size_t i, n = 0;

	for (i = 0; i < t->n_metrics; i++) {
		m = &t->metrics[i];
		if (strcmp(word, "all") != 0 &&
		    !(m->groups ? pmu_tables_listed(m->groups, word)
				: strcasecmp(word, "No_group") == 0) &&
		    !pmu_tables_listed(m->name, word))
			continue;
		if (out && n < max)
			out[n] = m;
		n++;
	}
	return n;
}

/* Edits from a to b, in any case; SIZE_MAX past 255 bytes. */
static size_t distance(const char *a, const char *b)
{
	size_t row[256], la = strlen(a), lb = strlen(b), i, j, diag, up;

	if (la > 255 || lb > 255)
		return SIZE_MAX;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		diag = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			up = row[j];
			row[j] = diag + (tolower((unsigned char)a[i - 1]) !=
					 tolower((unsigned char)b[j - 1]));
			if (up + 1 < row[j])
				row[j] = up + 1;
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			diag = up;
		}
	}
	return row[lb];
}

/*
 * Whether name ends in "_word", in any case: perf 6.1's IpBranch is
 * 6.12's tma_info_inst_mix_ipbranch.
 */
static bool renamed(const char *name, const char *word)
{
	size_t ln = strlen(name), lw = strlen(word);

	return lw > 0 && ln > lw && name[ln - lw - 1] == '_' &&
	       strcasecmp(name + ln - lw, word) == 0;
}

/*
 * A candidate weighed: those at the least distance so far kept; a name
 * the word ends (renamed) is as close as can be.
 */
static void weigh(const char *name, const char *word, size_t *best,
		  const char **out, size_t max, size_t *n)
{
	size_t d = renamed(name, word) ? 0 : distance(name, word);

	if (d > *best)
		return;
	if (d < *best) {
		*best = d;
		*n = 0;
	}
	if (*n < max)
		out[*n] = name;
	(*n)++;
}

/* The names at the least distance from word, no more than best. */
static size_t closest_within(const struct pmu_tables *t, const char *word,
			     const char **out, size_t max, size_t best)
{
	size_t n = 0, i;

	/* A hybrid CPU's metric is there once a core PMU: named once. */
	for (i = 0; i < t->n_metrics; i++)
		if (i == 0 || strcmp(t->metrics[i].name,
				     t->metrics[i - 1].name) != 0)
			weigh(t->metrics[i].name, word, &best, out, max, &n);
	for (i = 0; i < t->n_groups; i++)
		weigh(t->groups[i].name, word, &best, out, max, &n);
	return n;
}

size_t pmu_tables_closest(const struct pmu_tables *t, const char *word,
			  const char **out, size_t max)
{
	size_t best = strlen(word) / 3;

	return closest_within(t, word, out, max, best ? best : 1);
}

size_t pmu_tables_nearest(const struct pmu_tables *t, const char *word,
			  const char **out, size_t max)
{
	return closest_within(t, word, out, max, SIZE_MAX - 1);
}

char *pmu_tables_counting_terms(const struct pmu_event *e)
{
	char *out = malloc(strlen(e->terms) + 1), *o = out;
	const char *t = e->terms, *end;

	if (!out)
		return NULL;
	while (*t) {
		end = strchrnul(t, ',');
		if (strncmp(t, "period=", 7) != 0) {
			if (o != out)
				*o++ = ',';
			memcpy(o, t, (size_t)(end - t));
			o += end - t;
		}
		t = *end ? end + 1 : end;
	}
	*o = '\0';
	return out;
}
