/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of pmu.c: format fields, PMU instances, tracepoint globs. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "fake_sysfs.h"
#include "pmu.h"
#include "unit.h"

#define ALL ~0ULL

/* What perf's sysfs format files say, and what pstat makes of them. */
static const struct parse_row {
	int line;
	const char *text;
	int ret;
	int word;
	uint64_t mask;
} parse_rows[] = {
	{ __LINE__, "config:0-7", 0, 0, 0xff },
	{ __LINE__, "config:0-7,32-35", 0, 0, 0xf000000ffULL },
	{ __LINE__, "config1:0-63", 0, 1, ALL },
	{ __LINE__, "config2:5", 0, 2, 0x20 },
	{ __LINE__, "config:21", 0, 0, 1ULL << 21 },
	{ __LINE__, "config:0", 0, 0, 1 },
	{ __LINE__, "config:63", 0, 0, 1ULL << 63 },
	{ __LINE__, "config:0-63", 0, 0, ALL },
	{ __LINE__, "config:8-15", 0, 0, 0xff00 },
	{ __LINE__, "config:7-7", 0, 0, 0x80 },
	{ __LINE__, "config2:0-23", 0, 2, 0xffffff },
	{ __LINE__, "config1:0-15,32-47", 0, 1, 0xffff0000ffffULL },
	/* Unsorted and overlapping ranges: the union of their bits. */
	{ __LINE__, "config:32-35,0-7", 0, 0, 0xf000000ffULL },
	{ __LINE__, "config:0-7,4-11", 0, 0, 0xfff },
	{ __LINE__, "config:1,3,5", 0, 0, 0x2a },
	/* sysfs files end in a newline. */
	{ __LINE__, "config:0-7\n", 0, 0, 0xff },

	{ __LINE__, "config", -EINVAL, -1, 0 },
	{ __LINE__, "config:", -EINVAL, -1, 0 },
	{ __LINE__, "config:7-3", -EINVAL, -1, 0 },
	{ __LINE__, "config:64", -EINVAL, -1, 0 },
	{ __LINE__, "config:0-64", -EINVAL, -1, 0 },
	{ __LINE__, "config:99999999999999999999", -EINVAL, -1, 0 },
	{ __LINE__, "foo:1", -EINVAL, -1, 0 },
	{ __LINE__, "config:1,", -EINVAL, -1, 0 },
	{ __LINE__, "config:1,,2", -EINVAL, -1, 0 },
	{ __LINE__, "config:1-", -EINVAL, -1, 0 },
	{ __LINE__, "config:-1", -EINVAL, -1, 0 },
	{ __LINE__, "config:a", -EINVAL, -1, 0 },
	{ __LINE__, "config:1x", -EINVAL, -1, 0 },
	{ __LINE__, "config: 1", -EINVAL, -1, 0 },
	{ __LINE__, "config3:1", -EINVAL, -1, 0 },
	{ __LINE__, "configx:1", -EINVAL, -1, 0 },
	{ __LINE__, "Config:1", -EINVAL, -1, 0 },
	{ __LINE__, "conf:1", -EINVAL, -1, 0 },
	{ __LINE__, ":1", -EINVAL, -1, 0 },
	{ __LINE__, "", -EINVAL, -1, 0 },
};

START_TEST(test_format_parse)
{
	const struct parse_row *t = &parse_rows[_i];
	struct pmu_format f;
	int ret;

	memset(&f, 0x55, sizeof(f));
	ret = pmu_format_parse(t->text, &f);
	ck_assert_msg(ret == t->ret, "line %d: '%s' returned %d, want %d",
		      t->line, t->text, ret, t->ret);
	if (ret < 0)
		return;
	ck_assert_msg(f.word == t->word && f.mask == t->mask,
		      "line %d: '%s' is word %d mask %#jx, want %d %#jx",
		      t->line, t->text, f.word, (uintmax_t)f.mask, t->word,
		      (uintmax_t)t->mask);
}
END_TEST

/* A value spread over a field, into a word that has other bits set. */
static const struct pack_row {
	int line;
	const char *format;
	uint64_t value;
	uint64_t before;	/* the word the value goes into */
	int ret;
	uint64_t after;		/* the word then; unchanged on error */
} pack_rows[] = {
	{ __LINE__, "config:0-7", 0xab, 0, 0, 0xab },
	{ __LINE__, "config:0-7", 0xff, 0, 0, 0xff },
	{ __LINE__, "config:0-7", 0, 0, 0, 0 },
	{ __LINE__, "config:0-7", 0x100, 0, -ERANGE, 0 },
	{ __LINE__, "config:0-7,32-35", 0x1ab, 0, 0, 0x1000000abULL },
	{ __LINE__, "config:0-7,32-35", 0xfff, 0, 0, 0xf000000ffULL },
	{ __LINE__, "config:0-7,32-35", 0x1000, 0, -ERANGE, 0 },
	{ __LINE__, "config:32-35,0-7", 0x1ab, 0, 0, 0x1000000abULL },
	{ __LINE__, "config:1,3,5", 0x5, 0, 0, 0x22 },
	{ __LINE__, "config:1,3,5", 0x8, 0, -ERANGE, 0 },
	{ __LINE__, "config1:0-63", ALL, 0, 0, ALL },
	{ __LINE__, "config1:0-63", 0x1234, ALL, 0, 0x1234 },
	{ __LINE__, "config2:5", 1, 0, 0, 0x20 },
	{ __LINE__, "config2:5", 2, 0, -ERANGE, 0 },
	{ __LINE__, "config:21", 1, 0, 0, 1ULL << 21 },
	{ __LINE__, "config:63", 1, 0, 0, 1ULL << 63 },
	{ __LINE__, "config:63", ALL, 0, -ERANGE, 0 },
	{ __LINE__, "config:60-63", 0xf, 0, 0, 0xfULL << 60 },
	{ __LINE__, "config:60-63", 0x10, 0, -ERANGE, 0 },
	/* The bits outside the field stay; the field's own are replaced. */
	{ __LINE__, "config:8-15", 0x2, 0xdead00efULL, 0, 0xdead02efULL },
	{ __LINE__, "config:8-15", 0x2, 0xdeadffefULL, 0, 0xdead02efULL },
	{ __LINE__, "config:8-15", 0, ALL, 0, ~0xff00ULL },
	{ __LINE__, "config:0-7,32-35", 0x1ab, ALL, 0,
	  ~0xf000000ffULL | 0x1000000abULL },
	{ __LINE__, "config:8-15", 0x100, 0xdead00efULL, -ERANGE,
	  0xdead00efULL },
};

START_TEST(test_format_pack)
{
	const struct pack_row *t = &pack_rows[_i];
	struct pmu_format f;
	uint64_t word = t->before;
	int ret;

	ck_assert_msg(pmu_format_parse(t->format, &f) == 0,
		      "line %d: '%s' does not parse", t->line, t->format);
	ret = pmu_format_pack(&f, t->value, &word);
	ck_assert_msg(ret == t->ret, "line %d: %#jx into '%s' returned %d, "
		      "want %d", t->line, (uintmax_t)t->value, t->format, ret,
		      t->ret);
	ck_assert_msg(word == t->after,
		      "line %d: %#jx into '%s' over %#jx gave %#jx, want %#jx",
		      t->line, (uintmax_t)t->value, t->format,
		      (uintmax_t)t->before, (uintmax_t)word,
		      (uintmax_t)t->after);
}
END_TEST

/* A fake sysfs and tracefs. */
static const struct fake_sysfs_entry msr_format[] = {
	{ "event", "config:0-63" },
	{ "umask", "config:8-15" },
	{ NULL },
};

static const struct fake_sysfs_entry msr_events[] = {
	{ "tsc", "event=0x00" },
	{ "energy", "event=0x2" },
	{ "energy.scale", "2.3283064365386962890625e-10" },
	{ "energy.unit", "Joules" },
	{ "aperf", "event=0x01" },
	{ NULL },
};

static const struct fake_sysfs_pmu pmus[] = {
	/* Made out of order: listings must not rely on creation order. */
	{ "uncore_imc_10", "23" },
	{ "uncore_imc_1", "21" },
	{ "uncore_imc_2", "22" },
	{ "uncore_imc_0", "20" },
	/* Not instances of uncore_imc: the suffix is not a number. */
	{ "uncore_imc_free_running_0", "30" },
	{ "uncore_imc_3a" },
	{ "uncore_imcx_4" },
	/* A PMU and instances of the same name: the exact one wins. */
	{ "cbox", "40" },
	{ "cbox_0", "41" },
	{ "msr", "9", NULL, msr_format, msr_events },
	{ "badtype", "abc" },
	{ "bigtype", "4294967296" },
	{ "maxtype", "4294967295" },
	{ "notype" },
};

static const struct fake_sysfs_file tracefs[] = {
	/* tracefs has files next to the systems. */
	{ "events/enable", "0\n" },
	{ "events/header_page", "field: u64 timestamp;\n" },
	{ "events/systest/b/id", "301\n" },
	{ "events/systest/a/id", "300\n" },
	{ "events/systest/noid", NULL },
	{ "events/syscalls/enable", "0\n" },
	{ "events/syscalls/filter", "none\n" },
	{ "events/syscalls/sys_exit_write/id", "125\n" },
	{ "events/syscalls/sys_enter_writev/id", "124\n" },
	{ "events/syscalls/sys_enter_writev/enable", "0\n" },
	{ "events/syscalls/sys_enter_write/id", "123\n" },
	{ "events/syscalls/sys_enter_write/format", "name: sys_enter_write\n" },
	{ "events/sched/sched_wakeup/id", "78\n" },
	{ "events/sched/sched_switch/id", "77\n" },
};

static void tree_setup(void)
{
	fake_sysfs_setup("check_pmu");
	fake_sysfs_pmus("sys", pmus, N_ROWS(pmus));
	fake_sysfs_files(tracefs, N_ROWS(tracefs));
	fake_sysfs_use("sys", "events");
}

/* Up to 8 names, NULL after the last. */
static const struct instances_row {
	int line;
	const char *name;
	size_t len;		/* 0: strlen(name) */
	const char *want[8];
} instances_rows[] = {
	{ __LINE__, "msr", 0, { "msr" } },
	{ __LINE__, "uncore_imc", 0, { "uncore_imc_0", "uncore_imc_1",
				       "uncore_imc_2", "uncore_imc_10" } },
	{ __LINE__, "uncore_imc_1", 0, { "uncore_imc_1" } },
	{ __LINE__, "uncore_imc_10", 0, { "uncore_imc_10" } },
	{ __LINE__, "uncore_imc_free_running", 0,
	  { "uncore_imc_free_running_0" } },
	{ __LINE__, "cbox", 0, { "cbox" } },
	{ __LINE__, "cbox_0", 0, { "cbox_0" } },
	/* The length bounds the name: the PMU of "msr/tsc/". */
	{ __LINE__, "msr/tsc/", 3, { "msr" } },
	{ __LINE__, "uncore_imc/cas/", 10, { "uncore_imc_0", "uncore_imc_1",
					     "uncore_imc_2",
					     "uncore_imc_10" } },
	/* perf's tables leave out "uncore_": imc, cha_0. */
	{ __LINE__, "imc", 0, { "uncore_imc_0", "uncore_imc_1",
				"uncore_imc_2", "uncore_imc_10" } },
	{ __LINE__, "imc_1", 0, { "uncore_imc_1" } },
	{ __LINE__, "imc/cas/", 3, { "uncore_imc_0", "uncore_imc_1",
				     "uncore_imc_2", "uncore_imc_10" } },
	{ __LINE__, "imc_3", 0, { NULL } },
	{ __LINE__, "uncore", 0, { NULL } },
	{ __LINE__, "uncore_", 0, { NULL } },
	{ __LINE__, "uncore_imc_", 0, { NULL } },
	{ __LINE__, "uncore_imc_3", 0, { NULL } },
	{ __LINE__, "ms", 0, { NULL } },
	{ __LINE__, "msrx", 0, { NULL } },
	{ __LINE__, "MSR", 0, { NULL } },
	{ __LINE__, "cpu", 0, { NULL } },
};

START_TEST(test_instances)
{
	const struct instances_row *t = &instances_rows[_i];
	size_t len = t->len ? t->len : strlen(t->name);
	char **names = NULL;
	int n, want = 0, i;

	while (want < 8 && t->want[want])
		want++;
	n = pmu_instances(t->name, len, &names);
	ck_assert_msg(n == want, "line %d: '%.*s' means %d PMUs, want %d",
		      t->line, (int)len, t->name, n, want);
	for (i = 0; i < n; i++)
		ck_assert_msg(strcmp(names[i], t->want[i]) == 0,
			      "line %d: '%.*s' PMU %d is '%s', want '%s'",
			      t->line, (int)len, t->name, i, names[i],
			      t->want[i]);
	if (n > 0)
		pmu_instances_free(names, n);
}
END_TEST

/* No sysfs at all: no PMU by any name, and no error either. */
START_TEST(test_instances_no_sysfs)
{
	char **names = NULL;

	fake_sysfs_use("nonexistent", "events");
	ck_assert_int_eq(pmu_instances("msr", 3, &names), 0);
	ck_assert(!pmu_have_core_pmu());
	fake_sysfs_use("sys", "events");
}
END_TEST

static const struct type_row {
	int line;
	const char *pmu;
	int ret;
	uint32_t type;
} type_rows[] = {
	{ __LINE__, "msr", 0, 9 },
	{ __LINE__, "uncore_imc_0", 0, 20 },
	{ __LINE__, "uncore_imc_10", 0, 23 },
	{ __LINE__, "cbox", 0, 40 },
	{ __LINE__, "maxtype", 0, UINT32_MAX },
	{ __LINE__, "bigtype", -EINVAL, 0 },
	{ __LINE__, "badtype", -EINVAL, 0 },
	{ __LINE__, "notype", -ENOENT, 0 },
	{ __LINE__, "nosuch", -ENOENT, 0 },
	{ __LINE__, "uncore_imc", -ENOENT, 0 },
};

START_TEST(test_type)
{
	const struct type_row *t = &type_rows[_i];
	uint32_t type = 12345;
	int ret = pmu_type(t->pmu, &type);

	ck_assert_msg(ret == t->ret, "line %d: '%s' returned %d, want %d",
		      t->line, t->pmu, ret, t->ret);
	ck_assert_msg(type == (ret == 0 ? t->type : 12345),
		      "line %d: '%s' has type %u", t->line, t->pmu, type);
}
END_TEST

START_TEST(test_read)
{
	char buf[64];

	ck_assert_int_eq(pmu_read("msr", "format/event", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "config:0-63");
	ck_assert_int_eq(pmu_read("msr", "events/energy.unit", buf,
				  sizeof(buf)), 0);
	ck_assert_str_eq(buf, "Joules");
	/* A short buffer truncates rather than overflows. */
	ck_assert_int_eq(pmu_read("msr", "format/event", buf, 7), 0);
	ck_assert_str_eq(buf, "config");
	ck_assert_int_eq(pmu_read("msr", "format/nosuch", buf, sizeof(buf)),
			 -ENOENT);
	ck_assert_int_eq(pmu_read("nosuch", "type", buf, sizeof(buf)),
			 -ENOENT);
	/* A path through a file is no such file, not ENOTDIR. */
	ck_assert_int_eq(pmu_read("msr", "type/x", buf, sizeof(buf)), -ENOENT);
}
END_TEST

static void check_names(int line, int n, char **names, const char *const *want)
{
	int i, n_want = 0;

	while (want[n_want])
		n_want++;
	ck_assert_msg(n == n_want, "line %d: %d names, want %d", line, n,
		      n_want);
	for (i = 0; i < n; i++)
		ck_assert_msg(strcmp(names[i], want[i]) == 0,
			      "line %d: name %d is '%s', want '%s'", line, i,
			      names[i], want[i]);
	pmu_instances_free(names, n);
}

START_TEST(test_names)
{
	static const char *const events[] = { "aperf", "energy", "tsc", NULL };
	static const char *const formats[] = { "event", "umask", NULL };
	static const char *const all[] = {
		"badtype", "bigtype", "cbox", "cbox_0", "maxtype", "msr",
		"notype", "uncore_imc_0", "uncore_imc_1", "uncore_imc_10",
		"uncore_imc_2", "uncore_imc_3a", "uncore_imc_free_running_0",
		"uncore_imcx_4", NULL,
	};
	char **names = NULL;
	int n;

	/* Without energy.scale and energy.unit. */
	n = pmu_names("msr", "events", &names);
	check_names(__LINE__, n, names, events);
	n = pmu_names("msr", "format", &names);
	check_names(__LINE__, n, names, formats);
	n = pmu_all(&names);
	check_names(__LINE__, n, names, all);
	ck_assert_int_eq(pmu_names("cbox", "events", &names), -ENOENT);
	ck_assert_int_eq(pmu_names("nosuch", "format", &names), -ENOENT);
}
END_TEST

START_TEST(test_core_pmu)
{
	char path[PATH_MAX], cpus[PATH_MAX];

	ck_assert(!pmu_have_core_pmu());
	fake_sysfs_mkdir("sys/bus/event_source/devices/cpu");
	ck_assert(pmu_have_core_pmu());
	fake_sysfs_path(path, sizeof(path), "sys/bus/event_source/devices/cpu");
	ck_assert_int_eq(rmdir(path), 0);
	ck_assert(!pmu_have_core_pmu());
	/* arm64's, whose type is dynamic (8 under QEMU), known by its cpus. */
	fake_sysfs_mkdir("sys/bus/event_source/devices/armv8_pmuv3");
	ck_assert(!pmu_have_core_pmu());
	fake_sysfs_write("sys/bus/event_source/devices/armv8_pmuv3/cpus",
			 "0-3\n");
	ck_assert(pmu_have_core_pmu());
	fake_sysfs_path(path, sizeof(path),
			"sys/bus/event_source/devices/armv8_pmuv3");
	fake_sysfs_path(cpus, sizeof(cpus),
			"sys/bus/event_source/devices/armv8_pmuv3/cpus");
	ck_assert_int_eq(unlink(cpus), 0);
	ck_assert_int_eq(rmdir(path), 0);
	ck_assert(!pmu_have_core_pmu());
}
END_TEST

/* What a glob walk saw, in order. */
static struct seen {
	char what[16][64];
	int n;
	int fail_at;		/* return -EIO for this call; -1: never */
} seen;

static int collect(void *arg, const char *sys, const char *name, uint64_t id)
{
	struct seen *s = arg;

	ck_assert_int_lt(s->n, 16);
	if (s->n == s->fail_at)
		return -EIO;
	snprintf(s->what[s->n++], sizeof(s->what[0]), "%s:%s=%ju", sys, name,
		 (uintmax_t)id);
	return 0;
}

static const struct glob_row {
	int line;
	const char *sys, *name;
	const char *want[12];	/* sys:name=id, sorted; NULL after */
} glob_rows[] = {
	{ __LINE__, "sys*", "*", { "syscalls:sys_enter_write=123",
				   "syscalls:sys_enter_writev=124",
				   "syscalls:sys_exit_write=125",
				   "systest:a=300", "systest:b=301" } },
	{ __LINE__, "*", "*", { "sched:sched_switch=77",
				"sched:sched_wakeup=78",
				"syscalls:sys_enter_write=123",
				"syscalls:sys_enter_writev=124",
				"syscalls:sys_exit_write=125",
				"systest:a=300", "systest:b=301" } },
	{ __LINE__, "syscalls", "sys_enter_writ*",
	  { "syscalls:sys_enter_write=123", "syscalls:sys_enter_writev=124" } },
	{ __LINE__, "syscalls", "sys_*_write",
	  { "syscalls:sys_enter_write=123", "syscalls:sys_exit_write=125" } },
	{ __LINE__, "*", "sched_switch", { "sched:sched_switch=77" } },
	{ __LINE__, "sched", "*", { "sched:sched_switch=77",
				    "sched:sched_wakeup=78" } },
	{ __LINE__, "s?stest", "[ab]", { "systest:a=300", "systest:b=301" } },
	{ __LINE__, "systest", "a", { "systest:a=300" } },
	/* Files without an id are not tracepoints. */
	{ __LINE__, "*", "enable", { NULL } },
	{ __LINE__, "systest", "noid", { NULL } },
	{ __LINE__, "enable", "*", { NULL } },
	{ __LINE__, "nomatch*", "*", { NULL } },
	{ __LINE__, "sched", "nomatch*", { NULL } },
};

START_TEST(test_glob)
{
	const struct glob_row *t = &glob_rows[_i];
	int n, want = 0, i;

	memset(&seen, 0, sizeof(seen));
	seen.fail_at = -1;
	while (t->want[want])
		want++;
	n = pmu_tracepoint_glob(t->sys, t->name, collect, &seen);
	ck_assert_msg(n == want, "line %d: '%s:%s' matched %d, want %d",
		      t->line, t->sys, t->name, n, want);
	ck_assert_msg(seen.n == want, "line %d: '%s:%s' called back %d times",
		      t->line, t->sys, t->name, seen.n);
	for (i = 0; i < want; i++)
		ck_assert_msg(strcmp(seen.what[i], t->want[i]) == 0,
			      "line %d: '%s:%s' match %d is '%s', want '%s'",
			      t->line, t->sys, t->name, i, seen.what[i],
			      t->want[i]);
}
END_TEST

/* The callback's error ends the walk and is returned as it is. */
START_TEST(test_glob_callback_fails)
{
	memset(&seen, 0, sizeof(seen));
	seen.fail_at = 1;
	ck_assert_int_eq(pmu_tracepoint_glob("*", "*", collect, &seen), -EIO);
	ck_assert_int_eq(seen.n, 1);
	ck_assert_str_eq(seen.what[0], "sched:sched_switch=77");
}
END_TEST

START_TEST(test_glob_no_tracefs)
{
	char missing[PATH_MAX], events[PATH_MAX];

	fake_sysfs_path(missing, sizeof(missing), "nonexistent");
	fake_sysfs_path(events, sizeof(events), "events");
	fake_sysfs_use("sys", "nonexistent");
	memset(&seen, 0, sizeof(seen));
	seen.fail_at = -1;
	ck_assert_int_eq(pmu_tracepoint_glob("*", "*", collect, &seen),
			 -ENOENT);
	ck_assert_int_eq(seen.n, 0);
	ck_assert_str_eq(pmu_tracefs_events(), missing);
	fake_sysfs_use("sys", "events");
	ck_assert_str_eq(pmu_tracefs_events(), events);
}
END_TEST

static const struct id_row {
	int line;
	const char *sys, *name;
	int ret;
	uint64_t id;
} id_rows[] = {
	{ __LINE__, "syscalls", "sys_enter_write", 0, 123 },
	{ __LINE__, "sched", "sched_switch", 0, 77 },
	{ __LINE__, "syscalls", "enable", -ENOENT, 0 },
	{ __LINE__, "syscalls", "nosuch", -ENOENT, 0 },
	{ __LINE__, "nosuch", "sys_enter_write", -ENOENT, 0 },
	{ __LINE__, "systest", "noid", -ENOENT, 0 },
	/* Names cannot climb out of tracefs. */
	{ __LINE__, "..", "events", -ENOENT, 0 },
	{ __LINE__, "syscalls/sys_enter_write", "..", -ENOENT, 0 },
	{ __LINE__, "syscalls", "sys_enter_write/..", -ENOENT, 0 },
	{ __LINE__, ".", "syscalls", -ENOENT, 0 },
	{ __LINE__, "", "sched_switch", -ENOENT, 0 },
	{ __LINE__, "sched", "", -ENOENT, 0 },
};

START_TEST(test_tracepoint_id)
{
	const struct id_row *t = &id_rows[_i];
	uint64_t id = 4242;
	int ret = pmu_tracepoint_id(t->sys, strlen(t->sys), t->name,
				    strlen(t->name), &id);

	ck_assert_msg(ret == t->ret, "line %d: '%s:%s' returned %d, want %d",
		      t->line, t->sys, t->name, ret, t->ret);
	ck_assert_msg(ret < 0 || id == t->id, "line %d: '%s:%s' has id %ju",
		      t->line, t->sys, t->name, (uintmax_t)id);
}
END_TEST

static Suite *pmu_suite(void)
{
	Suite *s = suite_create("pmu");
	TCase *tc;

	tc = tcase_create("format");
	tcase_add_loop_test(tc, test_format_parse, 0, N_ROWS(parse_rows));
	tcase_add_loop_test(tc, test_format_pack, 0, N_ROWS(pack_rows));
	suite_add_tcase(s, tc);

	tc = tcase_create("sysfs");
	tcase_add_unchecked_fixture(tc, tree_setup, fake_sysfs_teardown);
	tcase_add_loop_test(tc, test_instances, 0, N_ROWS(instances_rows));
	tcase_add_test(tc, test_instances_no_sysfs);
	tcase_add_loop_test(tc, test_type, 0, N_ROWS(type_rows));
	tcase_add_test(tc, test_read);
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_core_pmu);
	suite_add_tcase(s, tc);

	tc = tcase_create("tracefs");
	tcase_add_unchecked_fixture(tc, tree_setup, fake_sysfs_teardown);
	tcase_add_loop_test(tc, test_glob, 0, N_ROWS(glob_rows));
	tcase_add_test(tc, test_glob_callback_fails);
	tcase_add_test(tc, test_glob_no_tracefs);
	tcase_add_loop_test(tc, test_tracepoint_id, 0, N_ROWS(id_rows));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(pmu_suite());
}
