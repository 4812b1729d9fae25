/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pstat --check: what this machine lets pstat count, why, what to change. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkup.h"
#include "diagnose.h"
#include "json.h"
#include "pfm.h"

enum status {
	ST_OK,		/* works */
	ST_LIMITED,	/* works in part */
	ST_MISSING,	/* does not work here */
	ST_INFO,	/* neither: a fact */
};

static const char *const status_words[] = {
	[ST_OK] = "ok",
	[ST_LIMITED] = "limited",
	[ST_MISSING] = "missing",
	[ST_INFO] = "info",
};

struct item {
	const char *name;
	enum status status;
	char value[768];
	char fix[512];		/* what to change, or empty */
};

#define MAX_ITEMS 20

/* The facts (diagnose.c), then the items that report them. */
struct report {
	struct diagnose_facts facts;
	bool perf_events;
	struct item items[MAX_ITEMS];
	size_t n;
};

static struct item *add(struct report *r, const char *name, enum status s)
{
	struct item *it = &r->items[r->n++];

	it->name = name;
	it->status = s;
	it->value[0] = it->fix[0] = '\0';
	return it;
}

static void __attribute__((format(printf, 3, 4)))
put(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

static bool perfmon(const struct report *r)
{
	return r->facts.have[CAPS_PERFMON] || r->facts.have[CAPS_SYS_ADMIN];
}

/* The setcap fix, and the make target that applies it. */
static const char *setcap_fix(const struct report *r, char *buf,
			      size_t len)
{
	char fix[400];

	diagnose_setcap_fix(&r->facts, fix, sizeof(fix));
	snprintf(buf, len, "%s or 'make install-caps'", fix);
	return buf;
}

static const char *sysctl_fix(int level, char *buf, size_t len)
{
	diagnose_sysctl_fix(level, buf, len);
	return buf;
}

static void item_kernel(struct report *r)
{
	struct item *it = add(r, "kernel", r->perf_events ? ST_OK
							 : ST_MISSING);

	put(it->value, sizeof(it->value), "Linux %s %s, %s",
	    r->facts.uts.release, r->facts.uts.machine,
	    r->perf_events ? "with perf events"
			   : "without perf events (no /proc/sys/kernel/perf_event_paranoid)");
	if (!r->perf_events)
		put(it->fix, sizeof(it->fix), "%s",
		    diagnose_fix(DIAGNOSE_FIX_PERF_EVENTS));
}

static void item_paranoid(struct report *r)
{
	int level = r->facts.paranoid;
	char cap[512], sysctl[80];
	struct item *it;

	if (!r->perf_events)
		return;
	it = add(r, "perf_event_paranoid",
		 perfmon(r) || level <= 0 ? ST_OK : ST_LIMITED);
	put(it->value, sizeof(it->value), "%d: %s%s", level,
	    diagnose_paranoid_meaning(level),
	    perfmon(r) ? " (this does not restrict pstat: it has CAP_PERFMON)"
		       : "");
	if (it->status == ST_LIMITED)
		put(it->fix, sizeof(it->fix),
		    "%s; or lower the level: %s for kernel counts, =0 for whole CPUs too",
		    setcap_fix(r, cap, sizeof(cap)),
		    sysctl_fix(1, sysctl, sizeof(sysctl)));
}

static void item_caps(struct report *r)
{
	const struct diagnose_facts *f = &r->facts;
	struct item *it = add(r, "capabilities",
			      perfmon(r) ? ST_OK : ST_INFO);

	put(it->value, sizeof(it->value),
	    "process: %s; CAP_PERFMON %s, CAP_SYS_ADMIN %s, CAP_SYS_PTRACE %s; ambient: %s; file capabilities of %s: %s%s%s",
	    f->caps_text, f->have[CAPS_PERFMON] ? "yes" : "no",
	    f->have[CAPS_SYS_ADMIN] ? "yes" : "no",
	    f->have[CAPS_SYS_PTRACE] ? "yes" : "no",
	    f->ambient[0] ? f->ambient : "none",
	    f->exe[0] ? f->exe : "pstat",
	    f->file_caps[0] ? f->file_caps : "none",
	    f->elevated ? "; running with privileges its user lacks (the command gets none of them)" : "",
	    f->no_new_privs == 1 ? "; no_new_privs is set: file capabilities are ignored" : "");
}

static void item_pmus(struct report *r)
{
	struct item *it = add(r, "pmus", ST_INFO);
	struct item *hw;

	put(it->value, sizeof(it->value), "%s",
	    r->facts.pmus[0] ? r->facts.pmus
			     : "none in /sys/bus/event_source/devices");
	hw = add(r, "hardware_pmu", r->facts.core_pmu ? ST_OK : ST_MISSING);
	if (r->facts.core_pmu && r->facts.core_cpus[0]) {
		put(hw->value, sizeof(hw->value),
		    "present: a hybrid CPU, core PMUs %s (a generic event counts on each as pmu/event/)",
		    r->facts.core_cpus);
		return;
	}
	if (r->facts.core_pmu) {
		put(hw->value, sizeof(hw->value), "present");
		return;
	}
	put(hw->value, sizeof(hw->value), "%s", diagnose_no_core_pmu());
	put(hw->fix, sizeof(hw->fix), "%s", diagnose_fix(DIAGNOSE_FIX_VPMU));
}

static void item_hw_events(struct report *r)
{
	struct item *it = add(r, "hardware_events",
			      r->facts.hw_err ? ST_MISSING : ST_OK);
	char why[256];

	diagnose_probe_result(&r->facts, r->facts.hw_err, why, sizeof(why));
	put(it->value, sizeof(it->value), "cycles:u on pstat itself: %s", why);
	if (r->facts.hw_err == EACCES)
		put(it->fix, sizeof(it->fix), "see perf_event_paranoid");
}

/* Why pstat cannot count its own user space, and what to change. */
static void own_fix(const struct report *r, struct item *it)
{
	char sysctl[80];

	if (r->facts.user_err == EPERM)
		put(it->fix, sizeof(it->fix),
		    "perf_event_open is blocked for this process%s: %s",
		    r->facts.seccomp == 2 ? " by a seccomp filter" : "",
		    diagnose_fix(DIAGNOSE_FIX_CONTAINER));
	else if (r->facts.paranoid >= 3)
		put(it->fix, sizeof(it->fix), "run as root, or %s",
		    sysctl_fix(2, sysctl, sizeof(sysctl)));
	else
		put(it->fix, sizeof(it->fix),
		    "run as root; a security module (SELinux, AppArmor) may forbid perf_event_open");
}

static void item_own(struct report *r)
{
	char why[256], cap[512];
	struct item *it;

	if (!r->facts.kernel_err) {
		it = add(r, "own_command", ST_OK);
		put(it->value, sizeof(it->value),
		    "yes, user space and kernel (task-clock opens)");
		return;
	}
	it = add(r, "own_command", r->facts.user_err ? ST_MISSING : ST_LIMITED);
	if (!r->facts.user_err) {
		diagnose_probe_result(&r->facts, r->facts.kernel_err, why,
				      sizeof(why));
		put(it->value, sizeof(it->value),
		    "user space only: events are counted as :u (with the kernel: %s)",
		    why);
		put(it->fix, sizeof(it->fix), "for kernel counts: %s",
		    setcap_fix(r, cap, sizeof(cap)));
		return;
	}
	diagnose_probe_result(&r->facts, r->facts.user_err, why, sizeof(why));
	put(it->value, sizeof(it->value), "no: task-clock:u on pstat itself: %s",
	    why);
	own_fix(r, it);
}

static void item_system_wide(struct report *r)
{
	struct item *it = add(r, "system_wide", r->facts.cpu_err ? ST_MISSING
								   : ST_OK);
	char why[256], cap[512], sysctl[80];

	diagnose_probe_result(&r->facts, r->facts.cpu_err, why, sizeof(why));
	put(it->value, sizeof(it->value), "-a and -C (cpu-clock on CPU 0): %s",
	    why);
	if (r->facts.cpu_err == EACCES)
		put(it->fix, sizeof(it->fix), "%s, or %s",
		    setcap_fix(r, cap, sizeof(cap)),
		    sysctl_fix(0, sysctl, sizeof(sysctl)));
}

static void item_attach(struct report *r)
{
	struct item *it = add(r, "other_users",
			      r->facts.attach_err ? ST_LIMITED : ST_OK);
	char why[256];

	diagnose_probe_result(&r->facts, r->facts.attach_err, why,
			      sizeof(why));
	put(it->value, sizeof(it->value),
	    "-p and -t on other users' processes (pid 1): %s", why);
	if (r->facts.attach_err == EACCES)
		put(it->fix, sizeof(it->fix),
		    "%s; your own processes need neither",
		    diagnose_fix(DIAGNOSE_FIX_OTHER_USERS));
}

static void item_tracefs(struct report *r)
{
	const struct diagnose_facts *f = &r->facts;
	struct item *it = add(r, "tracefs",
			      !f->tracefs_events ? ST_MISSING :
			      f->tracefs_readable ? ST_OK : ST_LIMITED);

	if (!f->tracefs_events)
		put(it->value, sizeof(it->value),
		    "not mounted: no tracepoints");
	else
		put(it->value, sizeof(it->value),
		    "%s (mode %04o, uid %ld, gid %ld): tracepoint ids %s",
		    f->tracefs, f->tracefs_mode, f->tracefs_uid,
		    f->tracefs_gid,
		    f->tracefs_readable ? "readable" : "not readable by you, so no tracepoints");
	if (!f->tracefs_readable)
		diagnose_tracefs_fix(f->tracefs_events, it->fix,
				     sizeof(it->fix));
}

static void item_nmi(struct report *r)
{
	int nmi = r->facts.nmi_watchdog;
	bool hw = r->facts.core_pmu;
	struct item *it;

	if (nmi < 0)
		return;
	it = add(r, "nmi_watchdog", nmi && hw ? ST_LIMITED : ST_OK);
	put(it->value, sizeof(it->value), "%s%s", nmi ? "on" : "off",
	    nmi && hw ?
	    ": it holds one hardware counter on every CPU, so groups of hardware events get one fewer" :
	    nmi ? " (no hardware PMU, so it takes no counter pstat could use)" : "");
	if (it->status == ST_LIMITED)
		put(it->fix, sizeof(it->fix), "%s",
		    diagnose_fix(DIAGNOSE_FIX_NMI_WATCHDOG));
}

static void item_fds(struct report *r)
{
	unsigned long soft = r->facts.nofile, hard = r->facts.nofile_max;
	long cpus = r->facts.n_cpus > 0 ? r->facts.n_cpus : 1;
	struct item *it = add(r, "fd_limit", hard / (unsigned long)cpus < 64 ?
				  ST_LIMITED : ST_OK);
	unsigned long events = (hard > 64 ? hard - 64 : 0) / (unsigned long)cpus;

	put(it->value, sizeof(it->value),
	    "%lu, at most %lu (pstat raises it as needed): one descriptor per event and thread or CPU, so about %lu event%s with -a on %ld CPU%s",
	    soft, hard, events, events == 1 ? "" : "s", cpus,
	    cpus == 1 ? "" : "s");
	if (it->status == ST_LIMITED)
		put(it->fix, sizeof(it->fix), "%s",
		    diagnose_fix(DIAGNOSE_FIX_HARD_LIMIT));
}

static void item_seccomp(struct report *r)
{
	int seccomp = r->facts.seccomp;
	bool blocked = r->facts.user_err == EPERM;
	struct item *it;

	if (seccomp < 0)
		return;
	it = add(r, "seccomp", seccomp == 2 && blocked ? ST_MISSING : ST_OK);
	put(it->value, sizeof(it->value), "%s",
	    seccomp == 0 ? "no filter" :
	    blocked ? "a filter blocks perf_event_open" :
	    "a filter is installed, and it lets perf_event_open through");
}

/* Whether vendor names work: libpfm4 built in, and the models it sees. */
static void item_libpfm4(struct report *r)
{
	struct item *it = add(r, "libpfm4", ST_INFO);
	char models[512];

	if (!pfm_built_in()) {
		put(it->value, sizeof(it->value),
		    "not built in: no vendor event names (inst_retired.any_p)");
		put(it->fix, sizeof(it->fix),
		    "install libpfm4-dev, configure --with-libpfm4, rebuild");
	} else if (pfm_models(models, sizeof(models), NULL) < 0) {
		put(it->value, sizeof(it->value), "built in, did not start");
	} else {
		put(it->value, sizeof(it->value), "built in, detects %s",
		    models[0] ? models : "no PMU model of this CPU");
	}
}

static void build(struct report *r)
{
	item_kernel(r);
	item_paranoid(r);
	item_caps(r);
	item_pmus(r);
	item_hw_events(r);
	item_own(r);
	item_system_wide(r);
	item_attach(r);
	item_tracefs(r);
	item_nmi(r);
	item_fds(r);
	item_seccomp(r);
	item_libpfm4(r);
}

static bool own_command(const struct report *r)
{
	return !r->facts.kernel_err || !r->facts.user_err;
}

static void verdict(const struct report *r, char *buf, size_t len)
{
	if (!own_command(r))
		put(buf, len,
		    "pstat cannot count even your own commands here: see own_command");
	else
		put(buf, len,
		    "pstat can count your own commands%s; %s; %s",
		    r->facts.kernel_err ? " in user space only (events marked :u)"
					: ", kernel included",
		    r->facts.cpu_err ? "not whole CPUs (-a, -C)"
				     : "whole CPUs too (-a, -C)",
		    r->facts.core_pmu ? "hardware events too"
				      : "no hardware events (no hardware PMU)");
}

static void print_text(FILE *f, const struct report *r)
{
	char line[512];
	size_t i;

	fprintf(f, "pstat --check: what this machine lets pstat count, and why\n");
	for (i = 0; i < r->n; i++) {
		const struct item *it = &r->items[i];

		fprintf(f, "%-8s %-20s %s\n", status_words[it->status],
			it->name, it->value);
		if (it->fix[0])
			fprintf(f, "%-8s %-20s fix: %s\n", "", "", it->fix);
	}
	verdict(r, line, sizeof(line));
	fprintf(f, "%s\n", line);
}

/* The report's layout: one key a line, two spaces in. */
static void json_key(FILE *f, const char *key)
{
	fputs(",\n  ", f);
	json_string(f, key);
	fputs(": ", f);
}

static void json_key_bool(FILE *f, const char *key, bool v)
{
	json_key(f, key);
	json_bool(f, v);
}

/* A comma-separated list as a JSON array of strings (of PMU names, each
 * a file name: no allocation, no word lost to its failure). */
static void json_list(FILE *f, const char *key, const char *list)
{
	char word[NAME_MAX + 1];
	const char *p;
	bool first = true;
	size_t n;

	json_key(f, key);
	fputc('[', f);
	for (p = list; *p; p += n + (p[n] == ',')) {
		n = strcspn(p, ",");
		if (!n)
			continue;
		snprintf(word, sizeof(word), "%.*s", (int)n, p);
		fputs(first ? "" : ", ", f);
		json_string(f, word);
		first = false;
	}
	fputc(']', f);
}

static void json_caps(FILE *f, const struct report *r)
{
	const struct diagnose_facts *d = &r->facts;

	json_key(f, "capabilities");
	fputs("{\"process\": ", f);
	json_string(f, d->caps_text);
	fputs(", \"perfmon\": ", f);
	json_bool(f, d->have[CAPS_PERFMON]);
	fputs(", \"sys_admin\": ", f);
	json_bool(f, d->have[CAPS_SYS_ADMIN]);
	fputs(", \"sys_ptrace\": ", f);
	json_bool(f, d->have[CAPS_SYS_PTRACE]);
	fputs(", \"ambient\": ", f);
	json_string(f, d->ambient);
	fputs(", \"file\": ", f);
	json_string(f, d->file_caps);
	fputs(", \"elevated\": ", f);
	json_bool(f, d->elevated);
	fputc('}', f);
}

static void json_items(FILE *f, const struct report *r)
{
	size_t i;

	json_key(f, "checks");
	fputc('[', f);
	for (i = 0; i < r->n; i++) {
		const struct item *it = &r->items[i];

		fputs(i ? ",\n    {\"name\": " : "\n    {\"name\": ", f);
		json_string(f, it->name);
		fputs(", \"status\": ", f);
		json_string(f, status_words[it->status]);
		fputs(", \"value\": ", f);
		json_string(f, it->value);
		fputs(", \"fix\": ", f);
		if (it->fix[0])
			json_string(f, it->fix);
		else
			json_null(f);
		fputc('}', f);
	}
	fputs("\n  ]", f);
}

static void print_json(FILE *f, const struct report *r)
{
	const struct diagnose_facts *d = &r->facts;
	char line[512];

	fputs("{\n  \"pstat_check\": 1", f);
	json_key(f, "kernel");
	json_string(f, d->uts.release);
	json_key(f, "perf_event_paranoid");
	if (r->perf_events)
		json_int(f, d->paranoid);
	else
		json_null(f);
	json_key(f, "paranoid_meaning");
	if (r->perf_events)
		json_string(f, diagnose_paranoid_meaning(d->paranoid));
	else
		json_null(f);
	json_caps(f, r);
	json_list(f, "pmus", d->pmus);
	json_key_bool(f, "hardware_pmu", d->core_pmu);
	json_list(f, "core_pmus", d->core_pmus);
	json_key_bool(f, "hardware_events", !d->hw_err);
	json_key_bool(f, "own_command", own_command(r));
	json_key_bool(f, "kernel_counting", !d->kernel_err);
	json_key_bool(f, "system_wide", !d->cpu_err);
	json_key_bool(f, "other_users", !d->attach_err);
	json_key_bool(f, "tracefs_readable", d->tracefs_readable);
	json_key(f, "nmi_watchdog");
	if (d->nmi_watchdog < 0)
		json_null(f);
	else
		json_int(f, d->nmi_watchdog);
	json_key(f, "fd_limit");
	fputs("{\"soft\": ", f);
	json_uint(f, d->nofile);
	fputs(", \"hard\": ", f);
	json_uint(f, d->nofile_max);
	fputc('}', f);
	json_items(f, r);
	verdict(r, line, sizeof(line));
	json_key(f, "verdict");
	json_string(f, line);
	json_key(f, "exit_status");
	json_int(f, own_command(r) ? 0 : 1);
	fputs("\n}\n", f);
}

int checkup_print(FILE *f, bool json)
{
	struct report *r = malloc(sizeof(*r));
	int ret;

	if (!r)
		return -ENOMEM;
	memset(r, 0, sizeof(*r));
	/* The owner of pid 1 is no part of the report. */
	diagnose_gather(&r->facts, DIAGNOSE_ALL, 0);
	if (r->facts.enomem) {
		free(r);
		return -ENOMEM;
	}
	r->perf_events = r->facts.paranoid != DIAGNOSE_PARANOID_UNKNOWN;
	build(r);
	if (json)
		print_json(f, r);
	else
		print_text(f, r);
	ret = own_command(r) ? 0 : 1;
	free(r);
	errno = 0;
	if (fflush(f) != 0 || ferror(f))
		return errno ? -errno : -EIO;
	return ret;
}
