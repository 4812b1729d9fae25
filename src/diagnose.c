/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Facts about the machine, and the words for every failure and its fix. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "caps.h"
#include "compat.h"
#include "diagnose.h"
#include "evsel.h"
#include "pmu.h"
#include "sys.h"

/* The facts. */

/* The start of a small file, NUL-terminated, without stdio's buffer:
 * nothing to allocate, so nothing to fail but the file. */
static bool read_text(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = -1;

	if (fd >= 0) {
		n = read(fd, buf, len - 1);
		close(fd);
	}
	buf[n > 0 ? n : 0] = '\0';
	return n > 0;
}

/* Seccomp: and NoNewPrivs: of /proc/self/status, in one read. */
static void read_status(struct diagnose_facts *f)
{
	static const struct {
		const char *field;
		size_t offset;
	} fields[] = {
		{ "Seccomp:", offsetof(struct diagnose_facts, seccomp) },
		{ "NoNewPrivs:", offsetof(struct diagnose_facts, no_new_privs) },
	};
	char status[4096], *line;
	size_t i;

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		*(int *)((char *)f + fields[i].offset) = -1;
	if (!read_text("/proc/self/status", status, sizeof(status)))
		return;
	for (line = status; line; line = strchr(line, '\n')) {
		line += *line == '\n';
		for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
			if (strncmp(line, fields[i].field,
				    strlen(fields[i].field)) == 0)
				*(int *)((char *)f + fields[i].offset) =
					atoi(line + strlen(fields[i].field));
	}
}

/* /proc/PID is owned by the process's effective uid. */
static long process_owner(int pid)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d", pid);
	return pid > 0 && stat(path, &st) == 0 ? (long)st.st_uid : -1;
}

static int read_int(const char *path, int fallback)
{
	char buf[32];
	int v;

	return read_text(path, buf, sizeof(buf)) && sscanf(buf, "%d", &v) == 1
	       ? v : fallback;
}

/*
 * Whether a core (hardware) PMU is there: one pmu_have_core_pmu knows
 * (sysfs "cpu", arm64's armv8_pmuv3 by its cpus file), or a PMU that
 * took type PERF_TYPE_RAW. With list, every PMU's name too,
 * comma-separated.
 */
static bool scan_pmus(struct diagnose_facts *f, char *list, size_t len)
{
	bool core = pmu_have_core_pmu();
	char **names = NULL;
	uint32_t type;
	size_t used = 0;
	int i, n;

	if (list)
		list[0] = '\0';
	if (core && !list)
		return true;
	n = pmu_all(&names);
	f->enomem |= n == -ENOMEM;
	for (i = 0; i < n; i++) {
		if (pmu_type(names[i], &type) == 0 && type == PERF_TYPE_RAW)
			core = true;
		if (list && used < len)
			used += (size_t)snprintf(list + used, len - used,
						 "%s%s", used ? "," : "",
						 names[i]);
	}
	if (n > 0)
		pmu_instances_free(names, n);
	return core;
}

/* A hybrid CPU's core PMUs, and the CPUs of each. */
static void scan_hybrid(struct diagnose_facts *f)
{
	char **names, cpus[128];
	size_t used = 0, cused = 0;
	int n, i;

	n = pmu_hybrid_cores(&names);
	f->enomem |= n == -ENOMEM;
	for (i = 0; i < n; i++) {
		if (pmu_read(names[i], "cpus", cpus, sizeof(cpus)) < 0)
			snprintf(cpus, sizeof(cpus), "?");
		if (used < sizeof(f->core_pmus))
			used += (size_t)snprintf(f->core_pmus + used,
						 sizeof(f->core_pmus) - used,
						 "%s%s", i ? "," : "",
						 names[i]);
		if (cused < sizeof(f->core_cpus))
			cused += (size_t)snprintf(f->core_cpus + cused,
						  sizeof(f->core_cpus) - cused,
						  "%s%s on CPUs %s",
						  i ? ", " : "", names[i],
						  cpus);
	}
	if (n > 0)
		pmu_instances_free(names, n);
}

/* A tracepoint id pstat can read, or at least the events directory. */
static bool tracefs_readable(const char *events)
{
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

static void gather_tracefs(struct diagnose_facts *f)
{
	const char *events = pmu_tracefs_events();
	struct stat st;

	f->tracefs_events = events;
	f->tracefs_readable = tracefs_readable(events);
	if (!events)
		return;
	/* The mount holds events/. */
	snprintf(f->tracefs, sizeof(f->tracefs), "%.*s",
		 (int)(strlen(events) - strlen("/events")), events);
	if (stat(f->tracefs, &st) == 0) {
		f->tracefs_mode = st.st_mode & 07777;
		f->tracefs_uid = (long)st.st_uid;
		f->tracefs_gid = (long)st.st_gid;
	}
}

static void gather_nofile(struct diagnose_facts *f)
{
	struct rlimit rl = { 0, 0 };

	getrlimit(RLIMIT_NOFILE, &rl);
	f->nofile = (unsigned long)rl.rlim_cur;
	f->nofile_max = (unsigned long)rl.rlim_max;
}

/* The descriptors open now: those of /proc/self/fd but its own, or,
 * when it cannot be opened (no descriptor left), the first 1024. */
static size_t count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	const struct dirent *e;
	size_t n = 0;
	int fd;

	if (!d) {
		for (fd = 0; fd < 1024; fd++)
			n += fcntl(fd, F_GETFD) >= 0;
		return n;
	}
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n ? n - 1 : 0;
}

static void gather_rights(struct diagnose_facts *f, int pid)
{
	ssize_t n;
	int i;

	for (i = 0; i < CAPS_N; i++)
		f->have[i] = caps_have((enum caps_which)i);
	f->user_err = evsel_probe(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK,
				  true, 0, -1);
	read_status(f);
	f->uid = getuid();
	f->set_uid = f->uid != geteuid();
	f->set_gid = getgid() != getegid();
	f->dumpable = prctl(PR_GET_DUMPABLE) > 0;
	f->target_uid = process_owner(pid);
	gather_nofile(f);
	f->n_cpus = sysconf(_SC_NPROCESSORS_CONF);
	n = readlink("/proc/self/exe", f->exe, sizeof(f->exe) - 1);
	f->exe[n > 0 ? n : 0] = '\0';
}

static void gather_checkup(struct diagnose_facts *f)
{
	uname(&f->uts);
	f->kernel_err = evsel_probe(PERF_TYPE_SOFTWARE,
				    PERF_COUNT_SW_TASK_CLOCK, false, 0, -1);
	f->cpu_err = evsel_probe(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK,
				 false, -1, 0);
	f->attach_err = evsel_probe(PERF_TYPE_SOFTWARE,
				    PERF_COUNT_SW_TASK_CLOCK, true, 1, -1);
	f->hw_err = evsel_probe(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES,
				true, 0, -1);
	f->elevated = caps_elevated();
	f->enomem |= caps_text(f->caps_text, sizeof(f->caps_text)) == -ENOMEM;
	f->enomem |= caps_ambient_text(f->ambient, sizeof(f->ambient)) ==
		     -ENOMEM;
	f->enomem |= caps_file_text(f->exe, f->file_caps,
				    sizeof(f->file_caps)) == -ENOMEM;
	gather_tracefs(f);
	f->nmi_watchdog = read_int("/proc/sys/kernel/nmi_watchdog", -1);
}

void diagnose_gather(struct diagnose_facts *f, unsigned int need, int pid)
{
	int ret;

	memset(f, 0, sizeof(*f));
	f->paranoid = DIAGNOSE_PARANOID_UNKNOWN;
	f->seccomp = f->no_new_privs = f->nmi_watchdog = -1;
	f->target_uid = -1;
	ret = need & DIAGNOSE_PARANOID ? sys_paranoid(&f->paranoid) : 0;
	if (ret < 0)
		f->paranoid = DIAGNOSE_PARANOID_UNKNOWN;
	f->enomem = ret == -ENOMEM;
	if (need & DIAGNOSE_RIGHTS)
		gather_rights(f, pid);
	if (need & DIAGNOSE_FDS) {
		gather_nofile(f);
		f->fds_open = count_fds();
	}
	if (need & DIAGNOSE_CHECKUP) {
		gather_checkup(f);
		f->core_pmu = scan_pmus(f, f->pmus, sizeof(f->pmus));
		scan_hybrid(f);
	} else if (need & DIAGNOSE_CORE_PMU) {
		f->core_pmu = scan_pmus(f, NULL, 0);
	}
}

/* The words. */

/* What CAP_PERFMON is called, and what stood for it before. */
#define PERFMON_CAP "CAP_PERFMON (Linux 5.8+; CAP_SYS_ADMIN before)"

static const char *const fixes[] = {
	[DIAGNOSE_FIX_PERF_EVENTS] =
		"use a kernel built with CONFIG_PERF_EVENTS",
	[DIAGNOSE_FIX_VPMU] =
		"in a virtual machine, enable the virtual PMU (a hypervisor setting, e.g. QEMU/KVM '-cpu host,pmu=on')",
	[DIAGNOSE_FIX_CONTAINER] =
		"in a container, allow it (docker run --cap-add PERFMON, or a seccomp profile that allows perf_event_open)",
	[DIAGNOSE_FIX_OTHER_USERS] =
		("counting another user's process needs ptrace access to it (the same user, or CAP_SYS_PTRACE) or "
		 PERFMON_CAP),
	[DIAGNOSE_FIX_NMI_WATCHDOG] =
		"'sudo sysctl kernel.nmi_watchdog=0' while measuring",
	[DIAGNOSE_FIX_HARD_LIMIT] =
		"raise the hard limit of open files (limits.conf, or 'ulimit -Hn' as root)",
};

const char *diagnose_fix(enum diagnose_fix which)
{
	return fixes[which];
}

/* Documentation/admin-guide/sysctl/kernel.rst, and the distributions'. */
const char *diagnose_paranoid_meaning(int level)
{
	if (level <= -1)
		return "no restriction: every user may count everything, the kernel and whole CPUs included";
	switch (level) {
	case 0:
		return "every user may count the kernel and whole CPUs; only raw tracepoint data needs CAP_PERFMON";
	case 1:
		return "users may count their own processes, kernel included; whole CPUs need CAP_PERFMON";
	case 2:
		return "users may count their own processes in user space only; the kernel and whole CPUs need CAP_PERFMON";
	case 3:
		return "Debian's level: its kernels refuse perf_event_open to any process without CAP_SYS_ADMIN (CAP_PERFMON is not enough); upstream kernels treat it as 2";
	case 4:
		return "Ubuntu's default: its kernels refuse perf_event_open to unprivileged processes altogether; upstream kernels treat it as 2";
	default:
		return "above 2: kernels with Debian's patch refuse perf_event_open without CAP_SYS_ADMIN; upstream kernels treat it as 2";
	}
}

const char *diagnose_no_core_pmu(void)
{
	return "no hardware PMU is visible (a virtual machine, usually): hardware events are <not supported>; software events and tracepoints still count";
}

const char *diagnose_modifiers_refused(void)
{
	return "cannot leave out user, kernel or hypervisor time";
}

/* From the man page's ERRORS, as they apply to counting. */
static const struct errno_text {
	int err;
	const char *meaning;
} errno_texts[] = {
	{ E2BIG, "the perf_event_attr size is one the kernel does not take, or a group read would be too large" },
	{ EACCES, "the kernel allows it only with CAP_PERFMON (or CAP_SYS_ADMIN) or a lower kernel.perf_event_paranoid" },
	{ EBADF, "the group leader is not a valid perf descriptor" },
	{ EBUSY, "another event has the PMU to itself" },
	{ EFAULT, "the attr structure is at an invalid address" },
	{ EINTR, "interrupted while the target was executing" },
	{ EINVAL, "invalid configuration: a value out of range, a group the kernel cannot make, or no such tracepoint" },
	{ EMFILE, "the process has reached its open-file limit" },
	{ ENFILE, "the system's open-file table is full" },
	{ ENODEV, "a feature this CPU does not have, or an offline CPU" },
	{ ENOENT, "the event or its PMU does not exist here" },
	{ ENOSPC, "no room left on the hardware (breakpoint registers)" },
	{ ENOSYS, "a sample type this CPU lacks, or a kernel without perf events" },
	{ ENXIO, "no such PMU" },
	{ EOPNOTSUPP, "the PMU lacks a feature the event needs (precise :p, branch stack, sampling interrupts)" },
	{ EOVERFLOW, "a callchain deeper than kernel.perf_event_max_stack" },
	{ EPERM, "an exclude modifier the PMU does not support, or an operation that needs privileges" },
	{ ESRCH, "no such process, or it is exiting" },
};

const char *diagnose_errno_meaning(int err)
{
	size_t i;

	for (i = 0; i < sizeof(errno_texts) / sizeof(errno_texts[0]); i++)
		if (errno_texts[i].err == err)
			return errno_texts[i].meaning;
	return strerror(err);
}

void diagnose_probe_result(const struct diagnose_facts *s, int err,
			   char *buf, size_t len)
{
	/* EPERM for pstat's own user-space count: all of it is blocked. */
	if (!err)
		snprintf(buf, len, "ok");
	else
		snprintf(buf, len, "%s: %s", compat_errname(err),
			 err == EPERM && s->user_err == EPERM ?
			 "perf_event_open is blocked for this process" :
			 diagnose_errno_meaning(err));
}

/* The command that gives pstat CAP_PERFMON. */
static void setcap_command(const struct diagnose_facts *s, char *buf,
			   size_t len)
{
	snprintf(buf, len, "'sudo setcap cap_perfmon+ep %s'",
		 s->exe[0] ? s->exe : "$(command -v pstat)");
}

void diagnose_setcap_fix(const struct diagnose_facts *s, char *buf,
			 size_t len)
{
	char cmd[300];

	setcap_command(s, cmd, sizeof(cmd));
	snprintf(buf, len, "give pstat " PERFMON_CAP ": %s", cmd);
}

void diagnose_sysctl_fix(int level, char *buf, size_t len)
{
	snprintf(buf, len, "'sudo sysctl kernel.perf_event_paranoid=%d'",
		 level);
}

void diagnose_tracefs_fix(const char *events, char *buf, size_t len)
{
	if (!events)
		snprintf(buf, len,
			 "sudo mount -t tracefs nodev /sys/kernel/tracing");
	else
		snprintf(buf, len,
			 "run as root, or let a group you are in read it: 'sudo mount -o remount,mode=750,gid=GROUP %.*s'",
			 (int)(strlen(events) - strlen("/events")), events);
}

void diagnose_out_of_fds(const struct diagnose_facts *s, size_t need,
			 char *buf, size_t len)
{
	size_t total = s->fds_open + need;

	snprintf(buf, len,
		 "ran out of file descriptors before counting: the limit is %lu (ulimit -n), %zu are open already, and pstat needs %zu more for its pipes and counters: raise it with 'ulimit -n %zu'%s",
		 s->nofile, s->fds_open, need, total,
		 total > s->nofile_max
		 ? ", which root must allow (the hard limit, ulimit -Hn)" : "");
}

void diagnose_fd_limit(size_t counters, size_t fds, unsigned long long limit,
		       char *buf, size_t len)
{
	snprintf(buf, len,
		 "%zu %s %zu file descriptors, but the limit is %llu: raise it with 'ulimit -n %zu'",
		 counters, counters == 1 ? "counter needs" : "counters need",
		 fds, limit, fds);
}

/* The failures of perf_event_open, by errno. */

static bool perfmon_capable(const struct diagnose_facts *s)
{
	return s->have[CAPS_PERFMON] || s->have[CAPS_SYS_ADMIN];
}

/* "kernel.perf_event_paranoid=2 here (what it means)". */
static void paranoid_text(const struct diagnose_facts *s, char *buf,
			  size_t len)
{
	if (s->paranoid == DIAGNOSE_PARANOID_UNKNOWN)
		snprintf(buf, len, "kernel.perf_event_paranoid cannot be read");
	else
		snprintf(buf, len, "kernel.perf_event_paranoid=%d here (%s)",
			 s->paranoid, diagnose_paranoid_meaning(s->paranoid));
}

/* What lifts the refusal for someone who is not root. */
static void perfmon_fix(const struct diagnose_facts *s, char *buf,
			size_t len)
{
	char fix[400];

	diagnose_setcap_fix(s, fix, sizeof(fix));
	snprintf(buf, len, "run as root, or %s", fix);
}

/* EACCES for every event, pstat's own user-space count included. */
static void eacces_everything(const struct diagnose_failure *f,
			      const struct diagnose_facts *s, char *buf,
			      size_t len)
{
	char para[512], sysctl[80];

	paranoid_text(s, para, sizeof(para));
	diagnose_sysctl_fix(2, sysctl, sizeof(sysctl));
	if (s->paranoid >= 3)
		snprintf(buf, len,
			 "%s: permission denied: this kernel refuses perf_event_open to pstat altogether: %s; run as root, or lower the level so that users may count their own processes: %s",
			 f->event, para, sysctl);
	else
		snprintf(buf, len,
			 "%s: permission denied, as for every event, although %s: a security module (SELinux, AppArmor) or the container's policy forbids perf_event_open here",
			 f->event, para);
}

/*
 * The command's process before its exec is not dumpable when pstat is
 * not (set-group-ID, say), and the kernel lets only CAP_PERFMON or
 * CAP_SYS_PTRACE count a process that is not dumpable.
 */
static void eacces_not_dumpable(const struct diagnose_failure *f,
				const struct diagnose_facts *s, char *buf,
				size_t len)
{
	const char *bit = s->set_uid ? "set-user-ID" : "set-group-ID";
	char fix[400];

	diagnose_setcap_fix(s, fix, sizeof(fix));
	if (!s->set_uid && !s->set_gid)
		snprintf(buf, len,
			 "%s: permission denied: pstat is not dumpable, nor is the command's process until it executes the command, and the kernel lets only CAP_PERFMON or CAP_SYS_PTRACE count a process that is not dumpable; %s",
			 f->event, fix);
	else
		snprintf(buf, len,
			 "%s: permission denied: pstat is %s, so the command's process is not dumpable until it executes the command, and the kernel lets only CAP_PERFMON or CAP_SYS_PTRACE count a process that is not dumpable; install pstat without the %s bit (chmod %s %s), and %s",
			 f->event, bit, bit, s->set_uid ? "u-s" : "g-s",
			 s->exe[0] ? s->exe : "$(command -v pstat)", fix);
}

/* Another user's process, without the right to attach to it. */
static void eacces_attach(const struct diagnose_failure *f,
			  const struct diagnose_facts *s, char *buf,
			  size_t len)
{
	char cmd[300];

	setcap_command(s, cmd, sizeof(cmd));
	snprintf(buf, len,
		 "%s: permission denied: cannot attach to process %d, which belongs to uid %ld: %s; run pstat as that user or as root, or %s",
		 f->event, f->pid, s->target_uid,
		 diagnose_fix(DIAGNOSE_FIX_OTHER_USERS), cmd);
}

static void eacces_text(const struct diagnose_failure *f,
			const struct diagnose_facts *s, char *buf, size_t len)
{
	const struct perf_event_attr *a = f->attr;
	bool perfmon = perfmon_capable(s);
	char para[512], fix[512], sysctl[80];
	const char *level = para + strlen("kernel.perf_event_paranoid=");

	paranoid_text(s, para, sizeof(para));
	perfmon_fix(s, fix, sizeof(fix));
	if (s->user_err == EACCES) {
		eacces_everything(f, s, buf, len);
	} else if (f->command && !s->dumpable && !perfmon &&
		   !s->have[CAPS_SYS_PTRACE]) {
		eacces_not_dumpable(f, s, buf, len);
	} else if (f->pid == -1 && !perfmon && s->paranoid > 0) {
		diagnose_sysctl_fix(0, sysctl, sizeof(sysctl));
		snprintf(buf, len,
			 "%s: permission denied: counting whole CPUs (-a, -C) needs CAP_PERFMON or kernel.perf_event_paranoid at most 0, and it is %s; %s, or %s",
			 f->event, level, fix, sysctl);
	} else if (f->pid > 0 && s->target_uid >= 0 &&
		   (uid_t)s->target_uid != s->uid && !perfmon &&
		   !s->have[CAPS_SYS_PTRACE]) {
		eacces_attach(f, s, buf, len);
	} else if (!a->exclude_kernel && s->paranoid >= 2 && !perfmon) {
		diagnose_sysctl_fix(1, sysctl, sizeof(sysctl));
		snprintf(buf, len,
			 "%s: permission denied: counting kernel activity needs CAP_PERFMON or kernel.perf_event_paranoid at most 1, and it is %s%s; %s, or %s",
			 f->event, level,
			 a->exclude_user ? "; count user space with :u instead"
					 : "; this event cannot leave the kernel out",
			 fix, sysctl);
	} else {
		snprintf(buf, len,
			 "%s: permission denied although %s: a security module (SELinux, AppArmor) or a namespace restriction refused it",
			 f->event, para);
	}
}

static void eperm_text(const struct diagnose_failure *f,
		       const struct diagnose_facts *s, char *buf, size_t len)
{
	char para[512];

	if (s->user_err == EPERM)
		snprintf(buf, len,
			 "%s: operation not permitted: perf_event_open fails with EPERM for every event here%s; %s, or run pstat outside it",
			 f->event,
			 s->seccomp == 2 ? " (a seccomp filter is installed, as in Docker's and Podman's default profiles)"
					 : "",
			 diagnose_fix(DIAGNOSE_FIX_CONTAINER));
	else if (f->attr->type == PERF_TYPE_BREAKPOINT)
		snprintf(buf, len,
			 "%s: operation not permitted: a breakpoint on a kernel address needs CAP_SYS_ADMIN; run as root, or watch a user-space address",
			 f->event);
	else {
		paranoid_text(s, para, sizeof(para));
		snprintf(buf, len,
			 "%s: operation not permitted: its PMU does not support one of its modifiers (:u :k :h), or it needs a privilege pstat lacks (%s)",
			 f->event, para);
	}
}

/*
 * What the breakpoint hardware allows, in this architecture's words:
 * x86 has 4 debug registers, watches writes, or reads and writes, and
 * takes execute breakpoints of sizeof(long); Arm CPUs have their own
 * number of watchpoints and breakpoints, watch reads alone too, and
 * make any execute breakpoint one instruction long.
 */
#if defined(__x86_64__)
#define BREAKPOINT_RULES ", x86 cannot watch reads alone (use :w or :rw), and :x needs length 8"
#define BREAKPOINT_ROOM ": x86 has 4 breakpoints per thread"
#elif defined(__i386__)
#define BREAKPOINT_RULES ", x86 cannot watch reads alone (use :w or :rw), and :x needs length 4"
#define BREAKPOINT_ROOM ": x86 has 4 breakpoints per thread"
#elif defined(__aarch64__) || defined(__arm__)
#define BREAKPOINT_RULES ", within one aligned doubleword"
#define BREAKPOINT_ROOM ": this CPU's watchpoints (:r, :w, :rw) or breakpoints (:x) are all taken, and Arm CPUs have 2 to 16 of each per thread"
#else
#define BREAKPOINT_RULES ""
#define BREAKPOINT_ROOM ": this CPU's debug registers are all taken"
#endif

static void einval_text(const struct diagnose_failure *f,
			const struct diagnose_facts *s, char *buf, size_t len)
{
	const struct perf_event_attr *a = f->attr;

	if (a->type == PERF_TYPE_BREAKPOINT)
		snprintf(buf, len,
			 "%s: the kernel refused this breakpoint (invalid argument); the address must be aligned to the length" BREAKPOINT_RULES,
			 f->event);
	else if (a->type >= PERF_TYPE_MAX &&
		 (a->exclude_user || a->exclude_kernel || a->exclude_hv))
		snprintf(buf, len,
			 "%s: this PMU %s (invalid argument); drop the modifiers",
			 f->event, diagnose_modifiers_refused());
	else if (f->leader)
		snprintf(buf, len,
			 "%s: the kernel will not put it in a group with %s (invalid argument); take it out of the braces, or make the group weak with :W",
			 f->event, f->leader);
	else if (f->cpu >= 0 && s->n_cpus > 0 && f->cpu >= s->n_cpus)
		snprintf(buf, len, "%s: CPU %d does not exist (0-%ld here)",
			 f->event, f->cpu, s->n_cpus - 1);
	else if (a->type == PERF_TYPE_TRACEPOINT)
		snprintf(buf, len,
			 "%s: the kernel has no tracepoint with id %llu (invalid argument); has it gone since pstat read tracefs? see 'pstat --list %s'",
			 f->event, (unsigned long long)a->config, f->event);
	else
		snprintf(buf, len,
			 "%s: the kernel refused its configuration (invalid argument); check it with 'pstat --explain -e %s'",
			 f->event, f->event);
}

static void unsupported_text(const struct diagnose_failure *f,
			     const struct diagnose_facts *s, char *buf,
			     size_t len)
{
	const struct perf_event_attr *a = f->attr;
	bool hw = a->type == PERF_TYPE_HARDWARE ||
		  a->type == PERF_TYPE_HW_CACHE || a->type == PERF_TYPE_RAW;

	if (f->err == ENODEV && f->cpu >= 0)
		snprintf(buf, len, "%s: CPU %d is offline", f->event, f->cpu);
	else if (hw && !s->core_pmu)
		snprintf(buf, len, "%s: %s", f->event, diagnose_no_core_pmu());
	else
		snprintf(buf, len, "%s: not supported: %s (%s)", f->event,
			 diagnose_errno_meaning(f->err),
			 compat_errname(f->err));
}

static void limits_text(const struct diagnose_failure *f,
			const struct diagnose_facts *s, char *buf, size_t len)
{
	if (f->err == EMFILE && s->nofile < s->nofile_max)
		snprintf(buf, len,
			 "%s: too many open files: pstat needs one per event and per thread or CPU, and the limit is %lu; raise it: 'ulimit -n %lu'",
			 f->event, s->nofile, s->nofile_max);
	else if (f->err == EMFILE)
		snprintf(buf, len,
			 "%s: too many open files: pstat needs one per event and per thread or CPU, and the limit is %lu, the most allowed; %s",
			 f->event, s->nofile,
			 diagnose_fix(DIAGNOSE_FIX_HARD_LIMIT));
	else if (f->err == E2BIG && f->attr->size != sizeof(*f->attr))
		snprintf(buf, len,
			 "%s: the kernel takes a perf_event_attr of %u bytes, and pstat set a field it does not know: rebuild pstat against this kernel's headers",
			 f->event, f->attr->size);
	else if (f->err == E2BIG)
		snprintf(buf, len,
			 "%s: too many events in one group for a single read; split the group",
			 f->event);
	else if (f->err == ENOSPC)
		snprintf(buf, len, "%s: no room left on the hardware%s",
			 f->event, f->attr->type == PERF_TYPE_BREAKPOINT ?
			 BREAKPOINT_ROOM : "");
	else
		snprintf(buf, len,
			 "%s: its PMU is busy: another tool uses it exclusively",
			 f->event);
}

void diagnose_open_error(const struct diagnose_failure *f,
			 const struct diagnose_facts *s, char *buf,
			 size_t len)
{
	switch (f->err) {
	case EACCES:
		eacces_text(f, s, buf, len);
		break;
	case EPERM:
		eperm_text(f, s, buf, len);
		break;
	case EINVAL:
		einval_text(f, s, buf, len);
		break;
	case ENOENT:
	case ENXIO:
	case ENODEV:
	case EOPNOTSUPP:
		unsupported_text(f, s, buf, len);
		break;
	case EMFILE:
	case E2BIG:
	case ENOSPC:
	case EBUSY:
		limits_text(f, s, buf, len);
		break;
	case ESRCH:
		snprintf(buf, len, "%s: no such process %d: it has exited",
			 f->event, f->pid);
		break;
	case EOVERFLOW:
		snprintf(buf, len,
			 "%s: a callchain deeper than kernel.perf_event_max_stack was asked for; raise it with sysctl",
			 f->event);
		break;
	case ENOSYS:
		snprintf(buf, len,
			 "%s: this kernel has no perf events (built without CONFIG_PERF_EVENTS)",
			 f->event);
		break;
	default:
		snprintf(buf, len, "%s: cannot open counter: %s", f->event,
			 strerror(f->err));
	}
}
