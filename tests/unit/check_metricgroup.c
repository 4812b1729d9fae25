/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of -M's grouping (metricgroup.c) against perf 6.1: a few of
 * Skylake-X's metrics of linux-source-6.1, in a table of the suite's own
 * in a fake sysfs with Skylake-X's core PMU, give the groups that perf
 * 6.1 -vv printed for them ("Parsing metric events '...'", written down
 * here with their metric-id= left out), and the attrs it printed.
 * perf's group order is the order of its hashmap's buckets, its metrics
 * sorted by how many events each reads, a metric reads an earlier
 * one's group when that holds all its events, the tool events go in
 * every group, and #core_wide is 0 for a command.
 */
#include "config.h"

#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "error.h"
#include "evlist.h"
#include "evsel.h"
#include "fake_sysfs.h"
#include "metricgroup.h"
#include "unit.h"

static const struct fake_sysfs_entry intel_format[] = {
	{ "event", "config:0-7" },
	{ "umask", "config:8-15" },
	{ "edge", "config:18" },
	{ "pc", "config:19" },
	{ "any", "config:21" },
	{ "inv", "config:23" },
	{ "cmask", "config:24-31" },
	{ NULL },
};

/* Icelake's and later's: perf metrics, which perf 6.1 knows by slots. */
static const struct fake_sysfs_entry topdown_events[] = {
	{ "slots", "event=0x00,umask=0x4" },
	{ "topdown-retiring", "event=0x00,umask=0x80" },
	{ "topdown-fe-bound", "event=0x00,umask=0x82" },
	{ NULL },
};

static const struct fake_sysfs_entry msr_format[] = {
	{ "event", "config:0-63" },
	{ NULL },
};

static const struct fake_sysfs_entry msr_events[] = {
	{ "tsc", "event=0x00" },
	{ NULL },
};

static const struct fake_sysfs_pmu pmus[] = {
	{ "cpu", "4", NULL, intel_format, topdown_events },
	{ "msr", "9", NULL, msr_format, msr_events },
};

/* Skylake-X's events that the metrics below read, as its JSON has them. */
static const char events_json[] =
	"[{\"EventName\": \"CPU_CLK_UNHALTED.REF_XCLK\", \"EventCode\": \"0x3C\", \"UMask\": \"0x1\"},"
	" {\"EventName\": \"INT_MISC.RECOVERY_CYCLES\", \"EventCode\": \"0x0D\", \"UMask\": \"0x1\"},"
	" {\"EventName\": \"CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE\", \"EventCode\": \"0x3C\", \"UMask\": \"0x2\"},"
	" {\"EventName\": \"CPU_CLK_UNHALTED.THREAD\", \"EventCode\": \"0x3C\"},"
	" {\"EventName\": \"UOPS_RETIRED.RETIRE_SLOTS\", \"EventCode\": \"0xC2\", \"UMask\": \"0x2\"},"
	" {\"EventName\": \"UOPS_ISSUED.ANY\", \"EventCode\": \"0x0E\", \"UMask\": \"0x1\"},"
	" {\"EventName\": \"IDQ_UOPS_NOT_DELIVERED.CORE\", \"EventCode\": \"0x9C\", \"UMask\": \"0x1\"},"
	" {\"EventName\": \"INT_MISC.RECOVERY_CYCLES_ANY\", \"EventCode\": \"0x0D\", \"UMask\": \"0x1\", \"AnyThread\": \"1\"},"
	" {\"EventName\": \"CPU_CLK_UNHALTED.THREAD_ANY\", \"EventCode\": \"0x3C\", \"AnyThread\": \"1\"},"
	" {\"EventName\": \"CPU_CLK_UNHALTED.THREAD_P\", \"EventCode\": \"0x3C\"},"
	" {\"EventName\": \"CPU_CLK_UNHALTED.REF_TSC\", \"UMask\": \"0x3\"},"
	" {\"EventName\": \"INST_RETIRED.ANY_P\", \"EventCode\": \"0xC0\"},"
	" {\"EventName\": \"INST_RETIRED.ANY\", \"UMask\": \"0x1\"},"
	" {\"EventName\": \"UOPS_EXECUTED.THREAD\", \"EventCode\": \"0xB1\", \"UMask\": \"0x1\"},"
	" {\"EventName\": \"TOPDOWN.SLOTS\", \"EventCode\": \"0x00\", \"UMask\": \"0x4\"}]\n";

/* And its metrics (perf 6.1's skx-metrics.json), descriptions shortened. */
static const char metrics_json[] =
	"[{\"BriefDescription\": \"f\", \"MetricName\": \"tma_frontend_bound\", \"MetricGroup\": \"PGO;TopdownL1;tma_L1_group\","
	"  \"MetricExpr\": \"IDQ_UOPS_NOT_DELIVERED.CORE / SLOTS\", \"ScaleUnit\": \"100%\"},"
	" {\"BriefDescription\": \"b\", \"MetricName\": \"tma_backend_bound\", \"MetricGroup\": \"TopdownL1;tma_L1_group\","
	"  \"MetricExpr\": \"1 - tma_frontend_bound - (UOPS_ISSUED.ANY + 4 * ((INT_MISC.RECOVERY_CYCLES_ANY / 2) if #SMT_on else INT_MISC.RECOVERY_CYCLES)) / SLOTS\", \"ScaleUnit\": \"100%\"},"
	" {\"BriefDescription\": \"s\", \"MetricName\": \"tma_bad_speculation\", \"MetricGroup\": \"TopdownL1;tma_L1_group\","
	"  \"MetricExpr\": \"(UOPS_ISSUED.ANY - UOPS_RETIRED.RETIRE_SLOTS + 4 * ((INT_MISC.RECOVERY_CYCLES_ANY / 2) if #SMT_on else INT_MISC.RECOVERY_CYCLES)) / SLOTS\", \"ScaleUnit\": \"100%\"},"
	" {\"BriefDescription\": \"r\", \"MetricName\": \"tma_retiring\", \"MetricGroup\": \"TopdownL1;tma_L1_group\","
	"  \"MetricExpr\": \"UOPS_RETIRED.RETIRE_SLOTS / SLOTS\", \"ScaleUnit\": \"100%\"},"
	" {\"BriefDescription\": \"t\", \"MetricName\": \"SLOTS\", \"MetricGroup\": \"tma_L1_group\", \"MetricExpr\": \"4 * CORE_CLKS\"},"
	" {\"BriefDescription\": \"c\", \"MetricName\": \"CORE_CLKS\", \"MetricGroup\": \"SMT\","
	"  \"MetricExpr\": \"((CPU_CLK_UNHALTED.THREAD / 2) * (1 + CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE / CPU_CLK_UNHALTED.REF_XCLK)) if #core_wide < 1 else (CPU_CLK_UNHALTED.THREAD_ANY / 2) if #SMT_on else CLKS\"},"
	" {\"BriefDescription\": \"k\", \"MetricName\": \"CLKS\", \"MetricGroup\": \"Pipeline\", \"MetricExpr\": \"CPU_CLK_UNHALTED.THREAD\"},"
	" {\"BriefDescription\": \"i\", \"MetricName\": \"IPC\", \"MetricGroup\": \"Ret;Summary\", \"MetricExpr\": \"INST_RETIRED.ANY / CLKS\"},"
	" {\"BriefDescription\": \"u\", \"MetricName\": \"Turbo_Utilization\", \"MetricGroup\": \"Power\", \"MetricExpr\": \"CLKS / CPU_CLK_UNHALTED.REF_TSC\"},"
	" {\"BriefDescription\": \"a\", \"MetricName\": \"Average_Frequency\", \"MetricGroup\": \"Power;Summary\","
	"  \"MetricExpr\": \"Turbo_Utilization * msr@tsc@ / 1000000000 / duration_time\"},"
	" {\"BriefDescription\": \"o\", \"MetricName\": \"Kernel_CPI\", \"MetricGroup\": \"OS\","
	"  \"MetricExpr\": \"CPU_CLK_UNHALTED.THREAD_P:k / INST_RETIRED.ANY_P:k\"},"
	" {\"BriefDescription\": \"e\", \"MetricName\": \"Execute\", \"MetricGroup\": \"Cor;Pipeline;PortsUtil;SMT\","
	"  \"MetricExpr\": \"UOPS_EXECUTED.THREAD / cpu@UOPS_EXECUTED.THREAD\\\\,cmask\\\\=1@\"},"
	" {\"BriefDescription\": \"d\", \"MetricName\": \"td_retiring\","
	"  \"MetricExpr\": \"topdown\\\\-retiring / (topdown\\\\-fe\\\\-bound + TOPDOWN.SLOTS)\"}]\n";

static void tree_setup(void)
{
	char dir[PATH_MAX];

	fake_sysfs_setup("check_metricgroup");
	fake_sysfs_pmus("sys", pmus, N_ROWS(pmus));
	/* One thread a core: #SMT_on is 0. */
	fake_sysfs_write("sys/devices/system/cpu/smt/active", "0\n");
	fake_sysfs_write("tables/arch/x86/mapfile.csv",
			 "Family-model,Version,Filename,EventType\n"
			 "GenuineIntel-6-55-[01234],v1.28,skylakex,core\n");
	fake_sysfs_write("tables/arch/x86/skylakex/pipeline.json",
			 events_json);
	fake_sysfs_write("tables/arch/x86/skylakex/skx-metrics.json",
			 metrics_json);
	fake_sysfs_mkdir("events");
	fake_sysfs_use("sys", "events");
	fake_sysfs_path(dir, sizeof(dir), "tables");
	ck_assert_int_eq(setenv("PSTAT_PMU_EVENTS", dir, 1), 0);
	ck_assert_int_eq(setenv("PERF_CPUID", "GenuineIntel-6-55-4", 1), 0);
}

static void tree_teardown(void)
{
	unsetenv("PSTAT_PMU_EVENTS");
	unsetenv("PERF_CPUID");
	fake_sysfs_teardown();
}

/* -M LIST's groups (with options o), as --explain writes them. */
static char *groups_with(const char *list, const struct metricgroup_opts *o,
			 struct evlist **elp)
{
	const char *lists[] = { list };
	struct metricgroup *mg;
	struct error err = { 0 };
	struct evlist *el = evlist_new();
	char *text = NULL, *line, *out;
	size_t len = 0;
	FILE *f;
	int ret;

	ck_assert_ptr_nonnull(el);
	ret = metricgroup_add(&mg, lists, 1, o, el, &err);
	ck_assert_msg(ret == 0, "-M %s: %d: %s", list, ret, err.reason);
	f = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(f);
	metricgroup_explain(f, mg, el);
	ck_assert_int_eq(fclose(f), 0);
	out = calloc(1, len + 1);
	ck_assert_ptr_nonnull(out);
	for (line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
		/* "  group N: ...", not the counters' "  group of ...". */
		if (strncmp(line, "  group ", 8) == 0 && isdigit(line[8]))
			strcat(strcat(out, strchr(line, ':') + 2), "\n");
	free(text);
	metricgroup_free(mg);
	error_fini(&err);
	if (elp)
		*elp = el;
	else
		evlist_free(el);
	return out;
}

static char *groups_of(const char *list, struct evlist **elp)
{
	const struct metricgroup_opts o = { 0 };

	return groups_with(list, &o, elp);
}

/* -M lists, and the groups perf 6.1 -vv parses for each. */
static const struct group_row {
	int line;
	const char *list, *groups;
	struct metricgroup_opts o;
} group_rows[] = {
	/*
	 * Its buckets' order; CORE_CLKS's first branch (#core_wide is 0
	 * for a command); the four sorted by their events, six, six, four,
	 * four, the last two reading the first two's groups.
	 */
	{ __LINE__, "TopdownL1",
	  "{CPU_CLK_UNHALTED.REF_XCLK,INT_MISC.RECOVERY_CYCLES,CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE,CPU_CLK_UNHALTED.THREAD,UOPS_RETIRED.RETIRE_SLOTS,UOPS_ISSUED.ANY}\n"
	  "{CPU_CLK_UNHALTED.REF_XCLK,INT_MISC.RECOVERY_CYCLES,IDQ_UOPS_NOT_DELIVERED.CORE,CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE,CPU_CLK_UNHALTED.THREAD,UOPS_ISSUED.ANY}\n" },
	/* duration_time goes with every group, after it. */
	{ __LINE__, "Average_Frequency,IPC",
	  "{CPU_CLK_UNHALTED.THREAD,CPU_CLK_UNHALTED.REF_TSC,msr@tsc@},duration_time\n"
	  "{INST_RETIRED.ANY,CPU_CLK_UNHALTED.THREAD},duration_time\n" },
	/* A table's event with a modifier. */
	{ __LINE__, "Kernel_CPI",
	  "{CPU_CLK_UNHALTED.THREAD_P:k,INST_RETIRED.ANY_P:k}\n" },
	/* A table's event in pmu@terms@. */
	{ __LINE__, "Execute",
	  "{UOPS_EXECUTED.THREAD,cpu@UOPS_EXECUTED.THREAD,cmask=1@}\n" },
	/* Two words: sorted by events, the last word's first on a tie. */
	{ __LINE__, "tma_retiring,Kernel_CPI",
	  "{CPU_CLK_UNHALTED.REF_XCLK,CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE,CPU_CLK_UNHALTED.THREAD,UOPS_RETIRED.RETIRE_SLOTS}\n"
	  "{CPU_CLK_UNHALTED.THREAD_P:k,INST_RETIRED.ANY_P:k}\n" },
	/* --metric-no-group: one list of all the metrics' events. */
	{ __LINE__, "Average_Frequency,IPC",
	  "INST_RETIRED.ANY,CPU_CLK_UNHALTED.THREAD,CPU_CLK_UNHALTED.REF_TSC,msr@tsc@,duration_time\n",
	  { .no_group = true } },
	{ __LINE__, "TopdownL1",
	  "CPU_CLK_UNHALTED.REF_XCLK,IDQ_UOPS_NOT_DELIVERED.CORE,INT_MISC.RECOVERY_CYCLES,CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE,CPU_CLK_UNHALTED.THREAD,UOPS_RETIRED.RETIRE_SLOTS,UOPS_ISSUED.ANY\n",
	  { .no_group = true } },
	/* --metric-no-merge: a group each, tool events only where read. */
	{ __LINE__, "Average_Frequency,IPC",
	  "{CPU_CLK_UNHALTED.THREAD,CPU_CLK_UNHALTED.REF_TSC,msr@tsc@},duration_time\n"
	  "{INST_RETIRED.ANY,CPU_CLK_UNHALTED.THREAD}\n",
	  { .no_merge = true } },
	{ __LINE__, "TopdownL1",
	  "{CPU_CLK_UNHALTED.REF_XCLK,INT_MISC.RECOVERY_CYCLES,CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE,CPU_CLK_UNHALTED.THREAD,UOPS_RETIRED.RETIRE_SLOTS,UOPS_ISSUED.ANY}\n"
	  "{CPU_CLK_UNHALTED.REF_XCLK,INT_MISC.RECOVERY_CYCLES,IDQ_UOPS_NOT_DELIVERED.CORE,CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE,CPU_CLK_UNHALTED.THREAD,UOPS_ISSUED.ANY}\n"
	  "{CPU_CLK_UNHALTED.REF_XCLK,CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE,CPU_CLK_UNHALTED.THREAD,UOPS_RETIRED.RETIRE_SLOTS}\n"
	  "{CPU_CLK_UNHALTED.REF_XCLK,IDQ_UOPS_NOT_DELIVERED.CORE,CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE,CPU_CLK_UNHALTED.THREAD}\n",
	  { .no_merge = true } },
	{ __LINE__, "Kernel_CPI,Execute",
	  "{UOPS_EXECUTED.THREAD,cpu@UOPS_EXECUTED.THREAD,cmask=1@}\n"
	  "{CPU_CLK_UNHALTED.THREAD_P:k,INST_RETIRED.ANY_P:k}\n",
	  { .no_merge = true } },
};

START_TEST(test_groups)
{
	const struct group_row *r = &group_rows[_i];
	char *got = groups_with(r->list, &r->o, NULL);

	ck_assert_msg(strcmp(got, r->groups) == 0,
		      "line %d: -M %s: groups\n%swant\n%s", r->line, r->list,
		      got, r->groups);
	free(got);
}
END_TEST

/* The encodings perf 6.1 -vv printed for the events of a metric. */
static const struct attr_row {
	int line;
	const char *list;
	size_t i;			/* el's event */
	unsigned long long config;
	unsigned exclude_user, exclude_hv;
} attr_rows[] = {
	/* :k as perf's: exclude_user and exclude_hv. */
	{ __LINE__, "Kernel_CPI", 0, 0x3c, 1, 1 },
	{ __LINE__, "Kernel_CPI", 1, 0xc0, 1, 1 },
	/* UOPS_EXECUTED.THREAD's terms with cmask=1 after them. */
	{ __LINE__, "Execute", 1, 0x10001b1, 0, 0 },
};

START_TEST(test_attrs)
{
	const struct attr_row *r = &attr_rows[_i];
	struct evlist *el = NULL;
	const struct perf_event_attr *a;

	free(groups_of(r->list, &el));
	ck_assert_uint_gt(evlist_count(el), r->i);
	a = evsel_attr(evlist_at(el, r->i));
	ck_assert_msg(a->config == r->config, "line %d: config %#llx, want %#llx",
		      r->line, (unsigned long long)a->config, r->config);
	ck_assert_uint_eq(a->exclude_user, r->exclude_user);
	ck_assert_uint_eq(a->exclude_hv, r->exclude_hv);
	evlist_free(el);
}
END_TEST

/*
 * perf 6.1's arch_evlist__leader: where the core PMU (of type 4) has a
 * slots event, a group with a topdown event is led by its slots event,
 * wherever the hashmap put it; without one, nothing moves.
 */
START_TEST(test_slots_lead)
{
	struct evlist *el = NULL;
	char *groups = groups_of("td_retiring", &el), path[PATH_MAX];

	ck_assert_msg(strstr(groups, "TOPDOWN.SLOTS") !=
		      strchr(groups, '{') + 1, "TOPDOWN.SLOTS first already: %s",
		      groups);
	ck_assert_uint_eq(evlist_count(el), 3);
	ck_assert_str_eq(evsel_name(evlist_at(el, 0)), "TOPDOWN.SLOTS");
	ck_assert_uint_eq(evsel_attr(evlist_at(el, 0))->config, 0x400);
	free(groups);
	evlist_free(el);
	fake_sysfs_path(path, sizeof(path),
			"sys/bus/event_source/devices/cpu/events/slots");
	ck_assert_int_eq(unlink(path), 0);
	free(groups_of("td_retiring", &el));
	ck_assert_str_ne(evsel_name(evlist_at(el, 0)), "TOPDOWN.SLOTS");
	evlist_free(el);
}
END_TEST

/* Each event's value: its index in el, and 1000 over. */
static enum counts_state index_value(void *arg, size_t i, double *v,
				     double *running_pct)
{
	(void)arg;
	*v = 1000.0 + (double)i;
	*running_pct = 100.0;
	return COUNTS_COUNTED;
}

/*
 * A metric reads its own group's events, as perf's do: IPC's
 * CPU_CLK_UNHALTED.THREAD is the one in its group, not Average_Frequency's
 * copy in the group before (under multiplexing the two ran at other
 * times).
 */
START_TEST(test_own_group)
{
	const char *lists[] = { "Average_Frequency,IPC" };
	const struct metricgroup_opts o = { 0 };
	const struct metricgroup_values v = {
		.event = index_value, .wall_ns = 1e9, .user_ns = 0,
		.system_ns = 0,
	};
	struct error err = { 0 };
	struct evlist *el = evlist_new();
	struct metricgroup *mg;
	struct metric m[8];
	size_t i, inst = SIZE_MAX, thread = SIZE_MAX, first_thread = SIZE_MAX;
	int n, k;

	ck_assert_ptr_nonnull(el);
	ck_assert_int_eq(metricgroup_add(&mg, lists, 1, &o, el, &err), 0);
	for (i = 0; i < evlist_count(el); i++) {
		const char *name = evsel_name(evlist_at(el, i));

		if (strcmp(name, "INST_RETIRED.ANY") == 0)
			inst = i;
		if (strcmp(name, "CPU_CLK_UNHALTED.THREAD") == 0) {
			if (first_thread == SIZE_MAX)
				first_thread = i;
			thread = i;
		}
	}
	/* Two copies, IPC's the last, in INST_RETIRED.ANY's group. */
	ck_assert_uint_ne(first_thread, thread);
	ck_assert_uint_eq(evlist_group_of(el, inst).index,
			  evlist_group_of(el, thread).index);
	n = metricgroup_row(mg, evlist_group_of(el, inst).first, &v, m, 8);
	for (k = 0; k < n && strcmp(m[k].name, "IPC") != 0; k++)
		;
	ck_assert_int_lt(k, n);
	ck_assert_double_eq_tol(m[k].value,
				(1000.0 + (double)inst) / (1000.0 + (double)thread),
				1e-12);
	metricgroup_free(mg);
	evlist_free(el);
	error_fini(&err);
}
END_TEST

static Suite *metricgroup_suite(void)
{
	Suite *s = suite_create("metricgroup");
	TCase *tc = tcase_create("perf 6.1");

	tcase_add_checked_fixture(tc, tree_setup, tree_teardown);
	tcase_add_loop_test(tc, test_groups, 0, N_ROWS(group_rows));
	tcase_add_loop_test(tc, test_attrs, 0, N_ROWS(attr_rows));
	tcase_add_test(tc, test_slots_lead);
	tcase_add_test(tc, test_own_group);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(metricgroup_suite());
}
