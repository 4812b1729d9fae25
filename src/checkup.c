/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pstat --check: what this machine lets pstat count, why, what to change. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "caps.h"
#include "checkup.h"
#include "json.h"
#include "pmu.h"

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

#define MAX_ITEMS 16

/* The facts, then the items that word them. */
struct report {
	struct caps_state caps;
	struct utsname uts;
	bool perf_events;
	int kernel_err;		/* task-clock with the kernel on pstat */
	int user_err;		/* task-clock:u on pstat */
	int cpu_err;		/* cpu-clock on CPU 0, every task */
	int attach_err;		/* task-clock:u on pid 1 */
	int hw_err;		/* cycles:u on pstat */
	bool hardware_pmu;
	char pmus[512];
	char caps_text[256], ambient[256], file_caps[256];
	bool tracefs_readable;
	int nmi_watchdog;	/* -1 when absent */
	int no_new_privs;	/* -1 unknown */
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

/* "ok", or the errno's name and meaning. */
static const char *err_word(const struct report *r, int err, char *buf,
			    size_t len)
{
	/* EPERM for pstat's own user-space count: all of it is blocked. */
	bool blocked = r->user_err == EPERM;

	if (!err)
		return "ok";
	snprintf(buf, len, "%s: %s", strerrorname_np(err),
		 err == EPERM && blocked ?
		 "perf_event_open is blocked for this process" :
		 caps_errno_meaning(err));
	return buf;
}

static int read_int(const char *path, int fallback)
{
	FILE *f = fopen(path, "re");
	int v = fallback;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = fallback;
		fclose(f);
	}
	return v;
}

/* A number of /proc/self/status, or -1. */
static int status_int(const char *field)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[128];
	int v = -1;

	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, field, strlen(field)) == 0)
			v = atoi(line + strlen(field));
	if (f)
		fclose(f);
	return v;
}

/* Every PMU by name, and whether one is a core (hardware) PMU. */
static void gather_pmus(struct report *r)
{
	char **names = NULL;
	uint32_t type;
	size_t used = 0;
	int i, n = pmu_all(&names);

	r->hardware_pmu = pmu_have_core_pmu();
	r->pmus[0] = '\0';
	for (i = 0; i < n; i++) {
		if (pmu_type(names[i], &type) == 0 && type == PERF_TYPE_RAW)
			r->hardware_pmu = true;
		if (used < sizeof(r->pmus))
			used += (size_t)snprintf(r->pmus + used,
						 sizeof(r->pmus) - used, "%s%s",
						 used ? "," : "", names[i]);
	}
	if (n > 0)
		pmu_instances_free(names, n);
}

/* A tracepoint id pstat can read, or at least the events directory. */
static bool tracefs_readable(void)
{
	const char *events = pmu_tracefs_events();
	uint64_t id;
	int ret;

	if (!events)
		return false;
	ret = pmu_tracepoint_id("sched", 5, "sched_switch", 12, &id);
	if (ret == -ENOENT)
		ret = pmu_tracepoint_id("syscalls", 8, "sys_enter_write", 15,
					&id);
	if (ret == -ENOENT)
		ret = access(events, R_OK | X_OK) == 0 ? 0 : -errno;
	return ret == 0;
}

static void gather(struct report *r)
{
	memset(r, 0, sizeof(*r));
	caps_state_read(&r->caps, 1);
	uname(&r->uts);
	r->perf_events = r->caps.paranoid != CAPS_PARANOID_UNKNOWN;
	r->kernel_err = caps_probe(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK,
				   false, 0, -1);
	r->user_err = r->caps.probe_err;
	r->cpu_err = caps_probe(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK,
				false, -1, 0);
	r->attach_err = caps_probe(PERF_TYPE_SOFTWARE,
				   PERF_COUNT_SW_TASK_CLOCK, true, 1, -1);
	r->hw_err = caps_probe(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES,
			       true, 0, -1);
	gather_pmus(r);
	caps_text(r->caps_text, sizeof(r->caps_text));
	caps_ambient_text(r->ambient, sizeof(r->ambient));
	caps_file_text(r->caps.exe, r->file_caps, sizeof(r->file_caps));
	r->tracefs_readable = tracefs_readable();
	r->nmi_watchdog = read_int("/proc/sys/kernel/nmi_watchdog", -1);
	r->no_new_privs = status_int("NoNewPrivs:");
}

static bool perfmon(const struct report *r)
{
	return r->caps.have[CAPS_PERFMON] || r->caps.have[CAPS_SYS_ADMIN];
}

static const char *setcap_fix(const struct report *r, char *buf,
			      size_t len)
{
	snprintf(buf, len,
		 "give pstat CAP_PERFMON (Linux 5.8+; CAP_SYS_ADMIN before): 'sudo setcap cap_perfmon+ep %s' or 'make install-caps'",
		 r->caps.exe[0] ? r->caps.exe : "$(command -v pstat)");
	return buf;
}

static void item_kernel(struct report *r)
{
	struct item *it = add(r, "kernel", r->perf_events ? ST_OK
							 : ST_MISSING);

	put(it->value, sizeof(it->value), "Linux %s %s, %s",
	    r->uts.release, r->uts.machine,
	    r->perf_events ? "with perf events"
			   : "without perf events (no /proc/sys/kernel/perf_event_paranoid)");
	if (!r->perf_events)
		put(it->fix, sizeof(it->fix),
		    "use a kernel built with CONFIG_PERF_EVENTS");
}

static void item_paranoid(struct report *r)
{
	int level = r->caps.paranoid;
	char cap[300];
	struct item *it;

	if (!r->perf_events)
		return;
	it = add(r, "perf_event_paranoid",
		 perfmon(r) || level <= 0 ? ST_OK : ST_LIMITED);
	put(it->value, sizeof(it->value), "%d: %s%s", level,
	    caps_paranoid_meaning(level),
	    perfmon(r) ? " (this does not restrict pstat: it has CAP_PERFMON)"
		       : "");
	if (it->status == ST_LIMITED)
		put(it->fix, sizeof(it->fix),
		    "%s; or lower the level: 'sudo sysctl kernel.perf_event_paranoid=1' for kernel counts, =0 for whole CPUs too",
		    setcap_fix(r, cap, sizeof(cap)));
}

static void item_caps(struct report *r)
{
	struct item *it = add(r, "capabilities",
			      perfmon(r) ? ST_OK : ST_INFO);

	put(it->value, sizeof(it->value),
	    "process: %s; CAP_PERFMON %s, CAP_SYS_ADMIN %s, CAP_SYS_PTRACE %s; ambient: %s; file capabilities of %s: %s%s%s",
	    r->caps_text, r->caps.have[CAPS_PERFMON] ? "yes" : "no",
	    r->caps.have[CAPS_SYS_ADMIN] ? "yes" : "no",
	    r->caps.have[CAPS_SYS_PTRACE] ? "yes" : "no",
	    r->ambient[0] ? r->ambient : "none",
	    r->caps.exe[0] ? r->caps.exe : "pstat",
	    r->file_caps[0] ? r->file_caps : "none",
	    caps_elevated() ? "; running with privileges its user lacks (the command gets none of them)" : "",
	    r->no_new_privs == 1 ? "; no_new_privs is set: file capabilities are ignored" : "");
}

static void item_pmus(struct report *r)
{
	struct item *it = add(r, "pmus", ST_INFO);
	struct item *hw;

	put(it->value, sizeof(it->value), "%s",
	    r->pmus[0] ? r->pmus : "none in /sys/bus/event_source/devices");
	hw = add(r, "hardware_pmu", r->hardware_pmu ? ST_OK : ST_MISSING);
	if (r->hardware_pmu) {
		put(hw->value, sizeof(hw->value), "present");
		return;
	}
	put(hw->value, sizeof(hw->value),
	    "no hardware PMU: cycles, instructions, branches and cache events are <not supported>; software events and tracepoints still count");
	put(hw->fix, sizeof(hw->fix),
	    "in a virtual machine, enable the virtual PMU (a hypervisor setting, e.g. QEMU/KVM '-cpu host,pmu=on')");
}

static void item_hw_events(struct report *r)
{
	struct item *it = add(r, "hardware_events",
			      r->hw_err ? ST_MISSING : ST_OK);
	char why[256];

	put(it->value, sizeof(it->value), "cycles:u on pstat itself: %s",
	    err_word(r, r->hw_err, why, sizeof(why)));
	if (r->hw_err == EACCES)
		put(it->fix, sizeof(it->fix), "see perf_event_paranoid");
}

static void item_own(struct report *r)
{
	char why[256], cap[300];
	struct item *it;

	if (!r->kernel_err) {
		it = add(r, "own_command", ST_OK);
		put(it->value, sizeof(it->value),
		    "yes, user space and kernel (task-clock opens)");
		return;
	}
	it = add(r, "own_command", r->user_err ? ST_MISSING : ST_LIMITED);
	if (!r->user_err) {
		put(it->value, sizeof(it->value),
		    "user space only: events are counted as :u (with the kernel: %s)",
		    err_word(r, r->kernel_err, why, sizeof(why)));
		put(it->fix, sizeof(it->fix), "for kernel counts: %s",
		    setcap_fix(r, cap, sizeof(cap)));
		return;
	}
	put(it->value, sizeof(it->value), "no: task-clock:u on pstat itself: %s",
	    err_word(r, r->user_err, why, sizeof(why)));
	if (r->user_err == EPERM)
		put(it->fix, sizeof(it->fix),
		    "perf_event_open is blocked for this process%s: in a container, allow it (docker run --cap-add PERFMON, or a seccomp profile that allows perf_event_open)",
		    r->caps.seccomp == 2 ? " by a seccomp filter" : "");
	else if (r->caps.paranoid >= 3)
		put(it->fix, sizeof(it->fix),
		    "run as root, or 'sudo sysctl kernel.perf_event_paranoid=2'");
	else
		put(it->fix, sizeof(it->fix),
		    "run as root; a security module (SELinux, AppArmor) may forbid perf_event_open");
}

static void item_system_wide(struct report *r)
{
	struct item *it = add(r, "system_wide", r->cpu_err ? ST_MISSING
							     : ST_OK);
	char why[256], cap[300];

	put(it->value, sizeof(it->value), "-a and -C (cpu-clock on CPU 0): %s",
	    err_word(r, r->cpu_err, why, sizeof(why)));
	if (r->cpu_err == EACCES)
		put(it->fix, sizeof(it->fix),
		    "%s, or 'sudo sysctl kernel.perf_event_paranoid=0'",
		    setcap_fix(r, cap, sizeof(cap)));
}

static void item_attach(struct report *r)
{
	struct item *it = add(r, "other_users",
			      r->attach_err ? ST_LIMITED : ST_OK);
	char why[256];

	put(it->value, sizeof(it->value),
	    "-p and -t on other users' processes (pid 1): %s",
	    err_word(r, r->attach_err, why, sizeof(why)));
	if (r->attach_err == EACCES)
		put(it->fix, sizeof(it->fix),
		    "counting another user's process needs ptrace access to it (CAP_SYS_PTRACE) or CAP_PERFMON; your own processes need neither");
}

static void item_tracefs(struct report *r)
{
	const char *events = pmu_tracefs_events();
	struct item *it = add(r, "tracefs",
			      !events ? ST_MISSING :
			      r->tracefs_readable ? ST_OK : ST_LIMITED);
	char mount[256];
	struct stat st;

	if (!events) {
		put(it->value, sizeof(it->value),
		    "not mounted: no tracepoints");
		put(it->fix, sizeof(it->fix),
		    "sudo mount -t tracefs nodev /sys/kernel/tracing");
		return;
	}
	snprintf(mount, sizeof(mount), "%.*s", (int)(strlen(events) - 7),
		 events);
	if (stat(mount, &st) < 0)
		st.st_mode = st.st_uid = st.st_gid = 0;
	put(it->value, sizeof(it->value),
	    "%s (mode %04o, uid %ld, gid %ld): tracepoint ids %s", mount,
	    st.st_mode & 07777, (long)st.st_uid, (long)st.st_gid,
	    r->tracefs_readable ? "readable" : "not readable by you, so no tracepoints");
	if (!r->tracefs_readable)
		put(it->fix, sizeof(it->fix),
		    "run as root, or let a group you are in read it: 'sudo mount -o remount,mode=750,gid=GROUP %s'",
		    mount);
}

static void item_nmi(struct report *r)
{
	struct item *it;

	if (r->nmi_watchdog < 0)
		return;
	it = add(r, "nmi_watchdog",
		 r->nmi_watchdog && r->hardware_pmu ? ST_LIMITED : ST_OK);
	put(it->value, sizeof(it->value), "%s%s",
	    r->nmi_watchdog ? "on" : "off",
	    r->nmi_watchdog && r->hardware_pmu ?
	    ": it holds one hardware counter on every CPU, so groups of hardware events get one fewer" :
	    r->nmi_watchdog ? " (no hardware PMU, so it takes no counter pstat could use)" : "");
	if (it->status == ST_LIMITED)
		put(it->fix, sizeof(it->fix),
		    "'sudo sysctl kernel.nmi_watchdog=0' while measuring");
}

static void item_fds(struct report *r)
{
	unsigned long soft = r->caps.nofile, hard = r->caps.nofile_max;
	long cpus = r->caps.n_cpus > 0 ? r->caps.n_cpus : 1;
	struct item *it = add(r, "fd_limit", hard / (unsigned long)cpus < 64 ?
				  ST_LIMITED : ST_OK);

	put(it->value, sizeof(it->value),
	    "%lu, at most %lu (pstat raises it as needed): one descriptor per event and thread or CPU, so about %lu events with -a on %ld CPUs",
	    soft, hard, (hard > 64 ? hard - 64 : 0) / (unsigned long)cpus,
	    cpus);
	if (it->status == ST_LIMITED)
		put(it->fix, sizeof(it->fix),
		    "raise the hard limit of open files (limits.conf, or 'ulimit -Hn' as root)");
}

static void item_seccomp(struct report *r)
{
	struct item *it;

	if (r->caps.seccomp < 0)
		return;
	it = add(r, "seccomp", r->caps.seccomp == 2 && r->user_err == EPERM ?
		 ST_MISSING : ST_OK);
	put(it->value, sizeof(it->value), "%s",
	    r->caps.seccomp == 0 ? "no filter" :
	    r->user_err == EPERM ? "a filter blocks perf_event_open" :
	    "a filter is installed, and it lets perf_event_open through");
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
}

static bool own_command(const struct report *r)
{
	return !r->kernel_err || !r->user_err;
}

static void verdict(const struct report *r, char *buf, size_t len)
{
	if (!own_command(r))
		put(buf, len,
		    "pstat cannot count even your own commands here: see own_command");
	else
		put(buf, len,
		    "pstat can count your own commands%s; %s; %s",
		    r->kernel_err ? " in user space only (events marked :u)"
				  : ", kernel included",
		    r->cpu_err ? "not whole CPUs (-a, -C)" : "whole CPUs too (-a, -C)",
		    r->hardware_pmu ? "hardware events too"
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

static void json_key(FILE *f, const char *key)
{
	fputs(",\n  ", f);
	json_string(f, key);
	fputs(": ", f);
}

static void json_bool(FILE *f, const char *key, bool v)
{
	json_key(f, key);
	fputs(v ? "true" : "false", f);
}

/* A comma-separated list as a JSON array of strings. */
static void json_list(FILE *f, const char *key, const char *list)
{
	char *copy = strdup(list), *word, *save = NULL;
	bool first = true;

	json_key(f, key);
	fputc('[', f);
	for (word = copy ? strtok_r(copy, ",", &save) : NULL; word;
	     word = strtok_r(NULL, ",", &save)) {
		fputs(first ? "" : ", ", f);
		json_string(f, word);
		first = false;
	}
	fputc(']', f);
	free(copy);
}

static void json_caps(FILE *f, const struct report *r)
{
	json_key(f, "capabilities");
	fputs("{\"process\": ", f);
	json_string(f, r->caps_text);
	fprintf(f, ", \"perfmon\": %s, \"sys_admin\": %s, \"sys_ptrace\": %s",
		r->caps.have[CAPS_PERFMON] ? "true" : "false",
		r->caps.have[CAPS_SYS_ADMIN] ? "true" : "false",
		r->caps.have[CAPS_SYS_PTRACE] ? "true" : "false");
	fputs(", \"ambient\": ", f);
	json_string(f, r->ambient);
	fputs(", \"file\": ", f);
	json_string(f, r->file_caps);
	fprintf(f, ", \"elevated\": %s}", caps_elevated() ? "true" : "false");
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
			fputs("null", f);
		fputc('}', f);
	}
	fputs("\n  ]", f);
}

static void print_json(FILE *f, const struct report *r)
{
	char line[512];

	fputs("{\n  \"pstat_check\": 1", f);
	json_key(f, "kernel");
	json_string(f, r->uts.release);
	json_key(f, "perf_event_paranoid");
	if (r->perf_events)
		fprintf(f, "%d", r->caps.paranoid);
	else
		fputs("null", f);
	json_key(f, "paranoid_meaning");
	if (r->perf_events)
		json_string(f, caps_paranoid_meaning(r->caps.paranoid));
	else
		fputs("null", f);
	json_caps(f, r);
	json_list(f, "pmus", r->pmus);
	json_bool(f, "hardware_pmu", r->hardware_pmu);
	json_bool(f, "hardware_events", !r->hw_err);
	json_bool(f, "own_command", own_command(r));
	json_bool(f, "kernel_counting", !r->kernel_err);
	json_bool(f, "system_wide", !r->cpu_err);
	json_bool(f, "other_users", !r->attach_err);
	json_bool(f, "tracefs_readable", r->tracefs_readable);
	json_key(f, "nmi_watchdog");
	if (r->nmi_watchdog < 0)
		fputs("null", f);
	else
		fprintf(f, "%d", r->nmi_watchdog);
	json_key(f, "fd_limit");
	fprintf(f, "{\"soft\": %lu, \"hard\": %lu}", r->caps.nofile,
		r->caps.nofile_max);
	json_items(f, r);
	verdict(r, line, sizeof(line));
	json_key(f, "verdict");
	json_string(f, line);
	json_key(f, "exit_status");
	fprintf(f, "%d\n}\n", own_command(r) ? 0 : 1);
}

int checkup_print(FILE *f, bool json)
{
	struct report *r = malloc(sizeof(*r));
	int ret;

	if (!r)
		return 125;
	gather(r);
	build(r);
	if (json)
		print_json(f, r);
	else
		print_text(f, r);
	ret = own_command(r) ? 0 : 1;
	free(r);
	return fflush(f) == 0 && !ferror(f) ? ret : 125;
}
