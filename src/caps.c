/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the kernel lets this process count, and why not. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/capability.h>
#include <sys/fsuid.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "caps.h"
#include "diag.h"
#include "event.h"
#include "evlist.h"
#include "pmu.h"
#include "sys.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif

int caps_paranoid(int *level)
{
	return sys_paranoid(level);
}

/* Documentation/admin-guide/sysctl/kernel.rst, and the distributions'. */
const char *caps_paranoid_meaning(int level)
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

static const cap_value_t cap_values[CAPS_N] = {
	[CAPS_PERFMON] = CAP_PERFMON,
	[CAPS_SYS_ADMIN] = CAP_SYS_ADMIN,
	[CAPS_SYS_PTRACE] = CAP_SYS_PTRACE,
};

bool caps_have(enum caps_which which)
{
	cap_t caps = cap_get_proc();
	cap_flag_value_t v = CAP_CLEAR;

	if (caps && cap_get_flag(caps, cap_values[which], CAP_EFFECTIVE,
				 &v) < 0)
		v = CAP_CLEAR;
	cap_free(caps);
	return v == CAP_SET;
}

/* libcap's text of caps, freed; "?" when there is none. */
static int text_of(cap_t caps, char *buf, size_t len)
{
	char *text = caps ? cap_to_text(caps, NULL) : NULL;
	int ret = text ? 0 : -errno;

	snprintf(buf, len, "%s", text ? text : "?");
	cap_free(text);
	cap_free(caps);
	return ret;
}

int caps_text(char *buf, size_t len)
{
	return text_of(cap_get_proc(), buf, len);
}

void caps_ambient_text(char *buf, size_t len)
{
	cap_value_t c, n = (cap_value_t)cap_max_bits();
	size_t used = 0;

	buf[0] = '\0';
	for (c = 0; c < n && used < len; c++) {
		char *name;

		if (cap_get_ambient(c) != 1)
			continue;
		name = cap_to_name(c);
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 used ? "," : "", name ? name : "?");
		cap_free(name);
	}
}

void caps_file_text(const char *path, char *buf, size_t len)
{
	cap_t caps = cap_get_file(path);

	if (!caps)
		buf[0] = '\0';	/* ENODATA: none */
	else
		text_of(caps, buf, len);
}

bool caps_elevated(void)
{
	return getauxval(AT_SECURE) || getuid() != geteuid() ||
	       getgid() != getegid();
}

/*
 * The filesystem ids become the real ones and no capability is in
 * effect while the file opens, so the kernel checks exactly what the
 * user could do; then pstat's own state comes back.
 */
int caps_open_user(const char *path, int flags, mode_t mode)
{
	cap_t saved, none;
	int fd = -1, err;
	uid_t fsuid;
	gid_t fsgid;

	if (!caps_elevated())
		return open(path, flags, mode);
	saved = cap_get_proc();
	none = saved ? cap_dup(saved) : NULL;
	if (!none || cap_clear_flag(none, CAP_EFFECTIVE) < 0) {
		cap_free(saved);
		cap_free(none);
		errno = ENOMEM;
		return -1;
	}
	fsgid = (gid_t)setfsgid(getgid());
	fsuid = (uid_t)setfsuid(getuid());
	err = EPERM;
	if (cap_set_proc(none) == 0) {
		fd = open(path, flags, mode);
		err = errno;
	}
	setfsuid(fsuid);
	setfsgid(fsgid);
	cap_set_proc(saved);
	cap_free(saved);
	cap_free(none);
	errno = err;
	return fd;
}

/*
 * What the child drops before it execs the command, decided before the
 * fork: the parent keeps its rights, as it opens the counters on the
 * child after the fork. The child uses libcap too, but only calls that
 * do not allocate: cap_reset_ambient(), a few prctl calls, and
 * cap_set_proc() with the empty cap_t made here, which locks only that
 * cap_t and calls capset. Between fork and exec only async-signal-safe
 * work is sound, even with one thread, as here.
 */
static struct {
	bool prepared;
	bool drop_ids;		/* setuid or setgid pstat: be the user again */
	bool drop_caps;
	uid_t uid;
	gid_t gid;
	cap_t none;		/* every set empty */
} exec_drop;

/* Whether the process holds any capability in any set. */
static bool holds_capabilities(void)
{
	cap_t now = cap_get_proc(), none = cap_init();
	bool any = !now || !none || cap_compare(now, none) != 0;

	cap_free(now);
	cap_free(none);
	return any;
}

int caps_exec_prepare(void)
{
	if (exec_drop.prepared)
		return 0;
	exec_drop.uid = getuid();
	exec_drop.gid = getgid();
	exec_drop.drop_ids = exec_drop.uid != geteuid() ||
			     exec_drop.gid != getegid();
	/*
	 * Root gets every capability back at exec anyway, and needs them
	 * to find the command where only root may look.
	 */
	exec_drop.drop_caps = exec_drop.uid != 0 && holds_capabilities();
	if (exec_drop.drop_caps) {
		exec_drop.none = cap_init();
		if (!exec_drop.none)
			return -ENOMEM;
	}
	exec_drop.prepared = true;
	return 0;
}

/*
 * No PR_SET_NO_NEW_PRIVS: the command must behave as if the user had
 * run it, set-user-ID programs included, and pstat's own privileges are
 * gone by then. The bounding set stays the user's for the same reason.
 */
int caps_exec_drop(void)
{
	int ret = caps_exec_prepare();

	if (ret < 0)
		return ret;
	if (exec_drop.drop_ids &&
	    (setresgid(exec_drop.gid, exec_drop.gid, exec_drop.gid) < 0 ||
	     setresuid(exec_drop.uid, exec_drop.uid, exec_drop.uid) < 0))
		return -errno;
	if (!exec_drop.drop_caps)
		return 0;
	if (cap_reset_ambient() < 0 && CAP_AMBIENT_SUPPORTED())
		return -errno;
	return cap_set_proc(exec_drop.none) < 0 ? -errno : 0;
}

bool caps_user_only_retry(const struct perf_event_attr *a, int pid)
{
	int level;

	return !a->exclude_kernel && !a->exclude_user && pid != -1 &&
	       caps_paranoid(&level) == 0 && level >= 2;
}

int caps_probe(uint32_t type, uint64_t config, bool user_only, int pid,
	       int cpu)
{
	struct perf_event_attr attr;
	int fd;

	event_attr_init(&attr);
	attr.type = type;
	attr.config = config;
	attr.disabled = 1;
	attr.exclude_kernel = attr.exclude_hv = user_only;
	fd = sys_perf_event_open(&attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -fd;
	sys_close(fd);
	return 0;
}

/* A number field of /proc/self/status ("Seccomp:"), or -1. */
static int status_field(const char *field)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	size_t n = strlen(field);
	int v = -1;

	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, field, n) == 0) {
			v = atoi(line + n);
			break;
		}
	if (f)
		fclose(f);
	return v;
}

/* /proc/PID is owned by the process's effective uid. */
static long process_owner(int pid)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d", pid);
	return pid > 0 && stat(path, &st) == 0 ? (long)st.st_uid : -1;
}

void caps_state_read(struct caps_state *s, int pid)
{
	struct rlimit rl = { 0, 0 };
	ssize_t n;
	int i;

	memset(s, 0, sizeof(*s));
	if (caps_paranoid(&s->paranoid) < 0)
		s->paranoid = CAPS_PARANOID_UNKNOWN;
	for (i = 0; i < CAPS_N; i++)
		s->have[i] = caps_have((enum caps_which)i);
	s->probe_err = caps_probe(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK,
				  true, 0, -1);
	s->seccomp = status_field("Seccomp:");
	s->uid = getuid();
	s->target_uid = process_owner(pid);
	s->core_pmu = pmu_have_core_pmu();
	getrlimit(RLIMIT_NOFILE, &rl);
	s->nofile = (unsigned long)rl.rlim_cur;
	s->nofile_max = (unsigned long)rl.rlim_max;
	s->n_cpus = sysconf(_SC_NPROCESSORS_CONF);
	n = readlink("/proc/self/exe", s->exe, sizeof(s->exe) - 1);
	s->exe[n > 0 ? n : 0] = '\0';
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

const char *caps_errno_meaning(int err)
{
	size_t i;

	for (i = 0; i < sizeof(errno_texts) / sizeof(errno_texts[0]); i++)
		if (errno_texts[i].err == err)
			return errno_texts[i].meaning;
	return strerror(err);
}

static bool perfmon_capable(const struct caps_state *s)
{
	return s->have[CAPS_PERFMON] || s->have[CAPS_SYS_ADMIN];
}

/* "kernel.perf_event_paranoid=2 here (what 2 means)". */
static void paranoid_text(const struct caps_state *s, char *buf, size_t len)
{
	if (s->paranoid == CAPS_PARANOID_UNKNOWN)
		snprintf(buf, len, "kernel.perf_event_paranoid cannot be read");
	else
		snprintf(buf, len, "kernel.perf_event_paranoid=%d here (%s)",
			 s->paranoid, caps_paranoid_meaning(s->paranoid));
}

static void perfmon_fix(const struct caps_state *s, char *buf, size_t len)
{
	snprintf(buf, len,
		 "run as root, or give pstat CAP_PERFMON (Linux 5.8+; CAP_SYS_ADMIN before): 'sudo setcap cap_perfmon+ep %s'",
		 s->exe[0] ? s->exe : "$(command -v pstat)");
}

/* EACCES for every event, pstat's own user-space count included. */
static void eacces_everything(const struct caps_open_failure *f,
			      const struct caps_state *s, char *buf,
			      size_t len)
{
	char para[512];

	paranoid_text(s, para, sizeof(para));
	if (s->paranoid >= 3)
		snprintf(buf, len,
			 "%s: permission denied: this kernel refuses perf_event_open to pstat altogether: %s; run as root, or lower the level so that users may count their own processes: 'sudo sysctl kernel.perf_event_paranoid=2'",
			 f->event, para);
	else
		snprintf(buf, len,
			 "%s: permission denied, as for every event, although %s: a security module (SELinux, AppArmor) or the container's policy forbids perf_event_open here",
			 f->event, para);
}

static void eacces_text(const struct caps_open_failure *f,
			const struct caps_state *s, char *buf, size_t len)
{
	const struct perf_event_attr *a = f->attr;
	bool perfmon = perfmon_capable(s);
	char para[512], fix[512];

	paranoid_text(s, para, sizeof(para));
	perfmon_fix(s, fix, sizeof(fix));
	if (s->probe_err == EACCES)
		eacces_everything(f, s, buf, len);
	else if (f->pid == -1 && !perfmon && s->paranoid > 0)
		snprintf(buf, len,
			 "%s: permission denied: counting whole CPUs (-a, -C) needs CAP_PERFMON or kernel.perf_event_paranoid at most 0, and it is %s; %s, or 'sudo sysctl kernel.perf_event_paranoid=0'",
			 f->event, para + strlen("kernel.perf_event_paranoid="),
			 fix);
	else if (f->pid > 0 && s->target_uid >= 0 &&
		 (uid_t)s->target_uid != s->uid && !perfmon &&
		 !s->have[CAPS_SYS_PTRACE])
		snprintf(buf, len,
			 "%s: permission denied: cannot attach to process %d, which belongs to uid %ld: counting another user's process needs ptrace access to it (the same user, or CAP_SYS_PTRACE) or CAP_PERFMON (Linux 5.8+; CAP_SYS_ADMIN before); run pstat as that user or as root, or 'sudo setcap cap_perfmon+ep %s'",
			 f->event, f->pid, s->target_uid,
			 s->exe[0] ? s->exe : "$(command -v pstat)");
	else if (!a->exclude_kernel && s->paranoid >= 2 && !perfmon)
		snprintf(buf, len,
			 "%s: permission denied: counting kernel activity needs CAP_PERFMON or kernel.perf_event_paranoid at most 1, and it is %s%s; %s, or 'sudo sysctl kernel.perf_event_paranoid=1'",
			 f->event, para + strlen("kernel.perf_event_paranoid="),
			 a->exclude_user ? "; count user space with :u instead"
					 : "; this event cannot leave the kernel out",
			 fix);
	else
		snprintf(buf, len,
			 "%s: permission denied although %s: a security module (SELinux, AppArmor) or a namespace restriction refused it",
			 f->event, para);
}

static void eperm_text(const struct caps_open_failure *f,
		       const struct caps_state *s, char *buf, size_t len)
{
	char para[512];

	if (s->probe_err == EPERM)
		snprintf(buf, len,
			 "%s: operation not permitted: perf_event_open fails with EPERM for every event here%s; in a container, allow it (docker run --cap-add PERFMON, or a seccomp profile that allows perf_event_open), or run pstat outside it",
			 f->event,
			 s->seccomp == 2 ? " (a seccomp filter is installed, as in Docker's and Podman's default profiles)"
					 : "");
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

static void einval_text(const struct caps_open_failure *f,
			const struct caps_state *s, char *buf, size_t len)
{
	const struct perf_event_attr *a = f->attr;

	if (a->type == PERF_TYPE_BREAKPOINT)
		snprintf(buf, len,
			 "%s: the kernel refused this breakpoint (invalid argument); the address must be aligned to the length, x86 cannot watch reads alone (use :w or :rw), and :x needs length %zu",
			 f->event, sizeof(long));
	else if (a->type >= PERF_TYPE_MAX &&
		 (a->exclude_user || a->exclude_kernel || a->exclude_hv))
		snprintf(buf, len,
			 "%s: this PMU cannot leave out user, kernel or hypervisor time (invalid argument); drop the modifiers",
			 f->event);
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

static void unsupported_text(const struct caps_open_failure *f,
			     const struct caps_state *s, char *buf,
			     size_t len)
{
	const struct perf_event_attr *a = f->attr;
	bool hw = a->type == PERF_TYPE_HARDWARE ||
		  a->type == PERF_TYPE_HW_CACHE || a->type == PERF_TYPE_RAW;

	if (f->err == ENODEV && f->cpu >= 0)
		snprintf(buf, len, "%s: CPU %d is offline", f->event, f->cpu);
	else if (hw && !s->core_pmu)
		snprintf(buf, len,
			 "%s: not supported: no hardware PMU is visible (a virtual machine without a vPMU?); software events and tracepoints still count",
			 f->event);
	else
		snprintf(buf, len, "%s: not supported: %s (%s)", f->event,
			 caps_errno_meaning(f->err), strerrorname_np(f->err));
}

static void limits_text(const struct caps_open_failure *f,
			const struct caps_state *s, char *buf, size_t len)
{
	if (f->err == EMFILE && s->nofile < s->nofile_max)
		snprintf(buf, len,
			 "%s: too many open files: pstat needs one per event and per thread or CPU, and the limit is %lu; raise it: 'ulimit -n %lu'",
			 f->event, s->nofile, s->nofile_max);
	else if (f->err == EMFILE)
		snprintf(buf, len,
			 "%s: too many open files: pstat needs one per event and per thread or CPU, and the limit is %lu, the most allowed; raise the hard limit (limits.conf, or as root 'ulimit -Hn')",
			 f->event, s->nofile);
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
			 ": x86 has 4 breakpoints per thread" : "");
	else
		snprintf(buf, len,
			 "%s: its PMU is busy: another tool uses it exclusively",
			 f->event);
}

void caps_open_error_text(const struct caps_open_failure *f,
			  const struct caps_state *s, char *buf, size_t len)
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

/* snprintf at buf + *used, never past len; *used follows. */
static void __attribute__((format(printf, 4, 5)))
append(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
	va_list ap;

	if (*used >= len)
		return;
	va_start(ap, fmt);
	*used += (size_t)vsnprintf(buf + *used, len - *used, fmt, ap);
	va_end(ap);
}

/* Up to four names of the events that pass, then how many more. */
static void event_names(const struct evlist *el,
			bool (*pass)(const struct evsel *), char *buf,
			size_t len)
{
	size_t i, n = 0, used = 0;

	buf[0] = '\0';
	for (i = 0; i < evlist_count(el); i++) {
		const struct evsel *e = evlist_at_const(el, i);

		if (e->merge_cont || !pass(e))
			continue;
		if (n++ < 4)
			append(buf, len, &used, "%s%s", n > 1 ? ", " : "",
			       e->name);
	}
	if (n > 4)
		append(buf, len, &used, " and %zu more", n - 4);
}

static bool counted_user_only(const struct evsel *e)
{
	return e->user_only && !e->open_err;
}

static bool blind_user_only(const struct evsel *e)
{
	return counted_user_only(e) && evsel_kernel_only(e);
}

static bool clock_user_only(const struct evsel *e)
{
	return counted_user_only(e) && evsel_is_clock(e);
}

bool caps_user_only_note(const struct evlist *el, int paranoid, char *buf,
			 size_t len)
{
	char names[512];
	size_t used = 0;

	event_names(el, counted_user_only, names, sizeof(names));
	if (!names[0])
		return false;
	if (paranoid >= 2)
		append(buf, len, &used, "kernel.perf_event_paranoid=%d",
		       paranoid);
	else
		append(buf, len, &used, "the kernel (a security module?)");
	append(buf, len, &used,
	       " lets you count user space only, so events are counted as :u");
	event_names(el, clock_user_only, names, sizeof(names));
	if (names[0])
		append(buf, len, &used, " (%s still include%s kernel time)",
		       names, strchr(names, ',') ? "" : "s");
	event_names(el, blind_user_only, names, sizeof(names));
	if (names[0])
		append(buf, len, &used,
		       "; %s: <not counted>, as the kernel counts %s in kernel mode only and :u would read 0",
		       names, strchr(names, ',') ? "them" : "it");
	append(buf, len, &used,
	       "; to count the kernel too: CAP_PERFMON, or 'sudo sysctl kernel.perf_event_paranoid=1' (see 'pstat --check')");
	return true;
}

static bool is_hardware(const struct evsel *e)
{
	return e->attr.type == PERF_TYPE_HARDWARE ||
	       e->attr.type == PERF_TYPE_HW_CACHE ||
	       e->attr.type == PERF_TYPE_RAW;
}

/*
 * One note per errno that left events <not supported>. Hardware events
 * without a hardware PMU have their own note (run.c).
 */
static void note_unsupported(const struct evlist *el)
{
	static const int errs[] = { ENOENT, ENXIO, ENODEV, EOPNOTSUPP };
	char names[512];
	size_t i, j, used;
	int core = -1;

	for (j = 0; j < sizeof(errs) / sizeof(errs[0]); j++) {
		used = 0;
		names[0] = '\0';
		for (i = 0; i < evlist_count(el); i++) {
			const struct evsel *e = evlist_at_const(el, i);

			if (e->open_err != errs[j] || e->merge_cont ||
			    e->modifiers_refused)
				continue;
			if (is_hardware(e) && core < 0)
				core = pmu_have_core_pmu();
			if (is_hardware(e) && !core)
				continue;
			append(names, sizeof(names), &used, "%s%s",
			       used ? ", " : "", e->name);
		}
		if (names[0])
			diag_note("%s: <not supported>: %s (%s)", names,
				  caps_errno_meaning(errs[j]),
				  strerrorname_np(errs[j]));
	}
	used = 0;
	names[0] = '\0';
	for (i = 0; i < evlist_count(el); i++) {
		const struct evsel *e = evlist_at_const(el, i);

		if (e->modifiers_refused && !e->merge_cont)
			append(names, sizeof(names), &used, "%s%s",
			       used ? ", " : "", e->name);
	}
	if (names[0])
		diag_note("%s: <not supported>: its PMU cannot leave out user, kernel or hypervisor time; drop the modifiers to count it",
			  names);
}

/* Where execvp would find file: 0, or -errno. */
static int resolve_command(const char *file, char *path, size_t len)
{
	const char *dirs = getenv("PATH"), *p, *end;
	struct stat st;

	if (strchr(file, '/')) {
		snprintf(path, len, "%s", file);
		return 0;
	}
	if (!dirs)
		dirs = "/bin:/usr/bin";
	for (p = dirs; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		snprintf(path, len, "%.*s%s%s", (int)(end - p), p,
			 end > p ? "/" : "", file);
		if (access(path, X_OK) == 0 && stat(path, &st) == 0 &&
		    S_ISREG(st.st_mode))
			return 0;
	}
	return -ENOENT;
}

/* Whether the kernel honours set-ID bits of path: not for a script, on
 * a nosuid mount, or under no_new_privs. */
static bool setid_applies(const char *path)
{
	struct statvfs vfs;
	char magic[2] = { 0 };
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		if (read(fd, magic, 2) != 2)
			magic[0] = '\0';
		close(fd);
	}
	if (magic[0] == '#' && magic[1] == '!')
		return false;
	if (statvfs(path, &vfs) == 0 && (vfs.f_flag & ST_NOSUID))
		return false;
	return prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1;
}

static const char stops[] =
	"the kernel stops counting a process when it executes such a program, so the counts end at that exec and show almost nothing of it";

bool caps_exec_stops_counting(const char *file, char *buf, size_t len)
{
	char path[PATH_MAX], owner[32];
	struct stat st;
	bool setid;

	if (resolve_command(file, path, sizeof(path)) < 0 ||
	    stat(path, &st) < 0)
		return false;
	setid = (st.st_mode & (S_ISUID | S_ISGID)) && setid_applies(path);
	if (st.st_uid == 0)
		snprintf(owner, sizeof(owner), "root");
	else
		snprintf(owner, sizeof(owner), "uid %ld", (long)st.st_uid);
	/* The child has the real ids by then (caps_exec_drop). */
	if (setid && (st.st_mode & S_ISUID) && st.st_uid != getuid())
		snprintf(buf, len,
			 "'%s' is set-user-ID %s: %s; to count it, run pstat as %s",
			 path, owner, stops, owner);
	else if (setid && (st.st_mode & S_ISGID) && st.st_gid != getgid())
		snprintf(buf, len,
			 "'%s' is set-group-ID (to gid %ld): %s; to count it, run pstat with gid %ld as its real group",
			 path, (long)st.st_gid, stops, (long)st.st_gid);
	else if (access(path, R_OK) < 0 && errno == EACCES)
		snprintf(buf, len,
			 "'%s' cannot be read by you, only executed: %s; to count it, run pstat as its owner or as root",
			 path, stops);
	else
		return false;
	return true;
}

void caps_note_run(const struct evlist *el, char *const argv[])
{
	char buf[2048];
	int paranoid = CAPS_PARANOID_UNKNOWN;
	size_t i;

	for (i = 0; i < evlist_count(el); i++)
		if (evlist_at_const(el, i)->user_only)
			break;
	if (i < evlist_count(el)) {
		caps_paranoid(&paranoid);
		if (caps_user_only_note(el, paranoid, buf, sizeof(buf)))
			diag_note("%s", buf);
	}
	note_unsupported(el);
	if (argv && argv[0] &&
	    caps_exec_stops_counting(argv[0], buf, sizeof(buf)))
		diag_note("%s", buf);
}
