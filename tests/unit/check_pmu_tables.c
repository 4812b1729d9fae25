/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of perf's tables (pmu_tables.c), on the small ones of
 * tests/pmu-events: models found by CPUID string as perf finds them
 * (Intel's with and without a stepping, AMD's, an arm64 MIDR from a fake
 * sysfs), the terms jevents.py makes of every key it maps (its own output
 * for these files, checked by hand against it), lookups in any case,
 * metric groups, standard arm64 events, and the files refused.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "fake_sysfs.h"
#include "pmu_tables.h"
#include "unit.h"

#define ALL (PMU_TABLES_EVENTS | PMU_TABLES_METRICS)

static char err[PATH_MAX + 512];

/* The tables of tests/pmu-events, as make check's PSTAT_PMU_EVENTS. */
static void use_fixture(void)
{
	const char *srcdir = getenv("top_srcdir");
	char dir[PATH_MAX];

	ck_assert_msg(srcdir, "top_srcdir is not set: run me by make check");
	snprintf(dir, sizeof(dir), "%s/tests/pmu-events", srcdir);
	ck_assert_int_eq(setenv("PSTAT_PMU_EVENTS", dir, 1), 0);
	unsetenv("PERF_CPUID");
}

static struct pmu_tables *load(const char *cpuid, unsigned int want)
{
	struct pmu_tables *t;
	int ret = pmu_tables_load_cpuid(&t, cpuid, want, err, sizeof(err));

	ck_assert_msg(ret == 0, "%s: %d: %s", cpuid, ret, err);
	return t;
}

/* CPUID strings and the model each is given (NULL: none), by the rules
 * of perf's strcmp_cpuid_str. */
static const struct match_row {
	int line;
	const char *cpuid, *model;
} match_rows[] = {
	/* A row with a stepping needs one, in its range. */
	{ __LINE__, "GenuineIntel-6-55-4", "testlake" },
	{ __LINE__, "GenuineIntel-6-55-0", "testlake" },
	{ __LINE__, "GenuineIntel-6-55-5", NULL },
	{ __LINE__, "GenuineIntel-6-55", NULL },
	/* One without ignores the CPUID's, or takes a string without. */
	{ __LINE__, "GenuineIntel-6-5E-3", "testlake" },
	{ __LINE__, "GenuineIntel-6-4E-A", "testlake" },
	{ __LINE__, "GenuineIntel-6-5E", "testlake" },
	/* The whole string matches, not a part of it. */
	{ __LINE__, "GenuineIntel-6-5E0-1", NULL },
	{ __LINE__, "xGenuineIntel-6-5E-3", NULL },
	{ __LINE__, "GenuineIntel-6-5-3", NULL },
	/* A row whose directory is not there is passed over. */
	{ __LINE__, "GenuineIntel-6-66-0", NULL },
	/* AMD: the first row that matches, [[:xdigit:]] as POSIX has it. */
	{ __LINE__, "AuthenticAMD-25-11-0", "testzen" },
	{ __LINE__, "AuthenticAMD-25-A0-2", "testzen" },
	{ __LINE__, "AuthenticAMD-25-21-0", "testlake" },
	{ __LINE__, "AuthenticAMD-25-1-1", "testlake" },
	{ __LINE__, "AuthenticAMD-26-11-0", NULL },
	{ __LINE__, "Bogus-1-2-3", NULL },
	/* arm64: the part, and a variant and revision no older. */
	{ __LINE__, "0x00000000410fd0c0", "testvendor/testcore" },
	{ __LINE__, "0x00000000413fd0c1", "testvendor/testcore" },
	{ __LINE__, "0x00000000410fd0d0", NULL },
	{ __LINE__, "0x00000000411fd402", "testvendor/testcore" },
	{ __LINE__, "0x00000000411fd40f", "testvendor/testcore" },
	{ __LINE__, "0x00000000412fd400", "testvendor/testcore" },
	{ __LINE__, "0x00000000411fd401", NULL },
	{ __LINE__, "0x00000000410fd40f", NULL },
	{ __LINE__, "0x00000000420fd0c0", NULL },
};

START_TEST(test_match)
{
	const struct match_row *r = &match_rows[_i];
	struct pmu_tables *t;
	char mapfile[PATH_MAX];
	int ret;

	use_fixture();
	ret = pmu_tables_load_cpuid(&t, r->cpuid, ALL, err, sizeof(err));
	if (r->model) {
		ck_assert_msg(ret == 0, "line %d: %s: %d: %s", r->line,
			      r->cpuid, ret, err);
		ck_assert_msg(strcmp(pmu_tables_model(t), r->model) == 0,
			      "line %d: %s is %s, want %s", r->line, r->cpuid,
			      pmu_tables_model(t), r->model);
		ck_assert_str_eq(pmu_tables_cpuid(t), r->cpuid);
		pmu_tables_free(t);
		return;
	}
	ck_assert_msg(ret == -ENOENT && !t, "line %d: %s: %d, want -ENOENT",
		      r->line, r->cpuid, ret);
	/* Which CPUID, where pstat looked, and how to choose. */
	snprintf(mapfile, sizeof(mapfile), "%s/arch/%s/mapfile.csv",
		 getenv("PSTAT_PMU_EVENTS"),
		 strncmp(r->cpuid, "0x", 2) ? "x86" : "arm64");
	ck_assert_msg(strstr(err, r->cpuid) && strstr(err, mapfile) &&
		      strstr(err, "PERF_CPUID=") && !strchr(err, '\n'),
		      "line %d: %s", r->line, err);
}
END_TEST

/* An event as it is found: its name in another case than the file's. */
static const struct event_row {
	int line;
	const char *cpuid, *name, *pmu, *terms, *desc, *scale_unit;
	bool per_pkg, deprecated;
} event_rows[] = {
	/* real_event: fixed terms, whatever the JSON says. */
	{ __LINE__, "GenuineIntel-6-55-4", "inst_retired.any", "cpu",
	  "event=0xc0,period=2000003",
	  "Instructions retired; perf gives it fixed terms" },
	/* AnyThread, CounterMask, EdgeDetect, Invert, SampleAfterValue;
	 * a zero UMask left out; a final ". " not shown. */
	{ __LINE__, "GenuineIntel-6-55-4", "Br_Misp_Retired.All_Branches",
	  "cpu", "event=0xc5,any=1,cmask=1,edge=1,inv=1,period=400009",
	  "Cycles with a mispredicted branch starting" },
	/* Numbers under 10 in decimal; zeros, 0 and 0x0, left out. */
	{ __LINE__, "GenuineIntel-6-55-4", "ld_blocks.store_forward", "cpu",
	  "event=3,umask=2", "Small numbers in decimal, zeros left out" },
	/* MSRIndex's term with MSRValue as written; the first EventCode. */
	{ __LINE__, "GenuineIntel-6-55-4", "OCR.DEMAND_DATA_RD.ANY_RESPONSE",
	  "cpu", "event=0xb7,period=100003,umask=1,offcore_rsp=0x10001" },
	{ __LINE__, "GenuineIntel-6-55-4",
	  "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4", "cpu",
	  "event=0xcd,umask=1,ldlat=0x4" },
	{ __LINE__, "GenuineIntel-6-55-4", "FRONTEND_RETIRED.DSB_MISS",
	  "cpu", "event=0xc6,umask=1,frontend=0x11" },
	{ __LINE__, "GenuineIntel-6-55-4", "UOPS_ISSUED.ANY", "cpu",
	  "event=0xe,umask=1", "Old name", NULL, false, true },
	/* Unit, PerPkg, ScaleUnit, PortMask, FCMask, Filter. */
	{ __LINE__, "GenuineIntel-6-55-4", "unc_cha_tor_inserts.ia_miss",
	  "uncore_cha",
	  "event=0x35,ch_mask=4,fc_mask=7,umask=0x21,config1=0x4043300000000",
	  "An uncore event of each CHA", "64Bytes", true },
	/* ConfigCode before EventCode; a Unit of perf's table. */
	{ __LINE__, "GenuineIntel-6-55-4", "UNC_IIO_DATA_REQ.X", "uncore_upi",
	  "config=0x100" },
	{ __LINE__, "GenuineIntel-6-55-4", "UNC_CXL.E", "uncore_cxlcm",
	  "eventid=5,type=0xa" },
	{ __LINE__, "GenuineIntel-6-55-4", "UNC_EXT.SEL", "cpu",
	  "event=0x110,rdwrmask=2" },
	{ __LINE__, "GenuineIntel-6-55-4",
	  "L3_LOOKUP_STATE.ALL_COHERENT_ACCESSES_TO_L3", "amd_l3",
	  "event=4,umask=0xff,enallcores=1,enallslices=1,sliceid=3,threadmask=0xff" },
	/* AMD's names. */
	{ __LINE__, "AuthenticAMD-25-11-0", "ex_ret_brn_misp", "cpu",
	  "event=0xc3", "Retired branch instructions mispredicted" },
	/* arm64: an ArchStdEvent's terms, whatever the entry's; its own
	 * description before the standard one's. */
	{ __LINE__, "0x00000000410fd0c0", "cpu_cycles", "cpu", "event=0x11",
	  "Cycles of this core" },
	{ __LINE__, "0x00000000410fd0c0", "INST_RETIRED", "cpu", "event=8",
	  "Instruction architecturally executed" },
	{ __LINE__, "0x00000000410fd0c0", "l1d_cache_lmiss", "cpu",
	  "event=0x39" },
	/* Not its Unit: jevents.py's pmu is set without one too. */
	{ __LINE__, "0x00000000410fd0c0", "std_unit_event", "cpu",
	  "event=0x50" },
};

START_TEST(test_event)
{
	const struct event_row *r = &event_rows[_i];
	const struct pmu_event *e;
	struct pmu_tables *t;
	size_t n;

	use_fixture();
	t = load(r->cpuid, PMU_TABLES_EVENTS);
	e = pmu_tables_event(t, r->name, &n);
	ck_assert_msg(e && n == 1, "line %d: %s: %zu events", r->line, r->name,
		      e ? n : 0);
	ck_assert_msg(strcmp(e->pmu, r->pmu) == 0 &&
		      strcmp(e->terms, r->terms) == 0,
		      "line %d: %s is %s/%s/, want %s/%s/", r->line, r->name,
		      e->pmu, e->terms, r->pmu, r->terms);
	if (r->desc)
		ck_assert_msg(e->desc && strcmp(e->desc, r->desc) == 0,
			      "line %d: '%s'", r->line, e->desc);
	ck_assert_msg(!e->scale_unit == !r->scale_unit &&
		      (!r->scale_unit || !strcmp(e->scale_unit, r->scale_unit)),
		      "line %d: scale unit %s", r->line, e->scale_unit);
	ck_assert_msg(e->per_pkg == r->per_pkg &&
		      e->deprecated == r->deprecated, "line %d", r->line);
	ck_assert_int_eq(pmu_tables_n_metrics(t), 0);
	pmu_tables_free(t);
}
END_TEST

/* The string or NULL. */
static void check_str(const char *field, const char *got, const char *want)
{
	ck_assert_msg(!got == !want && (!want || strcmp(got, want) == 0),
		      "%s is '%s', want '%s'", field, got ? got : "(null)",
		      want ? want : "(null)");
}

/* Every key of a metric, and the one each core PMU of a hybrid CPU has. */
START_TEST(test_metric)
{
	const struct pmu_metric *m;
	struct pmu_tables *t;
	size_t n;

	use_fixture();
	t = load("GenuineIntel-6-55-4", ALL);
	m = pmu_tables_metric(t, "TMA_Retiring", &n);
	ck_assert_msg(m && n == 2, "%zu metrics named tma_retiring", n);
	check_str("name", m->name, "tma_retiring");
	check_str("pmu", m->pmu, "cpu");
	check_str("expr", m->expr,
		  "topdown\\-retiring / (topdown\\-fe\\-bound + topdown\\-bad\\-spec + topdown\\-retiring + topdown\\-be\\-bound)");
	check_str("groups", m->groups, "Default;TopdownL1;tma_L1_group");
	check_str("desc", m->desc, "Retiring slots");
	check_str("threshold", m->threshold, "tma_retiring > 0.7");
	check_str("scale_unit", m->scale_unit, "100%");
	check_str("constraint", m->constraint, "NO_GROUP_EVENTS");
	check_str("nogroup", m->nogroup_groups, "TopdownL1;Default");
	check_str("default_group", m->default_group, "TopdownL1");
	/* jevents.py's topic: a file named *metrics.json is "metrics". */
	check_str("topic", m->topic, "metrics");
	check_str("hybrid pmu", m[1].pmu, "cpu_atom");
	check_str("hybrid groups", m[1].groups, "TopdownL1;tma_L1_group");
	check_str("hybrid nogroup", m[1].nogroup_groups, NULL);
	/* Another metric's name in an expression stays text. */
	m = pmu_tables_metric(t, "cpi", &n);
	ck_assert_msg(m && n == 1, "cpi");
	check_str("CPI expr", m->expr, "1 / IPC");
	ck_assert_ptr_null(pmu_tables_metric(t, "no_expression", &n));
	ck_assert_uint_eq(n, 0);
	ck_assert_ptr_null(pmu_tables_metric(t, "tma_retirin", NULL));
	ck_assert_ptr_null(pmu_tables_event(t, "inst_retired", NULL));
	ck_assert_uint_eq(pmu_tables_n_metrics(t), 6);
	ck_assert_uint_eq(pmu_tables_n_events(t), 12);
	pmu_tables_free(t);
	/* Any other file's: its name without .json. */
	t = load("AuthenticAMD-25-11-0", ALL);
	m = pmu_tables_metric(t, "branch_misprediction_ratio", NULL);
	ck_assert_ptr_nonnull(m);
	check_str("zen topic", m->topic, "recommended");
	pmu_tables_free(t);
}
END_TEST

/* Sorted in any case, each name next to its twins. */
START_TEST(test_order)
{
	static const char *const want[] = {
		"CPI", "IpBranch", "IPC", "tma_frontend_bound",
		"tma_retiring", "tma_retiring",
	};
	struct pmu_tables *t;
	size_t i;

	use_fixture();
	t = load("GenuineIntel-6-55-4", PMU_TABLES_METRICS);
	for (i = 0; i < sizeof(want) / sizeof(*want); i++)
		check_str("metric", pmu_tables_metric_at(t, i)->name, want[i]);
	ck_assert_ptr_null(pmu_tables_metric_at(t, i));
	ck_assert_uint_eq(pmu_tables_n_events(t), 0);
	pmu_tables_free(t);
}
END_TEST

/* counter.json: each PMU's counters ("core" is the core PMU's), and an
 * event's Counter field, loaded with the events. */
START_TEST(test_counters)
{
	const struct pmu_counters *c;
	const struct pmu_event *e;
	struct pmu_tables *t;

	use_fixture();
	t = load("GenuineIntel-6-55-4", PMU_TABLES_EVENTS);
	c = pmu_tables_counters(t, "cpu");
	ck_assert_ptr_nonnull(c);
	ck_assert_uint_eq(c->generic, 4);
	ck_assert_uint_eq(c->fixed, 3);
	c = pmu_tables_counters(t, "uncore_cha");
	ck_assert_ptr_nonnull(c);
	ck_assert_uint_eq(c->generic, 4);
	ck_assert_uint_eq(c->fixed, 0);
	ck_assert_ptr_null(pmu_tables_counters(t, "uncore_imc"));
	e = pmu_tables_event(t, "INST_RETIRED.ANY", NULL);
	ck_assert_ptr_nonnull(e);
	check_str("Counter", e->counter, "Fixed counter 0");
	pmu_tables_free(t);
}
END_TEST

/* The groups: of the metrics' MetricGroup, described by metricgroups.json. */
START_TEST(test_groups)
{
	static const struct {
		const char *name, *desc;
		size_t n;
	} want[] = {
		{ "Branches", "Grouping from Top-down Microarchitecture Analysis Metrics spreadsheet", 1 },
		{ "Default", NULL, 2 },
		{ "Fed", NULL, 1 },
		{ "InsType", NULL, 1 },
		{ "Mem", NULL, 1 },
		{ "Pipeline", NULL, 1 },
		{ "tma_L1_group", NULL, 3 },
		{ "TopdownL1", "Metrics for top-down breakdown at level 1", 3 },
	};
	const struct pmu_group *g;
	struct pmu_tables *t;
	size_t i;

	use_fixture();
	t = load("GenuineIntel-6-55-4", PMU_TABLES_METRICS);
	ck_assert_uint_eq(pmu_tables_n_groups(t), sizeof(want) / sizeof(*want));
	for (i = 0; i < sizeof(want) / sizeof(*want); i++) {
		g = pmu_tables_group_at(t, i);
		check_str("group", g->name, want[i].name);
		check_str(g->name, g->desc, want[i].desc);
		ck_assert_msg(g->n_metrics == want[i].n, "%s: %zu metrics",
			      g->name, g->n_metrics);
	}
	ck_assert_ptr_null(pmu_tables_group_at(t, i));
	ck_assert_ptr_eq(pmu_tables_group(t, "topdownl1"),
			 pmu_tables_group_at(t, 7));
	ck_assert_ptr_null(pmu_tables_group(t, "Unused"));
	pmu_tables_free(t);
}
END_TEST

/* What perf's -M takes: a metric or a group, in any case. */
static const struct select_row {
	int line;
	const char *word;
	size_t n;
	const char *first;
} select_rows[] = {
	{ __LINE__, "TopdownL1", 3, "tma_frontend_bound" },
	{ __LINE__, "topdownl1", 3, "tma_frontend_bound" },
	{ __LINE__, "Default", 2, "tma_frontend_bound" },
	{ __LINE__, "IpBranch", 1, "IpBranch" },
	{ __LINE__, "ipbranch", 1, "IpBranch" },
	{ __LINE__, "Fed", 1, "IpBranch" },
	{ __LINE__, "all", 6, "CPI" },
	{ __LINE__, "No_group", 1, "IPC" },
	{ __LINE__, "no_group", 1, "IPC" },
	{ __LINE__, "tma_L1", 0, NULL },
	{ __LINE__, "TopdownL", 0, NULL },
	{ __LINE__, "Unused", 0, NULL },
};

START_TEST(test_select)
{
	const struct select_row *r = &select_rows[_i];
	const struct pmu_metric *out[1];
	struct pmu_tables *t;
	size_t n;

	use_fixture();
	t = load("GenuineIntel-6-55-4", PMU_TABLES_METRICS);
	n = pmu_tables_select(t, r->word, out, 1);
	ck_assert_msg(n == r->n, "line %d: %s picks %zu, want %zu", r->line,
		      r->word, n, r->n);
	if (n)
		ck_assert_msg(strcmp(out[0]->name, r->first) == 0,
			      "line %d: %s", r->line, out[0]->name);
	ck_assert_uint_eq(pmu_tables_select(t, r->word, NULL, 0), r->n);
	pmu_tables_free(t);
}
END_TEST

START_TEST(test_listed)
{
	ck_assert(pmu_tables_listed("Default;TopdownL1", "topdownl1"));
	ck_assert(pmu_tables_listed("Default;TopdownL1", "DEFAULT"));
	ck_assert(pmu_tables_listed("a;;b", "b"));
	ck_assert(!pmu_tables_listed("TopdownL1x", "TopdownL1"));
	ck_assert(!pmu_tables_listed("TopdownL1", "Topdown"));
	ck_assert(!pmu_tables_listed(NULL, "TopdownL1"));
}
END_TEST

/* For "did you mean": the closest metric or group names, each once;
 * a name that ends in "_WORD" first. */
static const struct closest_row {
	int line;
	const char *word;
	size_t n;
	const char *first;
} closest_rows[] = {
	{ __LINE__, "IpBrnch", 1, "IpBranch" },
	{ __LINE__, "topdownl2", 1, "TopdownL1" },
	{ __LINE__, "tma_retirin", 1, "tma_retiring" },
	{ __LINE__, "ipd", 1, "IPC" },
	/* perf 6.1's name for what 6.12 calls tma_retiring: its end. */
	{ __LINE__, "Retiring", 1, "tma_retiring" },
	{ __LINE__, "cycles", 0, NULL },
};

START_TEST(test_closest)
{
	const struct closest_row *r = &closest_rows[_i];
	const char *out[4];
	struct pmu_tables *t;
	size_t n;

	use_fixture();
	t = load("GenuineIntel-6-55-4", PMU_TABLES_METRICS);
	n = pmu_tables_closest(t, r->word, out, 4);
	ck_assert_msg(n == r->n, "line %d: %zu names close to %s", r->line, n,
		      r->word);
	if (n)
		check_str(r->word, out[0], r->first);
	pmu_tables_free(t);
}
END_TEST

/* A word no name is close to: closest has none, nearest the least far. */
START_TEST(test_nearest)
{
	const char *out[4];
	struct pmu_tables *t;

	use_fixture();
	t = load("GenuineIntel-6-55-4", PMU_TABLES_METRICS);
	ck_assert_uint_eq(pmu_tables_closest(t, "NoSuchMetric", out, 4), 0);
	ck_assert_uint_ge(pmu_tables_nearest(t, "NoSuchMetric", out, 4), 1);
	/* What is close is nearest too. */
	ck_assert_uint_eq(pmu_tables_nearest(t, "IpBrnch", out, 4), 1);
	check_str("IpBrnch", out[0], "IpBranch");
	pmu_tables_free(t);
}
END_TEST

/* arm64's standard events and metrics, by ArchStdEvent. */
START_TEST(test_arm64_std)
{
	const struct pmu_metric *m;
	const struct pmu_event *e;
	struct pmu_tables *t;

	use_fixture();
	t = load("0x00000000410fd0c0", ALL);
	e = pmu_tables_event(t, "inst_retired", NULL);
	ck_assert_ptr_nonnull(e);
	check_str("name", e->name, "INST_RETIRED");
	m = pmu_tables_metric(t, "retiring", NULL);
	ck_assert_ptr_nonnull(m);
	check_str("expr", m->expr, "100 * (op_retired / op_spec)");
	check_str("groups", m->groups, "Default;TopdownL1");
	check_str("desc", m->desc, "Retiring slots");
	check_str("scale_unit", m->scale_unit, "1percent of slots");
	check_str("default_group", m->default_group, "TopdownL1");
	ck_assert_uint_eq(pmu_tables_n_events(t), 4);
	ck_assert_uint_eq(pmu_tables_n_metrics(t), 2);
	pmu_tables_free(t);
}
END_TEST

/* PERF_CPUID, as for perf; "" is no CPUID. */
START_TEST(test_perf_cpuid)
{
	struct pmu_tables *t;
	char host[128];
	int ret;

	use_fixture();
	setenv("PERF_CPUID", "GenuineIntel-6-5E-3", 1);
	ck_assert_int_eq(pmu_tables_load(&t, ALL, err, sizeof(err)), 0);
	check_str("cpuid", pmu_tables_cpuid(t), "GenuineIntel-6-5E-3");
	check_str("model", pmu_tables_model(t), "testlake");
	pmu_tables_free(t);
	setenv("PERF_CPUID", "Bogus-1-2-3", 1);
	ck_assert_int_eq(pmu_tables_load(&t, ALL, err, sizeof(err)), -ENOENT);
	ck_assert_msg(strstr(err, "'Bogus-1-2-3'"), "%s", err);
	setenv("PERF_CPUID", "", 1);
	ret = pmu_tables_host_cpuid(host, sizeof(host));
	if (ret == 0) {
		ret = pmu_tables_load(&t, ALL, err, sizeof(err));
		ck_assert_msg(ret == 0 || strstr(err, host), "%s", err);
		if (ret == 0)
			check_str("cpuid", pmu_tables_cpuid(t), host);
		pmu_tables_free(t);
	}
}
END_TEST

#if defined(__x86_64__) || defined(__i386__)
/* perf's x86 CPUID string, from what /proc/cpuinfo says. */
START_TEST(test_x86_cpuid)
{
	char host[128], want[128], line[256], vendor[64] = "";
	unsigned int family = 0, model = 0, stepping = 0;
	FILE *f = fopen("/proc/cpuinfo", "r");

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f) && !strstr(line, "stepping"))
		if (sscanf(line, "vendor_id : %63s", vendor) != 1 &&
		    sscanf(line, "cpu family : %u", &family) != 1)
			sscanf(line, "model : %u", &model);
	ck_assert_int_eq(sscanf(line, "stepping : %u", &stepping), 1);
	fclose(f);
	snprintf(want, sizeof(want), "%s-%u-%X-%X", vendor, family, model,
		 stepping);
	ck_assert_int_eq(pmu_tables_host_cpuid(host, sizeof(host)), 0);
	check_str("host cpuid", host, want);
}
END_TEST
#endif

/* arm64: the MIDR of the first online CPU that shows one. */
START_TEST(test_midr)
{
	static const struct fake_sysfs_cpu cpus[] = {
		{ 0, 0, 0, 0, -1 }, { 1, 0, 0, 1, -1 }, { 2, 0, 0, 2, -1 },
		{ 3, 0, 0, 3, -1 },
	};
	struct pmu_tables *t;
	char midr[32];

	use_fixture();
	fake_sysfs_setup("check_pmu_tables");
	fake_sysfs_cpus("sys", "0,2-3", cpus, N_ROWS(cpus));
	fake_sysfs_use("sys", "events");
	ck_assert_int_eq(pmu_tables_midr(midr, sizeof(midr)), -ENOENT);
	fake_sysfs_write("sys/devices/system/cpu/cpu1/regs/identification/midr_el1",
			 "0x00000000410fd0d0\n");
	fake_sysfs_write("sys/devices/system/cpu/cpu2/regs/identification/midr_el1",
			 "0x00000000413fd0c1\n");
	fake_sysfs_write("sys/devices/system/cpu/cpu3/regs/identification/midr_el1",
			 "0x00000000410fd0d0\n");
	ck_assert_int_eq(pmu_tables_midr(midr, sizeof(midr)), 0);
	check_str("midr", midr, "0x00000000413fd0c1");
	t = load(midr, ALL);
	check_str("model", pmu_tables_model(t), "testvendor/testcore");
	pmu_tables_free(t);
	fake_sysfs_teardown();
}
END_TEST

/* Files perf's tables never have: refused, named, with the reason. */
static const struct bad_row {
	int line;
	const char *text, *reason;
} bad_rows[] = {
	{ __LINE__, "[{\"EventName\": \"A\", \"EventCode\": \"0x1\",}]",
	  "not JSON at byte" },
	{ __LINE__, "[{\"EventName\": \"A\"}] x", "not JSON at byte" },
	{ __LINE__, "[{\"EventName\": \"A\"}][]", "unexpected character" },
	{ __LINE__, "[{\"EventName\": 'A'}]", "not JSON at byte" },
	{ __LINE__, "[{\"EventName\": \"A\"", "not JSON at byte" },
	{ __LINE__, "", "not JSON at byte 0" },
	{ __LINE__, "{\"EventName\": \"A\"}", "not a list" },
	{ __LINE__, " null ", "null, no table of perf's" },
	{ __LINE__, "[[]]", "entry 0 is not an object" },
	{ __LINE__, "[{\"EventName\": \"A\"}, {\"EventName\": 1}]",
	  "entry 1: EventName is not a string" },
	{ __LINE__, "[{\"EventName\": \"A\", \"UMask\": \"x1\"}]",
	  "entry 0: UMask 'x1' is not a number" },
	{ __LINE__, "[{\"EventName\": \"A\", \"EventCode\": \"0x1g\"}]",
	  "entry 0: EventCode '0x1g' is not a number" },
	{ __LINE__, "[{\"EventName\": \"A\", \"MSRIndex\": \"0x123\", \"MSRValue\": \"1\"}]",
	  "MSRIndex 0x123 is none perf knows" },
	{ __LINE__, "[{\"ArchStdEvent\": \"NO_SUCH\"}]",
	  "ArchStdEvent 'NO_SUCH' is in no .json file" },
};

START_TEST(test_bad_file)
{
	const struct bad_row *r = &bad_rows[_i];
	struct pmu_tables *t;
	char dir[PATH_MAX], file[PATH_MAX];
	int ret;

	fake_sysfs_setup("check_pmu_tables");
	fake_sysfs_write("tables/arch/x86/mapfile.csv",
			 "Family-model,Version,Filename,EventType\n"
			 "GenuineIntel-6-55-4,v1,bad,core\n");
	fake_sysfs_write("tables/arch/x86/bad/a.json", "[]");
	fake_sysfs_write("tables/arch/x86/bad/b.json", r->text);
	fake_sysfs_path(dir, sizeof(dir), "tables");
	fake_sysfs_path(file, sizeof(file), "tables/arch/x86/bad/b.json");
	setenv("PSTAT_PMU_EVENTS", dir, 1);
	ret = pmu_tables_load_cpuid(&t, "GenuineIntel-6-55-4", ALL, err,
				    sizeof(err));
	ck_assert_msg(ret == -EINVAL && !t, "line %d: %d", r->line, ret);
	ck_assert_msg(strncmp(err, file, strlen(file)) == 0 &&
		      strstr(err, r->reason) && !strchr(err, '\n'),
		      "line %d: '%s'", r->line, err);
	fake_sysfs_teardown();
}
END_TEST

/* A NUL byte, where json-c's text ends and the file does not. */
START_TEST(test_nul_byte)
{
	struct pmu_tables *t;
	char dir[PATH_MAX], file[PATH_MAX];
	FILE *f;

	fake_sysfs_setup("check_pmu_tables");
	fake_sysfs_write("tables/arch/x86/mapfile.csv",
			 "Family-model,Version,Filename,EventType\n"
			 "GenuineIntel-6-55-4,v1,bad,core\n");
	fake_sysfs_mkdir("tables/arch/x86/bad");
	fake_sysfs_path(dir, sizeof(dir), "tables");
	fake_sysfs_path(file, sizeof(file), "tables/arch/x86/bad/a.json");
	f = fopen(file, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite("[]\0[]", 1, 5, f), 5);
	ck_assert_int_eq(fclose(f), 0);
	setenv("PSTAT_PMU_EVENTS", dir, 1);
	ck_assert_int_eq(pmu_tables_load_cpuid(&t, "GenuineIntel-6-55-4", ALL,
					       err, sizeof(err)), -EINVAL);
	ck_assert_msg(strncmp(err, file, strlen(file)) == 0 &&
		      strstr(err, "not JSON at byte 2: a NUL byte"), "%s", err);
	fake_sysfs_teardown();
}
END_TEST

/* pstat built without tables: where it looked, and why. */
START_TEST(test_no_tables)
{
	struct pmu_tables *t;

	setenv("PSTAT_PMU_EVENTS", "/nonexistent", 1);
	ck_assert_int_eq(pmu_tables_load_cpuid(&t, "GenuineIntel-6-55-4", ALL,
					       err, sizeof(err)), -ENOENT);
	ck_assert_msg(strstr(err, "/nonexistent/arch/x86/mapfile.csv") &&
		      strstr(err, "--without-pmu-events"), "%s", err);
	ck_assert_int_eq(pmu_tables_load_cpuid(&t, "0x00000000410fd0c0", ALL,
					       err, sizeof(err)), -ENOENT);
	ck_assert_msg(strstr(err, "/nonexistent/arch/arm64/mapfile.csv"),
		      "%s", err);
	unsetenv("PSTAT_PMU_EVENTS");
	ck_assert_str_eq(pmu_tables_dir(), PSTAT_PMU_EVENTS_DIR);
}
END_TEST

/* A counter's terms: the sampling period left out, wherever it is. */
START_TEST(test_counting_terms)
{
	static const struct {
		const char *terms, *want;
	} rows[] = {
		{ "event=0xc0,period=2000003", "event=0xc0" },
		{ "period=100003,event=0xb7,umask=1", "event=0xb7,umask=1" },
		{ "event=0x3c,period=1,umask=0x2,cmask=1",
		  "event=0x3c,umask=0x2,cmask=1" },
		{ "period=5", "" },
		{ "event=0x11", "event=0x11" },
		{ "", "" },
	};
	struct pmu_event e = { 0 };
	char *got;
	size_t i;

	for (i = 0; i < N_ROWS(rows); i++) {
		e.terms = rows[i].terms;
		got = pmu_tables_counting_terms(&e);
		ck_assert_ptr_nonnull(got);
		ck_assert_str_eq(got, rows[i].want);
		free(got);
	}
}
END_TEST

static Suite *pmu_tables_suite(void)
{
	Suite *s = suite_create("pmu_tables");
	TCase *tc;

	tc = tcase_create("models");
	tcase_add_loop_test(tc, test_match, 0, N_ROWS(match_rows));
	tcase_add_test(tc, test_perf_cpuid);
#if defined(__x86_64__) || defined(__i386__)
	tcase_add_test(tc, test_x86_cpuid);
#endif
	tcase_add_test(tc, test_midr);
	tcase_add_test(tc, test_no_tables);
	tcase_add_test(tc, test_counting_terms);
	suite_add_tcase(s, tc);

	tc = tcase_create("entries");
	tcase_add_loop_test(tc, test_event, 0, N_ROWS(event_rows));
	tcase_add_test(tc, test_metric);
	tcase_add_test(tc, test_order);
	tcase_add_test(tc, test_groups);
	tcase_add_test(tc, test_counters);
	tcase_add_loop_test(tc, test_select, 0, N_ROWS(select_rows));
	tcase_add_test(tc, test_listed);
	tcase_add_loop_test(tc, test_closest, 0, N_ROWS(closest_rows));
	tcase_add_test(tc, test_nearest);
	tcase_add_test(tc, test_arm64_std);
	tcase_add_loop_test(tc, test_bad_file, 0, N_ROWS(bad_rows));
	tcase_add_test(tc, test_nul_byte);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(pmu_tables_suite());
}
