/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of expr.c: perf's metric expressions, their identifiers,
 * their values as perf 6.12 computes them, the events they need, and
 * the column of every fault. The suite links with --wrap for malloc,
 * calloc and realloc, so that each allocation can be made to fail.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <check.h>

#include "error.h"
#include "expr.h"
#include "alloc_fail.h"
#include "unit.h"

/* Counts as a run might give them: each distinct, none round. */
#define CLK 120000.0		/* CPU_CLK_UNHALTED.THREAD */
#define INST 310000.0		/* INST_RETIRED.ANY */
#define REF_TSC 100000.0	/* CPU_CLK_UNHALTED.REF_TSC */
#define TSC 250000.0
#define C6 37500.0		/* cstate_core@c6-residency@ */
#define CHA_MISS 2300.0
#define CAS_RD 51000.0
#define CAS_WR 17000.0
#define DURATION 1.25		/* duration_time, in seconds */
#define FE 0.21			/* tma_frontend_bound */
#define UOPS 290000.0		/* UOPS_ISSUED.ANY */
#define REC_ANY 9000.0		/* INT_MISC.RECOVERY_CYCLES_ANY */
#define REC 4100.0		/* INT_MISC.RECOVERY_CYCLES */
#define SLOTS 480000.0		/* tma_info_thread_slots */
#define ONE 30000.0		/* CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE */
#define XCLK 8000.0		/* CPU_CLK_UNHALTED.REF_XCLK */
#define CORE_B 0.12		/* tma_core_bound */
#define PORTS 0.3		/* tma_ports_utilization */
#define SMT2T 0.62		/* tma_info_system_smt_2t_utilization */
#define PU0 0.07		/* tma_ports_utilized_0 */
#define E1 21000.0		/* EXE_ACTIVITY.1_PORTS_UTIL */
#define E2 15000.0		/* EXE_ACTIVITY.2_PORTS_UTIL */
#define RETIRING 0.35		/* tma_retiring */
#define DIVIDER 700.0		/* ARITH.DIVIDER_ACTIVE */
#define STALLS 50000.0		/* CYCLE_ACTIVITY.STALLS_TOTAL */
#define STALLS_MEM 26000.0	/* CYCLE_ACTIVITY.STALLS_MEM_ANY */
#define STALLS_L1D 19000.0	/* CYCLE_ACTIVITY.STALLS_L1D_MISS */
#define OFFCORE 140000.0	/* cpu@OFFCORE_REQUESTS_OUTSTANDING... */
#define CYC_T 80000.0		/* cycles-t */
#define CYC_CT 65000.0		/* cycles-ct */
#define CYCLES 118000.0
#define CHA_CLK 3.3e9		/* UNC_CHA_CLOCKTICKS */
#define APERF 125000.0		/* msr@aperf@ */
#define SMI 2.0			/* msr@smi@ */
#define CLK_K 4000.0		/* CPU_CLK_UNHALTED.THREAD_P:k */
#define INST_K 2500.0		/* INST_RETIRED.ANY_P:k */
#define FLITS 9.1e6		/* UNC_UPI_RxL_FLITS.ALL_DATA */
#define CPUS_UTIL 3.7		/* tma_info_system_cpus_utilized */
#define ALIAS4K 0.25		/* tma_4k_aliasing */
#define L1_B 0.13		/* tma_l1_bound */
#define MEM_B 0.22		/* tma_memory_bound */
#define BE 0.31			/* tma_backend_bound */
#define OCC 8.8e6		/* cha@UNC_CHA_TOR_OCCUPANCY... */
#define INS 4400.0		/* cha@UNC_CHA_TOR_INSERTS... */
#define MISP 1200.0		/* ex_ret_brn_misp */
#define BRN 61000.0		/* ex_ret_brn */
#define L2_A 7000.0
#define L2_B 3100.0
#define L2_C 900.0
#define L2_D 450.0
#define LAT 880000.0		/* l3_xi_sampled_latency.all */
#define LAT_N 2200.0		/* l3_xi_sampled_latency_requests.all */
#define NOFE 96000.0		/* de_no_dispatch_per_slot.no_ops_... */
#define NOFE6 5500.0		/* the same, cmask=0x6 */
#define TDS 720000.0		/* total_dispatch_slots */
#define BE_Z4 0.27		/* backend_bound */
#define LNC 33000.0		/* ex_no_retire.load_not_complete */
#define UMC_SLOT 150000.0
#define UMC_CLK 410000.0
#define UMC_RD 77000.0
#define N1_INST 500000.0	/* INST_RETIRED */
#define N1_CYC 410000.0		/* CPU_CYCLES */
#define LL_RD 6300.0
#define LL_MISS 2100.0
#define BR_IMM 44000.0
#define BR_IND 3000.0
#define INST_SPEC 530000.0
#define OP_RET 600000.0		/* op_retired and OP_RETIRED */
#define OP_SPEC 640000.0
#define STALL 700000.0		/* stall_slot and STALL_SLOT */
#define STALL_FE 260000.0	/* stall_slot_frontend */

/* The literals of the test machine. */
#define NUM_CPUS 8.0
#define NUM_ONLINE 6.0
#define NUM_PACKAGES 2.0
#define NUM_DIES 2.0
#define NUM_CORES 4.0
#define N_SLOTS 5.0
#define TSC_FREQ 2.1e9

/* The identifiers the environment knows; has_event says these exist. */
static const struct value {
	const char *name;
	double v;
} values[] = {
	{ "A", 6 }, { "B", 3 }, { "Z", 0 }, { "N", NAN }, { "INF", INFINITY },
	{ "topdown-fe-bound", 5 }, { "cpu@INST_RETIRED.ANY@", 1000 },
	{ "msr@tsc@", 7 }, { "ev,p=1@", 11 }, { "cycles:u", 13 },
	{ "duration_time", DURATION }, { "ifx", 17 }, { "1E5", 19 },
	{ "0x10", 23 }, { "EVENT1", 29 }, { "EVENT2", 31 }, { "EVENT3", 37 },
	{ "CPU_CLK_UNHALTED.THREAD", CLK }, { "INST_RETIRED.ANY", INST },
	{ "CPU_CLK_UNHALTED.REF_TSC", REF_TSC }, { "TSC", TSC },
	{ "cstate_core@c6-residency@", C6 },
	{ "cha@UNC_CHA_TOR_INSERTS.IA_MISS,config1=0x12d40433@", CHA_MISS },
	{ "UNC_M_CAS_COUNT.RD", CAS_RD }, { "UNC_M_CAS_COUNT.WR", CAS_WR },
	{ "tma_frontend_bound", FE }, { "UOPS_ISSUED.ANY", UOPS },
	{ "INT_MISC.RECOVERY_CYCLES_ANY", REC_ANY },
	{ "INT_MISC.RECOVERY_CYCLES", REC }, { "tma_info_thread_slots", SLOTS },
	{ "CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE", ONE },
	{ "CPU_CLK_UNHALTED.REF_XCLK", XCLK },
	{ "CPU_CLK_UNHALTED.THREAD_ANY", 2 * CLK },
	{ "tma_info_thread_clks", CLK }, { "tma_core_bound", CORE_B },
	{ "tma_ports_utilization", PORTS },
	{ "tma_info_system_smt_2t_utilization", SMT2T },
	{ "tma_ports_utilized_0", PU0 }, { "EXE_ACTIVITY.1_PORTS_UTIL", E1 },
	{ "EXE_ACTIVITY.2_PORTS_UTIL", E2 }, { "tma_retiring", RETIRING },
	{ "ARITH.DIVIDER_ACTIVE", DIVIDER },
	{ "CYCLE_ACTIVITY.STALLS_TOTAL", STALLS },
	{ "CYCLE_ACTIVITY.STALLS_MEM_ANY", STALLS_MEM },
	{ "CYCLE_ACTIVITY.STALLS_L1D_MISS", STALLS_L1D },
	{ "cpu@OFFCORE_REQUESTS_OUTSTANDING.ALL_DATA_RD,cmask=4@", OFFCORE },
	{ "cycles-t", CYC_T }, { "cycles-ct", CYC_CT }, { "cycles", CYCLES },
	{ "UNC_CHA_CLOCKTICKS", CHA_CLK }, { "msr@aperf@", APERF },
	{ "msr@smi@", SMI }, { "CPU_CLK_UNHALTED.THREAD_P:k", CLK_K },
	{ "INST_RETIRED.ANY_P:k", INST_K },
	{ "UNC_UPI_RxL_FLITS.ALL_DATA", FLITS },
	{ "tma_info_system_cpus_utilized", CPUS_UTIL },
	{ "tma_4k_aliasing", ALIAS4K }, { "tma_l1_bound", L1_B },
	{ "tma_memory_bound", MEM_B }, { "tma_backend_bound", BE },
	{ "cha@UNC_CHA_TOR_OCCUPANCY.IA_MISS,config1=0x40433@", OCC },
	{ "cha@UNC_CHA_TOR_INSERTS.IA_MISS,config1=0x40433@", INS },
	{ "ex_ret_brn_misp", MISP }, { "ex_ret_brn", BRN },
	{ "l2_request_g1.all_no_prefetch", L2_A }, { "l2_pf_hit_l2.all", L2_B },
	{ "l2_pf_miss_l2_hit_l3.all", L2_C }, { "l2_pf_miss_l2_l3.all", L2_D },
	{ "l3_xi_sampled_latency.all", LAT },
	{ "l3_xi_sampled_latency_requests.all", LAT_N },
	{ "de_no_dispatch_per_slot.no_ops_from_frontend", NOFE },
	{ "cpu@de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x6@", NOFE6 },
	{ "total_dispatch_slots", TDS }, { "backend_bound", BE_Z4 },
	{ "ex_no_retire.load_not_complete", LNC },
	{ "ex_no_retire.not_complete", 0 },
	{ "umc_data_slot_clks.all", UMC_SLOT }, { "umc_mem_clk", UMC_CLK },
	{ "umc_cas_cmd.rd", UMC_RD },
	{ "INST_RETIRED", N1_INST }, { "CPU_CYCLES", N1_CYC },
	{ "LL_CACHE_RD", LL_RD }, { "LL_CACHE_MISS_RD", LL_MISS },
	{ "BR_IMMED_SPEC", BR_IMM }, { "BR_INDIRECT_SPEC", BR_IND },
	{ "INST_SPEC", INST_SPEC },
	{ "op_retired", OP_RET }, { "op_spec", OP_SPEC },
	{ "stall_slot", STALL }, { "cpu_cycles", N1_CYC },
	{ "stall_slot_frontend", STALL_FE },
	{ "OP_RETIRED", OP_RET }, { "OP_SPEC", OP_SPEC },
	{ "STALL_SLOT", STALL },
};

/* What the machine under test says, and what the callbacks were asked. */
struct machine {
	bool smt_on, core_wide;
	const char *cpuid;
	unsigned literals;	/* literal() calls */
};

static const struct value *find(const char *name)
{
	size_t i;

	for (i = 0; i < N_ROWS(values); i++)
		if (!strcmp(values[i].name, name))
			return &values[i];
	return NULL;
}

static bool id_value(void *arg, const char *name, double *v)
{
	const struct value *f = find(name);

	if (f)
		*v = f->v;
	return f;
}

/*
 * perf's names: smt_on and system_tsc_freq in any case, the others as
 * written; "nan" stands for a literal perf could not compute.
 */
static bool literal(void *arg, const char *name, double *v)
{
	struct machine *m = arg;
	const struct { const char *name; double v; } known[] = {
		{ "num_cpus", NUM_CPUS }, { "num_cpus_online", NUM_ONLINE },
		{ "num_packages", NUM_PACKAGES }, { "num_dies", NUM_DIES },
		{ "num_cores", NUM_CORES }, { "slots", N_SLOTS },
		{ "core_wide", m->core_wide }, { "has_pmem", 0 },
		{ "nan", NAN },
	};
	size_t i;

	m->literals++;
	if (!strcasecmp(name, "smt_on")) {
		*v = m->smt_on;
		return true;
	}
	if (!strcasecmp(name, "system_tsc_freq")) {
		*v = TSC_FREQ;
		return true;
	}
	for (i = 0; i < N_ROWS(known); i++)
		if (!strcmp(known[i].name, name)) {
			*v = known[i].v;
			return true;
		}
	return false;
}

static bool has_event(void *arg, const char *name)
{
	return find(name);
}

/* Three counters make up each known event (an uncore PMU's boxes). */
static double source_count(void *arg, const char *name)
{
	return find(name) ? 3 : NAN;
}

static int cpuid_cmp(void *arg, const char *s)
{
	const struct machine *m = arg;

	return strcmp(m->cpuid, s);
}

static struct machine machine;

static const struct expr_env env = {
	.arg = &machine,
	.id = id_value,
	.literal = literal,
	.has_event = has_event,
	.source_count = source_count,
	.cpuid_cmp = cpuid_cmp,
};

static void machine_setup(void)
{
	machine = (struct machine){ .smt_on = true, .cpuid = "0x410fd490" };
	alloc_calls = alloc_fail_at = 0;
}

/* Parsed, or the test fails with the reason. */
static struct expr *parsed(int line, const char *text)
{
	struct error err;
	struct expr *e = NULL;
	int ret = expr_parse(text, &e, &err);

	ck_assert_msg(ret == 0, "line %d: '%s': %d, at %zu: %s", line, text,
		      ret, err.col, err.reason);
	ck_assert_ptr_nonnull(e);
	return e;
}

/* Both NaN, or equal to within rounding (a compiler may fuse a * b + c). */
static bool same(double got, double want)
{
	if (isnan(want))
		return isnan(got);
	return got == want || fabs(got - want) <= 1e-12 * fabs(want);
}

#define FAILS NAN		/* with .fails: expr_eval is -EINVAL */

struct eval_row {
	int line;
	const char *text;
	double want;
	bool fails;
};

static const struct eval_row eval_rows[] = {
	/* Numbers, as expr.l reads them. */
	{ __LINE__, "1", 1 },
	{ __LINE__, "2.", 2 },
	{ __LINE__, ".5", 0.5 },
	{ __LINE__, "007", 7 },
	{ __LINE__, "1.5e3", 1500 },
	{ __LINE__, "1e-3", 0.001 },
	{ __LINE__, "1.e2", 100 },
	{ __LINE__, "1.1 + 2.1", 1.1 + 2.1 },
	{ __LINE__, ".1 + 2.", 0.1 + 2.0 },
	{ __LINE__, "NaN", NAN },
	/* No 'E', no hex, no '+' in an exponent: identifiers. */
	{ __LINE__, "1E5", 19 },
	{ __LINE__, "0x10", 23 },
	{ __LINE__, "1e+5", NAN },	/* the unknown 1e, + 5 */
	/* Blanks of all kinds. */
	{ __LINE__, " \t1 +\n2\r\f\v", 3 },
	{ __LINE__, "1+2", 3 },
	/* Every operator. */
	{ __LINE__, "5 - 7", -2 },
	{ __LINE__, "3 * 4", 12 },
	{ __LINE__, "7 / 2", 3.5 },
	{ __LINE__, "7 % 3", 1 },
	{ __LINE__, "-7 % 3", -1 },
	{ __LINE__, "7 % -3", 1 },
	{ __LINE__, "7.9 % 3.9", 1 },	/* (long)7.9 % (long)3.9 */
	{ __LINE__, "(BAR / 2) % 2", NAN },	/* BAR unknown */
	{ __LINE__, "(A / 2) % 2", 1 },
	{ __LINE__, "2 < 3", 1 },
	{ __LINE__, "3 < 2", 0 },
	{ __LINE__, "3 > 2", 1 },
	{ __LINE__, "2 > 2", 0 },
	{ __LINE__, "1.1e10 < 1.1e100", 1 },
	{ __LINE__, "1.1e2 > 1.1e-2", 1 },
	/* | & ^ are logical in 6.12: 2 | 4 is 1, not 6; 6 & 5 is 1. */
	{ __LINE__, "2 | 4", 1 },
	{ __LINE__, "0 | 0", 0 },
	{ __LINE__, "6 & 5", 1 },
	{ __LINE__, "6 & 0", 0 },
	{ __LINE__, "3 ^ 1", 0 },
	{ __LINE__, "0 ^ 2", 1 },
	{ __LINE__, "0 ^ 0", 0 },
	/* Precedence, loosest first: | ^ & (< >) (+ -) (* / %) unary -. */
	{ __LINE__, "1 + 2 * 3", 7 },
	{ __LINE__, "(1 + 2) * 3", 9 },
	{ __LINE__, "2 * 3 % 4", 2 },
	{ __LINE__, "1 - 1 | 1", 1 },
	{ __LINE__, "1 - 1 & 1", 0 },
	{ __LINE__, "2 < 1 | 1", 1 },
	{ __LINE__, "1 & 2 > 1", 1 },
	{ __LINE__, "1 ^ 0 & 0", 1 },
	{ __LINE__, "1 | 1 ^ 1", 1 },
	{ __LINE__, "1 + 2 < 2 + 2", 1 },
	/* Left associative. */
	{ __LINE__, "8 / 4 / 2", 1 },
	{ __LINE__, "8 - 4 - 2", 2 },
	{ __LINE__, "17 % 7 % 2", 1 },
	{ __LINE__, "3 > 2 > 1", 0 },
	{ __LINE__, "1 < 2 < 3", 1 },
	/* Unary minus binds tightest. */
	{ __LINE__, "-2 * 3", -6 },
	{ __LINE__, "--2", 2 },
	{ __LINE__, "1 - -4", 5 },
	{ __LINE__, "- - 4", 4 },
	{ __LINE__, "-(1 + 2)", -3 },
	{ __LINE__, "2 * -3", -6 },
	{ __LINE__, "-A", -6 },
	{ __LINE__, "-2 ^ 0", 1 },
	{ __LINE__, "(FOO - 1) * 2 + (B / 2) % 2 - -4", NAN },
	{ __LINE__, "(A - 1) * 2 + (B / 2) % 2 - -4", 15 },
	/* Unknown identifiers and NaN operands. */
	{ __LINE__, "U", NAN },
	{ __LINE__, "N + 1", NAN },
	{ __LINE__, "U * 0", NAN },
	{ __LINE__, "N < 1", NAN },
	{ __LINE__, "1 > U", NAN },
	{ __LINE__, "NaN + 1", NAN },
	{ __LINE__, "INF - INF", NAN },
	{ __LINE__, "INF + 1 > 0", 1 },
	/* Non-constants through | & ^: passed on, or lost. */
	{ __LINE__, "N | 0", NAN },
	{ __LINE__, "N | 1", 1 },
	{ __LINE__, "N | 2", 1 },
	{ __LINE__, "5 | U", 1 },
	{ __LINE__, "0 | U", NAN },
	{ __LINE__, "1 | U", 1 },
	{ __LINE__, "N & 0", 0 },
	{ __LINE__, "N & 1", NAN },
	{ __LINE__, "0 & N", 0 },
	{ __LINE__, "N ^ 1", NAN },
	{ __LINE__, "N | N", NAN },
	{ __LINE__, "NaN | 1", 1 },
	{ __LINE__, "0 | INF", INFINITY },
	{ __LINE__, "INF & 2", INFINITY },
	/* Division by zero is NaN (6.1 failed); % by zero fails. */
	{ __LINE__, "1 / 0", NAN },
	{ __LINE__, "0 / 0", NAN },
	{ __LINE__, "A / Z", NAN },
	{ __LINE__, "1 / -0", NAN },
	{ __LINE__, "A / U", NAN },
	{ __LINE__, "1 / INF", 0 },
	{ __LINE__, "5 % 0", FAILS, true },
	{ __LINE__, "A % Z", FAILS, true },
	{ __LINE__, "5 % 0.5", FAILS, true },	/* perf traps */
	{ __LINE__, "5 % N", NAN },
	{ __LINE__, "N % 5", NAN },
	{ __LINE__, "1e19 % 3", NAN },		/* no long */
	{ __LINE__, "9e18 % 7", (double)(9000000000000000000L % 7) },
	/* d_ratio: 0 for a zero denominator. */
	{ __LINE__, "d_ratio(1, 2)", 0.5 },
	{ __LINE__, "d_ratio(2.5, 0)", 0 },
	{ __LINE__, "d_ratio(A, Z)", 0 },
	{ __LINE__, "d_ratio(N, 0)", 0 },
	{ __LINE__, "d_ratio(U, -0)", 0 },
	{ __LINE__, "d_ratio(1, N)", NAN },
	{ __LINE__, "d_ratio(U, 2)", NAN },
	{ __LINE__, "d_ratio(A + B, A - B) * 2", 6 },
	/* min and max, and their NaNs: perf's a < b ? a : b. */
	{ __LINE__, "min(1, 2)", 1 },
	{ __LINE__, "max(1, 2)", 2 },
	{ __LINE__, "min(1,2) + 1", 2 },
	{ __LINE__, "max(1,2) + 1", 3 },
	{ __LINE__, "max(-1, -2)", -1 },
	{ __LINE__, "min(N, 1)", 1 },
	{ __LINE__, "min(1, N)", NAN },
	{ __LINE__, "max(N, 1)", 1 },
	{ __LINE__, "max(1, N)", NAN },
	{ __LINE__, "min(A, B) * max(A, B)", 18 },
	/* if else: only 0 is false; the else branch is an if_expr. */
	{ __LINE__, "1 + 1 if 3 * 4 else 0", 2 },
	{ __LINE__, "100 if 1 else 200 if 1 else 300", 100 },
	{ __LINE__, "100 if 0 else 200 if 1 else 300", 200 },
	{ __LINE__, "100 if 1 else 200 if 0 else 300", 100 },
	{ __LINE__, "100 if 0 else 200 if 0 else 300", 300 },
	{ __LINE__, "A if N else B", 6 },
	{ __LINE__, "A if U else B", 6 },
	{ __LINE__, "A if Z else B", 3 },
	{ __LINE__, "A if -0 else B", 3 },
	{ __LINE__, "A if 0.001 else B", 6 },
	{ __LINE__, "1 if 0 else 2 + 3", 5 },
	{ __LINE__, "1 + 2 if 0 else 3", 3 },
	{ __LINE__, "(1 if 0 else 2) + 3", 5 },
	{ __LINE__, "2 * (A if 1 else B)", 12 },
	{ __LINE__, "A if B > 2 else Z", 6 },
	{ __LINE__, "A if B | Z else Z", 6 },
	{ __LINE__, "(1 if 0 else 2) if (0 if 1 else 1) else 3", 3 },
	{ __LINE__, "(A if (B if Z else 0) else (1 if 1 else 2)) * 10", 10 },
	/* Either branch: a failure anywhere fails the whole, as in perf. */
	{ __LINE__, "1 if 1 else 1 % 0", FAILS, true },
	{ __LINE__, "1 % 0 if 0 else 1", FAILS, true },
	{ __LINE__, "1 if 1 else #unknown", FAILS, true },
	/* Literals: the caller's values; unknown or NaN fails. */
	{ __LINE__, "#smt_on", 1 },
	{ __LINE__, "#SMT_on", 1 },
	{ __LINE__, "#num_cpus", NUM_CPUS },
	{ __LINE__, "#num_cpus_online", NUM_ONLINE },
	{ __LINE__, "#num_packages", NUM_PACKAGES },
	{ __LINE__, "#num_dies", NUM_DIES },
	{ __LINE__, "#num_cores", NUM_CORES },
	{ __LINE__, "#system_tsc_freq", TSC_FREQ },
	{ __LINE__, "#SYSTEM_TSC_FREQ", TSC_FREQ },
	{ __LINE__, "#slots", N_SLOTS },
	{ __LINE__, "#core_wide", 0 },
	{ __LINE__, "#has_pmem", 0 },
	{ __LINE__, "#num_cores / #num_packages", NUM_CORES / NUM_PACKAGES },
	{ __LINE__, "#unknown", FAILS, true },
	{ __LINE__, "#nan", FAILS, true },
	{ __LINE__, "#num_cores-1", FAILS, true },	/* one literal */
	{ __LINE__, "#num_cores -1", NUM_CORES - 1 },
	/* Functions of names. */
	{ __LINE__, "source_count(A)", 3 },
	{ __LINE__, "source_count(U)", NAN },
	{ __LINE__, "has_event(A)", 1 },
	{ __LINE__, "has_event(U)", 0 },
	{ __LINE__, "has_event(topdown\\-fe\\-bound)", 1 },
	{ __LINE__, "strcmp_cpuid_str(0x410fd490)", 1 },
	{ __LINE__, "strcmp_cpuid_str(0x410fd493)", 0 },
	{ __LINE__, "strcmp_cpuid_str(0x410fd493) | strcmp_cpuid_str(0x410fd490) ^ 1", 0 },
	/* Identifiers: escapes, keywords inside, modifiers, PMUs. */
	{ __LINE__, "topdown\\-fe\\-bound", 5 },
	{ __LINE__, "ev\\,p\\=1@", 11 },
	{ __LINE__, "cpu@INST_RETIRED.ANY@ / 100", 10 },
	{ __LINE__, "msr@tsc@", 7 },
	{ __LINE__, "cycles:u", 13 },
	{ __LINE__, "ifx", 17 },
	{ __LINE__, "duration_time * 4", 4 * DURATION },
	{ __LINE__, "A-B", 3 },		/* '-' ends a name */
};

START_TEST(test_eval)
{
	const struct eval_row *t = &eval_rows[_i];
	struct expr *e = parsed(t->line, t->text);
	double v = -12345;
	int ret = expr_eval(e, &env, &v);

	if (t->fails) {
		ck_assert_msg(ret == -EINVAL, "line %d: '%s': %d, not -EINVAL",
			      t->line, t->text, ret);
	} else {
		ck_assert_msg(ret == 0, "line %d: '%s': %d", t->line, t->text,
			      ret);
		ck_assert_msg(same(v, t->want), "line %d: '%s' = %.17g, want %.17g",
			      t->line, t->text, v, t->want);
	}
	expr_free(e);
}
END_TEST

/* What perf prints: a remainder or a quotient of 0 is 0, not -0. */
START_TEST(test_signs)
{
	struct expr *e = parsed(__LINE__, "-4 % 2");
	double v;

	ck_assert_int_eq(expr_eval(e, &env, &v), 0);
	ck_assert(v == 0 && !signbit(v));
	expr_free(e);
	/* & of a NaN and a 0 is perf's constant 0, whatever that 0's sign. */
	e = parsed(__LINE__, "N & -0");
	ck_assert_int_eq(expr_eval(e, &env, &v), 0);
	ck_assert(v == 0 && !signbit(v));
	expr_free(e);
	/* perf negates, so -0 stays as it is printed: "-0.00". */
	e = parsed(__LINE__, "-Z");
	ck_assert_int_eq(expr_eval(e, &env, &v), 0);
	ck_assert(v == 0 && signbit(v));
	expr_free(e);
}
END_TEST

#define MAX_IDS 12

struct want_id {
	const char *name;
	unsigned use;
};

#define V EXPR_USE_VALUE
#define SC EXPR_USE_SOURCE_COUNT
#define HE EXPR_USE_HAS_EVENT
#define CPUID EXPR_USE_CPUID

struct ids_row {
	int line;
	const char *text;
	struct want_id id[MAX_IDS];	/* in order, up to a NULL name */
};

static const struct ids_row ids_rows[] = {
	{ __LINE__, "1 + 2 * #smt_on", { { NULL } } },
	{ __LINE__, "B + A * B - A", { { "B", V }, { "A", V } } },
	{ __LINE__, "topdown\\-fe\\-bound + topdown-fe", {
		{ "topdown-fe-bound", V }, { "topdown", V }, { "fe", V } } },
	{ __LINE__, "hv_24x7@PM_PB_CYC\\,chip\\=?@ * 2", {
		{ "hv_24x7@PM_PB_CYC,chip=?@", V } } },
	{ __LINE__, "a\\=b\\,c", { { "a=b,c", V } } },
	{ __LINE__, "cpu@INST_RETIRED.ANY@:u + cycles:k + ev@k", {
		{ "cpu@INST_RETIRED.ANY@:u", V }, { "cycles:k", V },
		{ "ev@k", V } } },
	{ __LINE__, "duration_time + user_time + system_time", {
		{ "duration_time", V }, { "user_time", V },
		{ "system_time", V } } },
	{ __LINE__, "ifx + maxi + NaNa + d_ratio2 + else_", {
		{ "ifx", V }, { "maxi", V }, { "NaNa", V }, { "d_ratio2", V },
		{ "else_", V } } },
	{ __LINE__, "1E5 + 0x10 + 1e + 12e3x + . + 1..2", {
		{ "1E5", V }, { "0x10", V }, { "1e", V }, { "12e3x", V },
		{ ".", V }, { "1..2", V } } },
	{ __LINE__, "has_event(X) + source_count(Y) + strcmp_cpuid_str(Z) + Y + X", {
		{ "X", HE | V }, { "Y", SC | V }, { "Z", CPUID } } },
	{ __LINE__, "X if has_event(X) else 0", { { "X", V | HE } } },
	{ __LINE__, "EVENT1 if #smt_on else EVENT2", {
		{ "EVENT1", V }, { "EVENT2", V } } },
};

START_TEST(test_ids)
{
	const struct ids_row *t = &ids_rows[_i];
	struct expr *e = parsed(t->line, t->text);
	size_t i;

	for (i = 0; i < MAX_IDS && t->id[i].name; i++) {
		ck_assert_msg(i < expr_n_ids(e), "line %d: '%s': %zu ids, want more",
			      t->line, t->text, expr_n_ids(e));
		ck_assert_msg(!strcmp(expr_id(e, i), t->id[i].name),
			      "line %d: '%s': id %zu is '%s', want '%s'", t->line,
			      t->text, i, expr_id(e, i), t->id[i].name);
		ck_assert_msg(expr_id_use(e, i) == t->id[i].use,
			      "line %d: '%s': '%s' used as %u, want %u", t->line,
			      t->text, t->id[i].name, expr_id_use(e, i),
			      t->id[i].use);
	}
	ck_assert_msg(expr_n_ids(e) == i, "line %d: '%s': %zu ids, want %zu",
		      t->line, t->text, expr_n_ids(e), i);
	expr_free(e);
}
END_TEST

/* What perf's compute_ids pass keeps: the names, none past a NULL. */
struct needed_row {
	int line;
	const char *text;
	bool smt_on;
	const char *needed[MAX_IDS];
	int ret;
};

static const struct needed_row needed_rows[] = {
	/* perf's own tests (tools/perf/tests/expr.c). */
	{ __LINE__, "FOO + BAR + BAZ + BOZO", false,
		{ "FOO", "BAR", "BAZ", "BOZO" } },
	{ __LINE__, "EVENT1 if #smt_on else EVENT2", true, { "EVENT1" } },
	{ __LINE__, "EVENT1 if #smt_on else EVENT2", false, { "EVENT2" } },
	{ __LINE__, "EVENT1 if #core_wide else EVENT2", true, { "EVENT2" } },
	{ __LINE__, "1.0 if EVENT1 > 100.0 else 1.0", true, { NULL } },
	{ __LINE__, "0 & EVENT1 > 0", true, { NULL } },
	{ __LINE__, "EVENT1 > 0 & 0", true, { NULL } },
	{ __LINE__, "1 & EVENT1 > 0", true, { "EVENT1" } },
	{ __LINE__, "EVENT1 > 0 & 1", true, { "EVENT1" } },
	{ __LINE__, "1 | EVENT1 > 0", true, { NULL } },
	{ __LINE__, "EVENT1 > 0 | 1", true, { NULL } },
	{ __LINE__, "0 | EVENT1 > 0", true, { "EVENT1" } },
	{ __LINE__, "EVENT1 > 0 | 0", true, { "EVENT1" } },
	{ __LINE__, "source_count(EVENT1)", true, { "EVENT1" } },
	/* Constants make operands unused, never * 0 or min and max. */
	{ __LINE__, "EVENT1 / 0", true, { NULL } },
	{ __LINE__, "d_ratio(EVENT1, 0)", true, { NULL } },
	{ __LINE__, "d_ratio(EVENT1, #core_wide)", true, { NULL } },
	{ __LINE__, "d_ratio(EVENT1, EVENT2)", true, { "EVENT1", "EVENT2" } },
	{ __LINE__, "EVENT1 * 0", true, { "EVENT1" } },
	{ __LINE__, "min(EVENT1, 1) + max(2, EVENT2)", true,
		{ "EVENT1", "EVENT2" } },
	{ __LINE__, "EVENT1 ^ 1", true, { "EVENT1" } },
	{ __LINE__, "#smt_on | EVENT1", true, { NULL } },
	{ __LINE__, "#smt_on | EVENT1", false, { "EVENT1" } },
	{ __LINE__, "-(EVENT1 if 0 else EVENT2)", true, { "EVENT2" } },
	{ __LINE__, "EVENT1 + (EVENT1 if 0 else EVENT2)", true,
		{ "EVENT1", "EVENT2" } },
	{ __LINE__, "EVENT1 if EVENT2 else EVENT3", true,
		{ "EVENT1", "EVENT2", "EVENT3" } },
	{ __LINE__, "EVENT1 if EVENT2 else EVENT1", true,
		{ "EVENT1", "EVENT2" } },
	{ __LINE__, "2 if EVENT2 else 2", true, { NULL } },
	{ __LINE__, "(1 if #smt_on else 2) if EVENT2 else 1", true, { NULL } },
	{ __LINE__, "EVENT1 if has_event(EVENT1) else 0", true, { "EVENT1" } },
	{ __LINE__, "X if has_event(X) else 0", true, { NULL } },
	{ __LINE__, "has_event(EVENT1)", true, { NULL } },
	{ __LINE__, "EVENT1 if strcmp_cpuid_str(0x410fd490) else EVENT2", true,
		{ "EVENT1" } },
	{ __LINE__, "EVENT1 if NaN else EVENT2", true,
		{ "EVENT1", "EVENT2" } },
	/* perf's pass fails for these. */
	{ __LINE__, "EVENT1 % 0", true, { NULL }, -EINVAL },
	{ __LINE__, "EVENT1 if 1 else 1 % 0", true, { NULL }, -EINVAL },
	{ __LINE__, "#unknown + EVENT1", true, { NULL }, -EINVAL },
	{ __LINE__, "EVENT1 % 0.5", true, { "EVENT1" } },
};

static bool listed(const char *const *names, const char *name)
{
	size_t i;

	for (i = 0; i < MAX_IDS && names[i]; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

/* needed[] of e says exactly the names of want (NULL-ended). */
static void check_needed(int line, const char *text, const struct expr *e,
			 const bool *needed, const char *const *want)
{
	size_t i, n = 0;

	for (i = 0; i < expr_n_ids(e); i++) {
		ck_assert_msg(needed[i] == listed(want, expr_id(e, i)),
			      "line %d: '%s': %s is %sneeded", line, text,
			      expr_id(e, i), needed[i] ? "" : "not ");
		n += needed[i];
	}
	for (i = 0; i < MAX_IDS && want[i]; i++)
		;
	ck_assert_msg(n == i, "line %d: '%s': %zu needed, want %zu", line,
		      text, n, i);
}

START_TEST(test_needed)
{
	const struct needed_row *t = &needed_rows[_i];
	struct expr *e = parsed(t->line, t->text);
	bool needed[MAX_IDS];
	int ret;

	machine.smt_on = t->smt_on;
	ck_assert_uint_le(expr_n_ids(e), MAX_IDS);
	memset(needed, 1, sizeof(needed));
	ret = expr_ids_needed(e, &env, needed);
	ck_assert_msg(ret == t->ret, "line %d: '%s': %d, want %d", t->line,
		      t->text, ret, t->ret);
	if (ret == 0)
		check_needed(t->line, t->text, e, needed, t->needed);
	expr_free(e);
}
END_TEST

/*
 * Real metrics, copied from perf 6.12's tables (skylakex, cascadelakex,
 * amdzen4, arm neoverse-n1 and -n2, sbsa), with their value worked out
 * here in C, their identifiers in order, and those they need with
 * #SMT_on 1, #core_wide 0 and the cpuid 0x410fd490 (NULL: all).
 */
struct formula_row {
	int line;
	const char *text;
	double want;
	const char *ids[MAX_IDS];
	const char *needed[MAX_IDS];
};

#define TOR "cha@UNC_CHA_TOR_"

static const struct formula_row formula_rows[] = {
	/* skylakex/skx-metrics.json */
	{ __LINE__, "CPU_CLK_UNHALTED.THREAD / INST_RETIRED.ANY", CLK / INST,
		{ "CPU_CLK_UNHALTED.THREAD", "INST_RETIRED.ANY" } },
	{ __LINE__, "CPU_CLK_UNHALTED.THREAD / CPU_CLK_UNHALTED.REF_TSC * #SYSTEM_TSC_FREQ / 1e9",
		CLK / REF_TSC * TSC_FREQ / 1e9,
		{ "CPU_CLK_UNHALTED.THREAD", "CPU_CLK_UNHALTED.REF_TSC" } },
	{ __LINE__, "cstate_core@c6\\-residency@ / TSC", C6 / TSC,
		{ "cstate_core@c6-residency@", "TSC" } },
	{ __LINE__, "cha@UNC_CHA_TOR_INSERTS.IA_MISS\\,config1\\=0x12d40433@ / INST_RETIRED.ANY",
		CHA_MISS / INST,
		{ TOR "INSERTS.IA_MISS,config1=0x12d40433@", "INST_RETIRED.ANY" } },
	{ __LINE__, "(UNC_M_CAS_COUNT.RD + UNC_M_CAS_COUNT.WR) * 64 / 1e6 / duration_time",
		(CAS_RD + CAS_WR) * 64 / 1e6 / DURATION,
		{ "UNC_M_CAS_COUNT.RD", "UNC_M_CAS_COUNT.WR", "duration_time" } },
	{ __LINE__, "1 - tma_frontend_bound - (UOPS_ISSUED.ANY + 4 * (INT_MISC.RECOVERY_CYCLES_ANY / 2 if #SMT_on else INT_MISC.RECOVERY_CYCLES)) / tma_info_thread_slots",
		1 - FE - (UOPS + 4 * (REC_ANY / 2)) / SLOTS,
		{ "tma_frontend_bound", "UOPS_ISSUED.ANY",
		  "INT_MISC.RECOVERY_CYCLES_ANY", "INT_MISC.RECOVERY_CYCLES",
		  "tma_info_thread_slots" },
		{ "tma_frontend_bound", "UOPS_ISSUED.ANY",
		  "INT_MISC.RECOVERY_CYCLES_ANY", "tma_info_thread_slots" } },
	{ __LINE__, "(CPU_CLK_UNHALTED.THREAD / 2 * (1 + CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE / CPU_CLK_UNHALTED.REF_XCLK) if #core_wide < 1 else (CPU_CLK_UNHALTED.THREAD_ANY / 2 if #SMT_on else tma_info_thread_clks))",
		CLK / 2 * (1 + ONE / XCLK),
		{ "CPU_CLK_UNHALTED.THREAD", "CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE",
		  "CPU_CLK_UNHALTED.REF_XCLK", "CPU_CLK_UNHALTED.THREAD_ANY",
		  "tma_info_thread_clks" },
		{ "CPU_CLK_UNHALTED.THREAD", "CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE",
		  "CPU_CLK_UNHALTED.REF_XCLK" } },
	{ __LINE__, "(100 * (1 - tma_core_bound / tma_ports_utilization if tma_core_bound < tma_ports_utilization else 1) if tma_info_system_smt_2t_utilization > 0.5 else 0)",
		SMT2T > 0.5 ? 100 * (CORE_B < PORTS ? 1 - CORE_B / PORTS : 1) : 0,
		{ "tma_core_bound", "tma_ports_utilization",
		  "tma_info_system_smt_2t_utilization" } },
	{ __LINE__, "((tma_ports_utilized_0 * tma_info_thread_clks + (EXE_ACTIVITY.1_PORTS_UTIL + tma_retiring * EXE_ACTIVITY.2_PORTS_UTIL)) / tma_info_thread_clks if ARITH.DIVIDER_ACTIVE < CYCLE_ACTIVITY.STALLS_TOTAL - CYCLE_ACTIVITY.STALLS_MEM_ANY else (EXE_ACTIVITY.1_PORTS_UTIL + tma_retiring * EXE_ACTIVITY.2_PORTS_UTIL) / tma_info_thread_clks)",
		DIVIDER < STALLS - STALLS_MEM ?
			(PU0 * CLK + (E1 + RETIRING * E2)) / CLK :
			(E1 + RETIRING * E2) / CLK,
		{ "tma_ports_utilized_0", "tma_info_thread_clks",
		  "EXE_ACTIVITY.1_PORTS_UTIL", "tma_retiring",
		  "EXE_ACTIVITY.2_PORTS_UTIL", "ARITH.DIVIDER_ACTIVE",
		  "CYCLE_ACTIVITY.STALLS_TOTAL",
		  "CYCLE_ACTIVITY.STALLS_MEM_ANY" } },
	{ __LINE__, "max((CYCLE_ACTIVITY.STALLS_MEM_ANY - CYCLE_ACTIVITY.STALLS_L1D_MISS) / tma_info_thread_clks, 0)",
		(STALLS_MEM - STALLS_L1D) / CLK,
		{ "CYCLE_ACTIVITY.STALLS_MEM_ANY", "CYCLE_ACTIVITY.STALLS_L1D_MISS",
		  "tma_info_thread_clks" } },
	{ __LINE__, "min(CPU_CLK_UNHALTED.THREAD, cpu@OFFCORE_REQUESTS_OUTSTANDING.ALL_DATA_RD\\,cmask\\=4@) / tma_info_thread_clks",
		(CLK < OFFCORE ? CLK : OFFCORE) / CLK,
		{ "CPU_CLK_UNHALTED.THREAD",
		  "cpu@OFFCORE_REQUESTS_OUTSTANDING.ALL_DATA_RD,cmask=4@",
		  "tma_info_thread_clks" } },
	{ __LINE__, "(max(cycles\\-t - cycles\\-ct, 0) / cycles if has_event(cycles\\-t) else 0)",
		(CYC_T - CYC_CT) / CYCLES,
		{ "cycles-t", "cycles-ct", "cycles" } },
	{ __LINE__, "(cycles\\-t / el\\-start if has_event(el\\-start) else 0)", 0,
		{ "cycles-t", "el-start" }, { "-" } },
	{ __LINE__, "UNC_CHA_CLOCKTICKS / (#num_cores / #num_packages * #num_packages) / 1e9 / duration_time",
		CHA_CLK / (NUM_CORES / NUM_PACKAGES * NUM_PACKAGES) / 1e9 / DURATION,
		{ "UNC_CHA_CLOCKTICKS", "duration_time" } },
	{ __LINE__, "((msr@aperf@ - cycles) / msr@aperf@ if msr@smi@ > 0 else 0)",
		SMI > 0 ? (APERF - CYCLES) / APERF : 0,
		{ "msr@aperf@", "cycles", "msr@smi@" } },
	{ __LINE__, "CPU_CLK_UNHALTED.THREAD_P:k / INST_RETIRED.ANY_P:k",
		CLK_K / INST_K,
		{ "CPU_CLK_UNHALTED.THREAD_P:k", "INST_RETIRED.ANY_P:k" } },
	{ __LINE__, "UNC_UPI_RxL_FLITS.ALL_DATA * 7.111111111111111 / 1e6 / duration_time",
		FLITS * 7.111111111111111 / 1e6 / DURATION,
		{ "UNC_UPI_RxL_FLITS.ALL_DATA", "duration_time" } },
	{ __LINE__, "tma_info_system_cpus_utilized / #num_cpus_online",
		CPUS_UTIL / NUM_ONLINE, { "tma_info_system_cpus_utilized" } },
	/* a MetricThreshold */
	{ __LINE__, "tma_4k_aliasing > 0.2 & (tma_l1_bound > 0.1 & (tma_memory_bound > 0.2 & tma_backend_bound > 0.2))",
		ALIAS4K > 0.2 && L1_B > 0.1 && MEM_B > 0.2 && BE > 0.2,
		{ "tma_4k_aliasing", "tma_l1_bound", "tma_memory_bound",
		  "tma_backend_bound" } },
	/* cascadelakex/clx-metrics.json */
	{ __LINE__, "1e9 * (cha@UNC_CHA_TOR_OCCUPANCY.IA_MISS\\,config1\\=0x40433@ / cha@UNC_CHA_TOR_INSERTS.IA_MISS\\,config1\\=0x40433@) / (UNC_CHA_CLOCKTICKS / (source_count(UNC_CHA_CLOCKTICKS) * #num_packages)) * duration_time",
		1e9 * (OCC / INS) / (CHA_CLK / (3 * NUM_PACKAGES)) * DURATION,
		{ TOR "OCCUPANCY.IA_MISS,config1=0x40433@",
		  TOR "INSERTS.IA_MISS,config1=0x40433@", "UNC_CHA_CLOCKTICKS",
		  "duration_time" } },
	/* amdzen4/recommended.json and pipeline.json */
	{ __LINE__, "d_ratio(ex_ret_brn_misp, ex_ret_brn)", MISP / BRN,
		{ "ex_ret_brn_misp", "ex_ret_brn" } },
	{ __LINE__, "l2_request_g1.all_no_prefetch + l2_pf_hit_l2.all + l2_pf_miss_l2_hit_l3.all + l2_pf_miss_l2_l3.all",
		L2_A + L2_B + L2_C + L2_D,
		{ "l2_request_g1.all_no_prefetch", "l2_pf_hit_l2.all",
		  "l2_pf_miss_l2_hit_l3.all", "l2_pf_miss_l2_l3.all" } },
	{ __LINE__, "(l3_xi_sampled_latency.all * 10) / l3_xi_sampled_latency_requests.all",
		LAT * 10 / LAT_N,
		{ "l3_xi_sampled_latency.all",
		  "l3_xi_sampled_latency_requests.all" } },
	{ __LINE__, "d_ratio(de_no_dispatch_per_slot.no_ops_from_frontend - (6 * cpu@de_no_dispatch_per_slot.no_ops_from_frontend\\,cmask\\=0x6@), total_dispatch_slots)",
		(NOFE - 6 * NOFE6) / TDS,
		{ "de_no_dispatch_per_slot.no_ops_from_frontend",
		  "cpu@de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x6@",
		  "total_dispatch_slots" } },
	/* ex_no_retire.not_complete is 0: d_ratio gives 0. */
	{ __LINE__, "backend_bound * (1 - d_ratio(ex_no_retire.load_not_complete, ex_no_retire.not_complete))",
		BE_Z4 * (1 - 0),
		{ "backend_bound", "ex_no_retire.load_not_complete",
		  "ex_no_retire.not_complete" } },
	{ __LINE__, "d_ratio(umc_data_slot_clks.all / 2, umc_mem_clk)",
		UMC_SLOT / 2 / UMC_CLK,
		{ "umc_data_slot_clks.all", "umc_mem_clk" } },
	{ __LINE__, "(umc_cas_cmd.rd * 64) / 1e6 / duration_time",
		UMC_RD * 64 / 1e6 / DURATION,
		{ "umc_cas_cmd.rd", "duration_time" } },
	/* arm/neoverse-n1/metrics.json */
	{ __LINE__, "(INST_RETIRED / CPU_CYCLES)", N1_INST / N1_CYC,
		{ "INST_RETIRED", "CPU_CYCLES" } },
	{ __LINE__, "((LL_CACHE_RD - LL_CACHE_MISS_RD) / LL_CACHE_RD)",
		(LL_RD - LL_MISS) / LL_RD, { "LL_CACHE_RD", "LL_CACHE_MISS_RD" } },
	{ __LINE__, "(((BR_IMMED_SPEC + BR_INDIRECT_SPEC) / INST_SPEC) * 100)",
		(BR_IMM + BR_IND) / INST_SPEC * 100,
		{ "BR_IMMED_SPEC", "BR_INDIRECT_SPEC", "INST_SPEC" } },
	/* sbsa.json */
	{ __LINE__, "100 * ((1 - op_retired / op_spec) * (1 - stall_slot / (#slots * cpu_cycles)))",
		100 * ((1 - OP_RET / OP_SPEC) * (1 - STALL / (N_SLOTS * N1_CYC))),
		{ "op_retired", "op_spec", "stall_slot", "cpu_cycles" } },
	{ __LINE__, "100 * (stall_slot_frontend / (#slots * cpu_cycles))",
		100 * (STALL_FE / (N_SLOTS * N1_CYC)),
		{ "stall_slot_frontend", "cpu_cycles" } },
	/* arm/neoverse-n2-v2/metrics.json: not an N2r0p3, so the else. */
	{ __LINE__, "(100 * ((OP_RETIRED / OP_SPEC) * (1 - (((STALL_SLOT) if (strcmp_cpuid_str(0x410fd493) | strcmp_cpuid_str(0x410fd490) ^ 1) else (STALL_SLOT - CPU_CYCLES)) / (CPU_CYCLES * #slots)))))",
		100 * ((OP_RET / OP_SPEC) *
		       (1 - (STALL - N1_CYC) / (N1_CYC * N_SLOTS))),
		{ "OP_RETIRED", "OP_SPEC", "STALL_SLOT", "0x410fd493",
		  "0x410fd490", "CPU_CYCLES" },
		{ "OP_RETIRED", "OP_SPEC", "STALL_SLOT", "CPU_CYCLES" } },
};

START_TEST(test_formulas)
{
	const struct formula_row *t = &formula_rows[_i];
	struct expr *e = parsed(t->line, t->text);
	bool needed[MAX_IDS];
	const char *const *want = t->needed[0] ? t->needed : t->ids;
	const char *const none[] = { NULL };
	size_t i;
	double v;

	for (i = 0; i < MAX_IDS && t->ids[i]; i++) {
		ck_assert_msg(i < expr_n_ids(e) && !strcmp(expr_id(e, i), t->ids[i]),
			      "line %d: id %zu is '%s', want '%s'", t->line, i,
			      i < expr_n_ids(e) ? expr_id(e, i) : "(none)",
			      t->ids[i]);
	}
	ck_assert_msg(expr_n_ids(e) == i, "line %d: %zu ids, want %zu",
		      t->line, expr_n_ids(e), i);
	ck_assert_int_eq(expr_eval(e, &env, &v), 0);
	ck_assert_msg(same(v, t->want), "line %d: %.17g, want %.17g", t->line,
		      v, t->want);
	ck_assert_int_eq(expr_ids_needed(e, &env, needed), 0);
	/* "-": none; the cpuids are never needed. */
	check_needed(t->line, t->text, e, needed,
		     !strcmp(want[0], "-") ? none : want);
	expr_free(e);
}
END_TEST

struct bad_row {
	int line;
	const char *text;
	size_t col;
	const char *reason;
	const char *hint;	/* NULL: empty */
};

#define FUNCTIONS \
	"the functions are d_ratio, min, max, source_count, has_event and strcmp_cpuid_str"

static const struct bad_row bad_rows[] = {
	{ __LINE__, "", 0, "the expression is empty" },
	{ __LINE__, " \t ", 3, "the expression is empty" },
	/* Unbalanced parentheses. */
	{ __LINE__, "(", 1, "expected a number, a name, a function or '(', not the end" },
	{ __LINE__, "(1 + 2", 0, "this '(' is not closed" },
	{ __LINE__, "((1) + 2", 0, "this '(' is not closed" },
	{ __LINE__, "1 + (2 * (3)", 4, "this '(' is not closed" },
	{ __LINE__, "1 + 2)", 5, "unexpected ')': no '(' is open" },
	{ __LINE__, "(1 + 2))", 7, "unexpected ')': no '(' is open" },
	{ __LINE__, "1 + )", 4, "expected a number, a name, a function or '(', not ')'" },
	{ __LINE__, "()", 1, "not ')'" },
	{ __LINE__, "(A B)", 3, "expected ')' or an operator, not 'B'" },
	/* Unknown functions. */
	{ __LINE__, "foo(1)", 0, "unknown function 'foo'", FUNCTIONS },
	{ __LINE__, "1 + ratio (A, B)", 4, "unknown function 'ratio'",
		FUNCTIONS },
	{ __LINE__, "min 1", 4, "expected '(' after the function's name, not '1'" },
	{ __LINE__, "min(1)", 5, "expected ',' or an operator, not ')'" },
	{ __LINE__, "max(1, 2", 8, "expected ')' or an operator, not the end" },
	{ __LINE__, "d_ratio(1, 2, 3)", 12, "expected ')' or an operator, not ','" },
	{ __LINE__, "d_ratio(1 if 1 else 2, 3)", 10, "expected ',' or an operator, not 'if'" },
	{ __LINE__, "has_event(1)", 10, "has_event takes a name, not '1'" },
	{ __LINE__, "source_count()", 13, "source_count takes a name, not ')'" },
	{ __LINE__, "strcmp_cpuid_str(#slots)", 17, "strcmp_cpuid_str takes a name, not '#slots'" },
	{ __LINE__, "has_event(A + B)", 12, "expected ')' after the name, not '+'" },
	/* Trailing garbage. */
	{ __LINE__, "1 2", 2, "expected an operator, not '2'" },
	{ __LINE__, "A B", 2, "expected an operator, not 'B'" },
	{ __LINE__, "1e-5e", 4, "expected an operator, not 'e'" },
	{ __LINE__, "A if B else C D", 14, "expected an operator, not 'D'" },
	{ __LINE__, "A else B", 2, "expected an operator, not 'else'" },
	{ __LINE__, "1 + 2 $", 6, "unexpected '$'" },
	{ __LINE__, "a\\+b", 1, "unexpected '\\'" },
	{ __LINE__, "A \\", 2, "unexpected '\\'" },
	{ __LINE__, "#", 0, "unexpected '#'" },
	{ __LINE__, "A = B", 2, "unexpected '='" },
	{ __LINE__, "1 + \x01", 4, "unexpected byte 0x01" },
	{ __LINE__, "caf\xc3\xa9", 3, "unexpected byte 0xc3" },
	/* Operands missing. */
	{ __LINE__, "1 +", 3, "not the end" },
	{ __LINE__, "BAR/", 4, "not the end" },
	{ __LINE__, "* 2", 0, "not '*'" },
	{ __LINE__, "if", 0, "not 'if'" },
	{ __LINE__, "1 if 2", 6, "expected 'else' or an operator, not the end" },
	{ __LINE__, "1 if 2 else", 11, "not the end" },
	{ __LINE__, "1 if 2 if 3 else 4 else 5", 7, "expected 'else' or an operator, not 'if'" },
	/* Numbers past a double's range, as strtod says. */
	{ __LINE__, "1e999", 0, "the number '1e999' is out of range" },
	{ __LINE__, "2 * 1e-400", 4, "the number '1e-400' is out of range" },
	/* A long token is cut. */
	{ __LINE__, "1 abcdefghijabcdefghijabcdefghijabcdefghijabcdefghij", 2,
		"expected an operator, not 'abcdefghijabcdefghijabcdefghijabcdefghij...'" },
};

START_TEST(test_bad)
{
	const struct bad_row *t = &bad_rows[_i];
	struct expr *e = NULL;
	struct error err;
	int ret = expr_parse(t->text, &e, &err);

	ck_assert_msg(ret == -EINVAL, "line %d: '%s': %d, not -EINVAL",
		      t->line, t->text, ret);
	ck_assert_ptr_null(e);
	ck_assert_msg(err.col == t->col, "line %d: '%s': col %zu, want %zu",
		      t->line, t->text, err.col, t->col);
	ck_assert_msg(strstr(err.reason, t->reason),
		      "line %d: '%s': reason '%s', want '%s'", t->line,
		      t->text, err.reason, t->reason);
	ck_assert_msg(!strcmp(err.hint, t->hint ? t->hint : ""),
		      "line %d: '%s': hint '%s'", t->line, t->text, err.hint);
	ck_assert_ptr_null(err.spec);
}
END_TEST

/* n copies of open, then mid, then n copies of close: to free. */
static char *nested(const char *open, size_t n, const char *mid,
		    const char *close)
{
	size_t lo = strlen(open), lc = strlen(close), lm = strlen(mid), i;
	char *buf = malloc(n * (lo + lc) + lm + 1);

	ck_assert_ptr_nonnull(buf);
	for (i = 0; i < n; i++)
		memcpy(buf + i * lo, open, lo);
	memcpy(buf + n * lo, mid, lm);
	for (i = 0; i < n; i++)
		memcpy(buf + n * lo + lm + i * lc, close, lc);
	buf[n * (lo + lc) + lm] = '\0';
	return buf;
}

/*
 * Nesting EXPR_DEPTH_MAX deep is parsed and evaluated; deeper is
 * refused where it goes too deep, without running the stack over:
 * brackets, signs, ifs in else branches, functions in arguments, and
 * a chain of operators, whose tree is as deep as it is long.
 */
START_TEST(test_depth)
{
	static const struct {
		const char *open, *close;
		size_t at;	/* the column refused: at * strlen(open) */
	} deep[] = {
		{ "(", ")", EXPR_DEPTH_MAX },
		{ "-", "", EXPR_DEPTH_MAX },
		{ "1 if 1 else ", "", EXPR_DEPTH_MAX },
		{ "min(1,", ")", EXPR_DEPTH_MAX - 1 },	/* its first argument */
		{ "1+", "", EXPR_DEPTH_MAX - 1 },
	};
	const size_t n_ok = EXPR_DEPTH_MAX - 1, n_bad = 100000;
	struct expr *e;
	struct error err;
	size_t i, len;
	char *text;
	double v;

	for (i = 0; i < N_ROWS(deep); i++) {
		text = nested(deep[i].open, n_ok, "1", deep[i].close);
		ck_assert_msg(expr_parse(text, &e, &err) == 0, "%zu: %s", i,
			      err.reason);
		ck_assert_int_eq(expr_eval(e, &env, &v), 0);
		expr_free(e);
		free(text);
		text = nested(deep[i].open, n_bad, "1", deep[i].close);
		ck_assert_int_eq(expr_parse(text, &e, &err), -EINVAL);
		ck_assert_msg(strstr(err.reason, "nests deeper than"), "%s",
			      err.reason);
		len = strlen(deep[i].open);
		ck_assert_msg(err.col / len == deep[i].at, "%zu: refused at %zu",
			      i, err.col);
		free(text);
	}
}
END_TEST

/* A literal is asked for when evaluated: parsing needs no machine. */
START_TEST(test_literals_when_evaluated)
{
	struct expr *e = parsed(__LINE__, "#smt_on + #nosuch + A");
	double v;

	ck_assert_uint_eq(machine.literals, 0);
	ck_assert_int_eq(expr_eval(e, &env, &v), -EINVAL);
	ck_assert_uint_ge(machine.literals, 1);
	expr_free(e);
	expr_free(NULL);
}
END_TEST

/*
 * Whichever allocation fails, parsing says -ENOMEM and leaks nothing
 * (valgrind sees), and so does expr_ids_needed.
 */
START_TEST(test_alloc_failures)
{
	const char *text = formula_rows[5].text;
	struct expr *e = NULL;
	struct error err;
	bool needed[MAX_IDS];
	long n, i;
	int ret;

	/* Check's asserts allocate too: none between the counts. */
	alloc_calls = 0;
	ret = expr_parse(text, &e, &err);
	n = alloc_calls;
	ck_assert_int_eq(ret, 0);
	ck_assert_int_gt(n, 5);
	expr_free(e);
	for (i = 1; i <= n; i++) {
		e = NULL;
		alloc_calls = 0;
		alloc_fail_at = i;
		ret = expr_parse(text, &e, &err);
		alloc_fail_at = 0;
		ck_assert_msg(ret == -ENOMEM && !e, "allocation %ld: %d", i,
			      ret);
	}
	ck_assert_int_eq(expr_parse(text, &e, &err), 0);
	alloc_calls = 0;
	alloc_fail_at = 1;
	ret = expr_ids_needed(e, &env, needed);
	alloc_fail_at = 0;
	ck_assert_int_eq(ret, -ENOMEM);
	expr_free(e);
}
END_TEST

/*
 * perf 6.1's sets as expr_id_sets builds them: each join written
 * (A+B), so that the row says which operands perf's grammar joins, in
 * which order (its order of a group's events follows from it).
 */
static const struct sets_row {
	int line;
	const char *text, *sets;
	int ret;
} sets_rows[] = {
	{ __LINE__, "EVENT1 + EVENT2", "(EVENT1+EVENT2)" },
	{ __LINE__, "EVENT1 - EVENT2 * EVENT3", "(EVENT1+(EVENT2+EVENT3))" },
	/* expr IF expr ELSE if_expr: $1 joined with $3 joined with $5. */
	{ __LINE__, "EVENT1 if EVENT3 else EVENT2", "(EVENT1+(EVENT3+EVENT2))" },
	{ __LINE__, "EVENT1 if #smt_on else EVENT2", "EVENT1" },
	{ __LINE__, "EVENT1 if 0 else EVENT2", "EVENT2" },
	{ __LINE__, "1 if EVENT1 else 1", "" },
	/* A constant operand has no set; one of two constants none. */
	{ __LINE__, "2 * 3 + EVENT1", "EVENT1" },
	{ __LINE__, "(EVENT1 * 2) / (EVENT2 - EVENT3) + source_count(EVENT4)",
	  "((EVENT1+(EVENT2+EVENT3))+EVENT4)" },
	{ __LINE__, "d_ratio(EVENT1, 0)", "" },
	{ __LINE__, "d_ratio(EVENT1, EVENT2)", "(EVENT1+EVENT2)" },
	{ __LINE__, "max(EVENT1, -EVENT2)", "(EVENT1+EVENT2)" },
	{ __LINE__, "min(1, 2)", "" },
	{ __LINE__, "EVENT1 % 0", "", -EINVAL },
};

static void *set_id(void *arg, const char *name)
{
	(void)arg;
	return strdup(name);
}

static void *set_join(void *arg, void *a, void *b)
{
	char *s;

	(void)arg;
	if (!a || !b)
		return a ? a : b;
	ck_assert_int_ge(asprintf(&s, "(%s+%s)", (char *)a, (char *)b), 0);
	free(a);
	free(b);
	return s;
}

START_TEST(test_sets)
{
	const struct sets_row *t = &sets_rows[_i];
	const struct expr_sets sets = { NULL, set_id, set_join };
	struct expr *e = parsed(t->line, t->text);
	void *got = NULL;
	int ret = expr_id_sets(e, &env, &sets, &got);

	ck_assert_msg(ret == t->ret, "line %d: '%s': %d, want %d", t->line,
		      t->text, ret, t->ret);
	ck_assert_msg(strcmp(got ? got : "", t->sets) == 0,
		      "line %d: '%s': %s, want %s", t->line, t->text,
		      got ? (char *)got : "", t->sets);
	free(got);
	expr_free(e);
}
END_TEST

static Suite *expr_suite(void)
{
	Suite *s = suite_create("expr");
	TCase *tc;

	tc = tcase_create("eval");
	tcase_add_checked_fixture(tc, machine_setup, NULL);
	tcase_add_loop_test(tc, test_eval, 0, N_ROWS(eval_rows));
	tcase_add_test(tc, test_signs);
	tcase_add_test(tc, test_literals_when_evaluated);
	suite_add_tcase(s, tc);

	tc = tcase_create("ids");
	tcase_add_checked_fixture(tc, machine_setup, NULL);
	tcase_add_loop_test(tc, test_ids, 0, N_ROWS(ids_rows));
	tcase_add_loop_test(tc, test_needed, 0, N_ROWS(needed_rows));
	tcase_add_loop_test(tc, test_sets, 0, N_ROWS(sets_rows));
	suite_add_tcase(s, tc);

	tc = tcase_create("formulas");
	tcase_add_checked_fixture(tc, machine_setup, NULL);
	tcase_add_loop_test(tc, test_formulas, 0, N_ROWS(formula_rows));
	suite_add_tcase(s, tc);

	tc = tcase_create("errors");
	tcase_add_checked_fixture(tc, machine_setup, NULL);
	tcase_add_loop_test(tc, test_bad, 0, N_ROWS(bad_rows));
	tcase_add_test(tc, test_depth);
	tcase_add_test(tc, test_alloc_failures);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(expr_suite());
}
