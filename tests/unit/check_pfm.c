/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of pfm.c, libpfm4's layer, with PMU models forced
 * (LIBPFM_FORCE_PMU): the encodings perf's own tables give for the same
 * names, errors at the part at fault; without libpfm4, that it says so.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include <check.h>

#include "event.h"
#include "pfm.h"
#include "unit.h"

#ifdef HAVE_LIBPFM4

/* libpfm4 started afresh on the model given. */
static void force(const char *model)
{
	pfm_fini();
	ck_assert_int_eq(setenv("LIBPFM_FORCE_PMU", model, 1), 0);
}

/*
 * Names and what they encode to; the configs are perf 6.1's for the
 * same names from its Skylake-X tables (PERF_CPUID=GenuineIntel-6-55-4).
 */
static const struct enc_row {
	int line;
	const char *model, *name;
	uint64_t config;
	const char *mods;	/* libpfm4's modifiers as pstat's letters */
	const char *source;	/* the model the encoding names */
} enc_rows[] = {
	{ __LINE__, "skl", "inst_retired.any_p", 0xc0, "", "skl" },
	{ __LINE__, "skx", "inst_retired.any_p", 0xc0, "", "skx" },
	{ __LINE__, "skx", "mem_load_retired.l3_miss", 0x20d1, "", "skx" },
	{ __LINE__, "skx", "cycle_activity.stalls_total", 0x40004a3, "", "skx" },
	{ __LINE__, "skx", "machine_clears.count", 0x10401c3, "", "skx" },
	{ __LINE__, "skl", "INST_RETIRED:ANY_P", 0xc0, "", "skl" },
	{ __LINE__, "skl", "skl::inst_retired:any_p", 0xc0, "", "skl" },
	{ __LINE__, "skl", "inst_retired:any_p:u", 0xc0, "u", "skl" },
	{ __LINE__, "skl", "inst_retired:any_p:k=1", 0xc0, "k", "skl" },
	{ __LINE__, "skl", "inst_retired:any_p:precise=2", 0xc0, "pp", "skl" },
	{ __LINE__, "skl", "inst_retired:any_p:u:c=1:i", 0x18000c0, "u", "skl" },
	{ __LINE__, "amd64_fam19h_zen4", "RETIRED_INSTRUCTIONS", 0xc0, "",
	  "amd64_fam19h_zen4" },
};

START_TEST(test_encode)
{
	const struct enc_row *t = &enc_rows[_i];
	struct perf_event_attr attr;
	struct pfm_encoding enc;
	struct error err;
	int ret;

	force(t->model);
	event_attr_init(&attr);
	attr.disabled = 1;	/* pstat's, which libpfm4 must not touch */
	ret = pfm_encode(&attr, t->name, strlen(t->name), &enc, &err);
	ck_assert_msg(ret == 0, "line %d: %s: %d (%s)", t->line, t->name, ret,
		      ret == -EINVAL ? err.reason : "");
	ck_assert_msg(attr.type == PERF_TYPE_RAW && attr.config == t->config,
		      "line %d: %s is %u/%#jx, want 4/%#jx", t->line, t->name,
		      attr.type, (uintmax_t)attr.config, (uintmax_t)t->config);
	ck_assert_msg(strcmp(enc.mods, t->mods) == 0,
		      "line %d: %s: modifiers '%s', want '%s'", t->line,
		      t->name, enc.mods, t->mods);
	ck_assert_str_eq(enc.model, t->source);
	/* Only type and configs: libpfm4's exclude bits stay its own. */
	ck_assert_int_eq(attr.size, sizeof(attr));
	ck_assert(attr.disabled && !attr.exclude_guest && !attr.exclude_hv &&
		  !attr.exclude_kernel && !attr.exclude_user);
	pfm_fini();
}
END_TEST

/* Names refused: the part at fault and the words. */
static const struct err_row {
	int line;
	const char *model, *name;
	int ret;
	size_t off;
	const char *reason;	/* a part of it */
} err_rows[] = {
	{ __LINE__, "skl", "inst_retired.bogus", -EINVAL, 13, "'bogus'" },
	{ __LINE__, "skl", "inst_retired:any_p:zz=1", -EINVAL, 19,
	  "neither a umask nor a modifier" },
	{ __LINE__, "skl", "skl::inst_retired:any_p:c=999", -EINVAL, 24,
	  "bad value in 'c=999'" },
	{ __LINE__, "skl", "mem_load_retired:bogus", -EINVAL, 17, "'bogus'" },
	{ __LINE__, "skl", "mem_load_retired", -EINVAL, 16, "needs a umask" },
	{ __LINE__, "skl", "ex_ret_instr", -ENOENT, 0, NULL },
	{ __LINE__, "skl", "RETIRED_INSTRUCTIONS", -ENOENT, 0, NULL },
	{ __LINE__, "amd64_fam19h_zen4", "ex_ret_instr", -ENOENT, 0, NULL },
	{ __LINE__, "amd64_fam19h_zen4", "inst_retired.any_p", -ENOENT, 0,
	  NULL },
};

START_TEST(test_refused)
{
	const struct err_row *t = &err_rows[_i];
	struct perf_event_attr attr;
	struct pfm_encoding enc;
	struct error err = { 0 };
	int ret;

	force(t->model);
	event_attr_init(&attr);
	ret = pfm_encode(&attr, t->name, strlen(t->name), &enc, &err);
	ck_assert_msg(ret == t->ret, "line %d: %s: %d, want %d", t->line,
		      t->name, ret, t->ret);
	ck_assert_msg(attr.type == 0 && attr.config == 0,
		      "line %d: a refused name changed the attr", t->line);
	if (!t->reason)
		return;
	ck_assert_msg(err.col == t->off, "line %d: %s: at %zu, want %zu (%s)",
		      t->line, t->name, err.col, t->off, err.reason);
	ck_assert_msg(strstr(err.reason, t->reason), "line %d: '%s' lacks '%s'",
		      t->line, err.reason, t->reason);
	ck_assert_msg(strstr(err.hint, "pstat --list pfm"), "line %d: hint '%s'",
		      t->line, err.hint);
	pfm_fini();
}
END_TEST

/* An unknown name's hint names the models, and on AMD AMD's names. */
START_TEST(test_unknown_hint)
{
	char hint[256];

	force("skl");
	pfm_unknown_hint(hint, sizeof(hint));
	ck_assert_msg(strstr(hint, "skl (Intel Skylake)") &&
		      !strstr(hint, "RETIRED_INSTRUCTIONS"), "%s", hint);
	force("amd64_fam19h_zen4");
	pfm_unknown_hint(hint, sizeof(hint));
	ck_assert_msg(strstr(hint, "amd64_fam19h_zen4") &&
		      strstr(hint, "RETIRED_INSTRUCTIONS, not ex_ret_instr"),
		      "%s", hint);
	pfm_fini();
}
END_TEST

/* libpfm4 starts when a name needs it, not before. */
START_TEST(test_lazy)
{
	struct perf_event_attr attr;
	struct pfm_encoding enc;
	struct error err;

	force("skl");
	ck_assert(!pfm_started());
	ck_assert_int_eq(pfm_encode(&attr, "inst_retired.any_p", 18, &enc,
				    &err), 0);
	ck_assert(pfm_started());
	pfm_fini();
	ck_assert(!pfm_started());
}
END_TEST

struct seen {
	int events, umasks;
	bool any_p;
};

static int count(void *arg, const char *model, const char *model_desc,
		 const char *event, const char *umask, const char *desc)
{
	struct seen *s = arg;

	ck_assert_str_eq(model, "skl");
	ck_assert_str_eq(model_desc, "Intel Skylake");
	if (!umask)
		s->events++;
	else
		s->umasks++;
	if (umask && strcmp(event, "INST_RETIRED") == 0 &&
	    strcmp(umask, "ANY_P") == 0)
		s->any_p = desc && strstr(desc, "instructions retired");
	return 0;
}

static int stop(void *arg, const char *model, const char *model_desc,
		const char *event, const char *umask, const char *desc)
{
	++*(int *)arg;
	return 7;
}

/* --list pfm's walk: every event of the model, with its umasks. */
START_TEST(test_each_event)
{
	struct seen s = { 0 };
	int calls = 0;

	force("skl");
	ck_assert_int_eq(pfm_each_event(count, &s), 0);
	ck_assert_int_ge(s.events, 50);
	ck_assert_int_gt(s.umasks, s.events);
	ck_assert(s.any_p);
	ck_assert_int_eq(pfm_each_event(stop, &calls), 7);
	ck_assert_int_eq(calls, 1);
	pfm_fini();
}
END_TEST

static Suite *pfm_suite(void)
{
	Suite *s = suite_create("pfm");
	TCase *tc = tcase_create("libpfm4");

	tcase_add_loop_test(tc, test_encode, 0, N_ROWS(enc_rows));
	tcase_add_loop_test(tc, test_refused, 0, N_ROWS(err_rows));
	tcase_add_test(tc, test_unknown_hint);
	tcase_add_test(tc, test_lazy);
	tcase_add_test(tc, test_each_event);
	suite_add_tcase(s, tc);
	return s;
}

#else /* !HAVE_LIBPFM4 */

/* Built without libpfm4: every call says so, and nothing else. */
START_TEST(test_not_built_in)
{
	struct perf_event_attr attr;
	struct pfm_encoding enc;
	struct error err;
	char buf[64] = "x";

	event_attr_init(&attr);
	ck_assert(!pfm_built_in());
	ck_assert_int_eq(pfm_encode(&attr, "inst_retired.any_p", 18, &enc,
				    &err), -EOPNOTSUPP);
	ck_assert_int_eq(attr.type, 0);
	ck_assert_int_eq(pfm_models(buf, sizeof(buf), NULL), -EOPNOTSUPP);
	ck_assert_str_eq(buf, "");
	ck_assert(!pfm_started());
	pfm_fini();
}
END_TEST

static Suite *pfm_suite(void)
{
	Suite *s = suite_create("pfm");
	TCase *tc = tcase_create("without libpfm4");

	tcase_add_test(tc, test_not_built_in);
	suite_add_tcase(s, tc);
	return s;
}

#endif

int main(void)
{
	return unit_run(pfm_suite());
}
