/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of core PMUs in fake sysfs trees: Intel's and AMD's format
 * terms, event aliases with and without their PMU, in any case, and a
 * hybrid CPU's cpu_core and cpu_atom (pmu.c, event.c, evparse.c).
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include <check.h>

#include "event.h"
#include "evlist.h"
#include "evparse.h"
#include "fake_sysfs.h"
#include "pmu.h"
#include "unit.h"

/* The PMUs of three machines, each in a sysfs of its own. */
static const struct fake_sysfs_entry msr_format[] = {
	{ "event", "config:0-63" },
	{ NULL },
};

static const struct fake_sysfs_entry msr_events[] = {
	{ "tsc", "event=0x00" },
	{ NULL },
};

static const struct fake_sysfs_entry imc_format[] = {
	{ "event", "config:0-7" },
	{ NULL },
};

static const struct fake_sysfs_entry imc_events[] = {
	{ "cas", "event=0x4" },
	{ NULL },
};

/* Skylake-X: Intel's core PMU, msr, and an uncore PMU of two. */
static const struct fake_sysfs_entry intel_format[] = {
	{ "event", "config:0-7" },
	{ "umask", "config:8-15" },
	{ "edge", "config:18" },
	{ "pc", "config:19" },
	{ "any", "config:21" },
	{ "inv", "config:23" },
	{ "cmask", "config:24-31" },
	{ "in_tx", "config:32" },
	{ "in_tx_cp", "config:33" },
	{ "offcore_rsp", "config1:0-63" },
	{ "ldlat", "config1:0-15" },
	{ NULL },
};

static const struct fake_sysfs_entry intel_events[] = {
	{ "mem-loads", "event=0xcd,umask=0x1,ldlat=3" },
	{ "cycles-ct", "event=0x3c,in_tx=1,in_tx_cp=1" },
	{ NULL },
};

static const struct fake_sysfs_pmu intel[] = {
	{ "cpu", "4", NULL, intel_format, intel_events },
	{ "msr", "9", NULL, msr_format, msr_events },
	{ "uncore_imc_0", "20", NULL, imc_format, imc_events },
	{ "uncore_imc_1", "21", NULL, imc_format, imc_events },
};

/* AMD: a 12-bit event over config bits 0-7 and 32-35. */
static const struct fake_sysfs_entry amd_format[] = {
	{ "event", "config:0-7,32-35" },
	{ "umask", "config:8-15" },
	{ "inv", "config:23" },
	{ "cmask", "config:24-31" },
	{ NULL },
};

static const struct fake_sysfs_entry amd_events[] = {
	{ "ls-dispatch", "event=0x429,umask=0x7" },
	{ NULL },
};

static const struct fake_sysfs_pmu amd[] = {
	{ "cpu", "4", NULL, amd_format, amd_events },
};

/* A hybrid CPU: CPU 0 a big core, CPU 1 a small one. */
static const struct fake_sysfs_entry core_format[] = {
	{ "event", "config:0-7" },
	{ "umask", "config:8-15" },
	{ "ldlat", "config1:0-15" },
	{ NULL },
};

static const struct fake_sysfs_entry core_events[] = {
	{ "mem-loads", "event=0xcd,umask=0x1,ldlat=3" },
	{ "both-ev", "event=0x11" },
	{ NULL },
};

static const struct fake_sysfs_entry atom_format[] = {
	{ "event", "config:0-7" },
	{ "umask", "config:8-15" },
	{ NULL },
};

static const struct fake_sysfs_entry atom_events[] = {
	{ "both-ev", "event=0x11" },
	{ "topdown-bad-spec", "event=0x73,umask=0x6" },
	{ NULL },
};

static const struct fake_sysfs_pmu hybrid[] = {
	{ "cpu_core", "4", "0", core_format, core_events },
	{ "cpu_atom", "10", "1", atom_format, atom_events },
	{ "software", "1" },
};

static void trees_setup(void)
{
	fake_sysfs_setup("check_pmu_cores");
	fake_sysfs_pmus("intel/sys", intel, N_ROWS(intel));
	fake_sysfs_pmus("amd/sys", amd, N_ROWS(amd));
	fake_sysfs_pmus("hybrid/sys", hybrid, N_ROWS(hybrid));
	fake_sysfs_mkdir("events");
}

/* Look at machine m's sysfs, and a tracefs of no tracepoint: the same
 * answers whether or not this machine has tracefs mounted. */
static void use(const char *m)
{
	char sys[32];

	snprintf(sys, sizeof(sys), "%s/sys", m);
	fake_sysfs_use(sys, "events");
}

#define HW PERF_TYPE_HARDWARE
#define CACHE PERF_TYPE_HW_CACHE
#define ATOM(x) (0xa00000000ULL | (x))
#define CORE(x) (0x400000000ULL | (x))

static const struct row {
	int line;
	const char *machine, *spec;
	int n;
	struct want {
		const char *name;
		uint32_t type;
		uint64_t config, config1;
		size_t group;
		unsigned int cpus;	/* the CPUs it counts on of 0 and 1,
					 * a bit each; 0: every CPU */
		bool merges, ek;
	} ev[4];
} rows[] = {
	/* Intel's format terms, each in its bits. */
	{ __LINE__, "intel", "cpu/event=0x3c,umask=0x1,edge,inv,cmask=3/", 1,
	  { { "cpu/event=0x3c,umask=0x1,edge,inv,cmask=3/", 4, 0x384013c } } },
	{ __LINE__, "intel", "cpu/event=0xb7,umask=0x1,offcore_rsp=0x10001/", 1,
	  { { "cpu/event=0xb7,umask=0x1,offcore_rsp=0x10001/", 4, 0x1b7,
	      0x10001 } } },
	{ __LINE__, "intel", "cpu/event=0x3c,in_tx,in_tx_cp,any,pc/", 1,
	  { { "cpu/event=0x3c,in_tx,in_tx_cp,any,pc/", 4, 0x30028003cULL } } },
	{ __LINE__, "intel", "cpu/cycles-ct/", 1,
	  { { "cpu/cycles-ct/", 4, 0x30000003cULL } } },
	/* Terms and aliases in any case. */
	{ __LINE__, "intel", "cpu/EVENT=0x3c,Umask=1/", 1,
	  { { "cpu/EVENT=0x3c,Umask=1/", 4, 0x13c } } },
	{ __LINE__, "intel", "cpu/MEM-LOADS/", 1,
	  { { "cpu/MEM-LOADS/", 4, 0x1cd, 3 } } },
	{ __LINE__, "intel", "msr/TSC/", 1, { { "msr/TSC/", 9, 0 } } },
	/* Aliases without their PMU, named as typed. */
	{ __LINE__, "intel", "tsc", 1, { { "tsc", 9, 0 } } },
	{ __LINE__, "intel", "TSC:u", 1, { { "TSC:u", 9, 0, .ek = true } } },
	{ __LINE__, "intel", "mem-loads,tsc", 2,
	  { { "mem-loads", 4, 0x1cd, 3 }, { "tsc", 9, 0, .group = 1 } } },
	{ __LINE__, "intel", "{tsc,mem-loads}:u", 2,
	  { { "tsc:u", 9, 0, .ek = true },
	    { "mem-loads:u", 4, 0x1cd, 3, .ek = true } } },
	/* An alias of a PMU's instances adds up under one name. */
	{ __LINE__, "intel", "cas", 2,
	  { { "cas", 20, 4 }, { "cas", 21, 4, .group = 1, .merges = true } } },
	/* Not hybrid: a generic event is itself. */
	{ __LINE__, "intel", "cycles", 1, { { "cycles", HW, 0 } } },
	{ __LINE__, "intel", "r1a8", 1, { { "r1a8", PERF_TYPE_RAW, 0x1a8 } } },

	/* AMD's event, split over its bits. */
	{ __LINE__, "amd", "cpu/event=0x1c0,umask=0x1/", 1,
	  { { "cpu/event=0x1c0,umask=0x1/", 4, 0x1000001c0ULL } } },
	{ __LINE__, "amd", "cpu/event=0xfff/", 1,
	  { { "cpu/event=0xfff/", 4, 0xf000000ffULL } } },
	{ __LINE__, "amd", "ls-dispatch", 1,
	  { { "ls-dispatch", 4, 0x400000729ULL } } },

	/* Hybrid: once per core PMU, the PMU's type in config's top half,
	 * only on its CPUs, named after it. */
	{ __LINE__, "hybrid", "cycles", 2,
	  { { "cpu_atom/cycles/", HW, ATOM(0), .cpus = 2 },
	    { "cpu_core/cycles/", HW, CORE(0), .group = 1, .cpus = 1 } } },
	{ __LINE__, "hybrid", "instructions:u", 2,
	  { { "cpu_atom/instructions:u/", HW, ATOM(1), .cpus = 2,
	      .ek = true },
	    { "cpu_core/instructions:u/", HW, CORE(1), .group = 1,
	      .cpus = 1, .ek = true } } },
	{ __LINE__, "hybrid", "L1-dcache-load-misses", 2,
	  { { "cpu_atom/L1-dcache-load-misses/", CACHE, ATOM(0x10000),
	      .cpus = 2 },
	    { "cpu_core/L1-dcache-load-misses/", CACHE, CORE(0x10000),
	      .group = 1, .cpus = 1 } } },
	{ __LINE__, "hybrid", "r1a8", 2,
	  { { "cpu_atom/r1a8/", 10, 0x1a8, .cpus = 2 },
	    { "cpu_core/r1a8/", 4, 0x1a8, .group = 1, .cpus = 1 } } },
	{ __LINE__, "hybrid", "cpu_core/cycles/", 1,
	  { { "cpu_core/cycles/", HW, CORE(0), .cpus = 1 } } },
	{ __LINE__, "hybrid", "cpu_atom/event=0x3c/", 1,
	  { { "cpu_atom/event=0x3c/", 10, 0x3c, .cpus = 2 } } },
	/* A group a core PMU each; the software event leads the first. */
	{ __LINE__, "hybrid", "{cycles,instructions}", 4,
	  { { "cpu_atom/cycles/", HW, ATOM(0), .cpus = 2 },
	    { "cpu_atom/instructions/", HW, ATOM(1), .cpus = 2 },
	    { "cpu_core/cycles/", HW, CORE(0), .group = 1, .cpus = 1 },
	    { "cpu_core/instructions/", HW, CORE(1), .group = 1,
	      .cpus = 1 } } },
	{ __LINE__, "hybrid", "{task-clock,cycles}", 3,
	  { { "task-clock", PERF_TYPE_SOFTWARE, 1 },
	    { "cpu_atom/cycles/", HW, ATOM(0), .cpus = 2 },
	    { "cpu_core/cycles/", HW, CORE(0), .group = 1, .cpus = 1 } } },
	/* An alias of one core PMU, or of both: named after each. */
	{ __LINE__, "hybrid", "mem-loads", 1,
	  { { "cpu_core/mem-loads/", 4, 0x1cd, 3, .cpus = 1 } } },
	{ __LINE__, "hybrid", "TOPDOWN-BAD-SPEC", 1,
	  { { "cpu_atom/TOPDOWN-BAD-SPEC/", 10, 0x673, .cpus = 2 } } },
	{ __LINE__, "hybrid", "both-ev", 2,
	  { { "cpu_atom/both-ev/", 10, 0x11, .cpus = 2 },
	    { "cpu_core/both-ev/", 4, 0x11, .group = 1, .cpus = 1 } } },
	{ __LINE__, "hybrid", "task-clock", 1,
	  { { "task-clock", PERF_TYPE_SOFTWARE, 1 } } },
};

static void check_event(const struct row *t, const struct evlist *el, int i)
{
	const struct want *w = &t->ev[i];
	const struct evsel *e = evlist_at(el, (size_t)i);
	const struct perf_event_attr *a = evsel_attr(e);
	int cpu;

	ck_assert_msg(strcmp(evsel_name(e), w->name) == 0,
		      "line %d: event %d is '%s', want '%s'", t->line, i,
		      evsel_name(e), w->name);
	ck_assert_msg(a->type == w->type && a->config == w->config &&
		      a->config1 == w->config1,
		      "line %d: %s: type %u config %#llx config1 %#llx, want %u %#llx %#llx",
		      t->line, w->name, a->type, (unsigned long long)a->config,
		      (unsigned long long)a->config1, w->type,
		      (unsigned long long)w->config,
		      (unsigned long long)w->config1);
	ck_assert_msg(evlist_group_of(el, (size_t)i).index == w->group,
		      "line %d: %s in group %zu, want %zu", t->line, w->name,
		      evlist_group_of(el, (size_t)i).index, w->group);
	ck_assert_msg(evsel_merges(e) == w->merges, "line %d: %s merges",
		      t->line, w->name);
	ck_assert_msg(a->exclude_kernel == w->ek, "line %d: %s exclude_kernel",
		      t->line, w->name);
	for (cpu = 0; cpu < 2; cpu++)
		ck_assert_msg(evsel_counts_on(e, cpu) ==
			      (!w->cpus || (w->cpus & (1u << cpu))),
			      "line %d: %s on CPU %d", t->line, w->name, cpu);
}

START_TEST(test_encode)
{
	const struct row *t = &rows[_i];
	struct evlist *el = evlist_new();
	struct error err = { 0 };
	int i, ret;

	use(t->machine);
	ret = evparse(el, t->spec, &err);
	ck_assert_msg(ret == 0, "line %d: '%s' refused: %s", t->line, t->spec,
		      err.reason);
	ck_assert_msg((int)evlist_count(el) == t->n,
		      "line %d: '%s' gave %zu events, want %d", t->line,
		      t->spec, evlist_count(el), t->n);
	for (i = 0; i < t->n; i++)
		check_event(t, el, i);
	error_fini(&err);
	evlist_free(el);
}
END_TEST

static const struct bad_row {
	int line;
	const char *machine, *spec;
	size_t col;
	const char *reason;
} bad_rows[] = {
	{ __LINE__, "amd", "cpu/event=0x1000/", 10, "does not fit term 'event'" },
	{ __LINE__, "intel", "{cas}", 1, "cannot share a group" },
	{ __LINE__, "intel", "nosuch", 0, "unknown event 'nosuch'" },
	{ __LINE__, "intel", "tsc:x", 0, "unknown" },
	/* cpu/cycles/ is perf's on a hybrid core PMU only. */
	{ __LINE__, "intel", "cpu/cycles/", 4, "no term or event 'cycles'" },
	{ __LINE__, "hybrid", "cpu_core/cycles,event=1/", 9,
	  "no term or event 'cycles'" },
	{ __LINE__, "hybrid", "cpu_atom/mem-loads/", 9,
	  "no term or event 'mem-loads'" },
};

START_TEST(test_refused)
{
	const struct bad_row *t = &bad_rows[_i];
	struct evlist *el = evlist_new();
	struct error err = { 0 };
	int ret;

	use(t->machine);
	ret = evparse(el, t->spec, &err);
	ck_assert_msg(ret == -EINVAL, "line %d: '%s' returned %d", t->line,
		      t->spec, ret);
	ck_assert_msg(strstr(err.reason, t->reason) && err.col == t->col,
		      "line %d: '%s': '%s' at %zu, want '%s' at %zu", t->line,
		      t->spec, err.reason, err.col, t->reason, t->col);
	error_fini(&err);
	evlist_free(el);
}
END_TEST

START_TEST(test_hybrid_cores)
{
	char **names;
	int n;

	use("hybrid");
	n = pmu_hybrid_cores(&names);
	ck_assert_int_eq(n, 2);
	ck_assert_str_eq(names[0], "cpu_atom");
	ck_assert_str_eq(names[1], "cpu_core");
	pmu_instances_free(names, n);
	ck_assert(pmu_is_hybrid_core("cpu_core"));
	ck_assert(!pmu_is_hybrid_core("software"));
	ck_assert(pmu_have_core_pmu());
	use("intel");
	ck_assert_int_eq(pmu_hybrid_cores(&names), 0);
	ck_assert(!pmu_is_hybrid_core("cpu"));
}
END_TEST

START_TEST(test_lookup)
{
	char real[64], **pmus;
	int n;

	use("intel");
	ck_assert_int_eq(pmu_lookup("msr", "events", "TsC", real,
				    sizeof(real)), 0);
	ck_assert_str_eq(real, "tsc");
	ck_assert_int_eq(pmu_lookup("cpu", "format", "UMASK", real,
				    sizeof(real)), 0);
	ck_assert_str_eq(real, "umask");
	ck_assert_int_eq(pmu_lookup("msr", "events", "nosuch", real,
				    sizeof(real)), -ENOENT);
	ck_assert_int_eq(pmu_lookup("msr", "events", "../type", real,
				    sizeof(real)), -ENOENT);
	n = pmu_alias_owners("CAS", 3, &pmus);
	ck_assert_int_eq(n, 2);
	ck_assert_str_eq(pmus[0], "uncore_imc_0");
	ck_assert_str_eq(pmus[1], "uncore_imc_1");
	pmu_instances_free(pmus, n);
	ck_assert_int_eq(pmu_alias_owners("nosuch", 6, &pmus), 0);
}
END_TEST

START_TEST(test_on_core_pmu)
{
	struct perf_event_attr a;

	event_attr_init(&a);
	a.type = PERF_TYPE_HW_CACHE;
	a.config = 0x10002;
	event_on_core_pmu(&a, 8);
	ck_assert_uint_eq(a.config, 0x800010002ULL);
	a.type = PERF_TYPE_RAW;
	a.config = 0x1a8;
	event_on_core_pmu(&a, 10);
	ck_assert_uint_eq(a.type, 10);
	ck_assert_uint_eq(a.config, 0x1a8);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = 1;
	event_on_core_pmu(&a, 10);
	ck_assert_uint_eq(a.type, PERF_TYPE_SOFTWARE);
	ck_assert_uint_eq(a.config, 1);
}
END_TEST

static Suite *pmu_cores_suite(void)
{
	Suite *s = suite_create("pmu_cores");
	TCase *tc = tcase_create("cores");

	tcase_add_unchecked_fixture(tc, trees_setup, fake_sysfs_teardown);
	tcase_add_loop_test(tc, test_encode, 0, N_ROWS(rows));
	tcase_add_loop_test(tc, test_refused, 0, N_ROWS(bad_rows));
	tcase_add_test(tc, test_hybrid_cores);
	tcase_add_test(tc, test_lookup);
	tcase_add_test(tc, test_on_core_pmu);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(pmu_cores_suite());
}
