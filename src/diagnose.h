/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Facts about the machine, and the words for every failure and its fix. */
#ifndef PSTAT_DIAGNOSE_H
#define PSTAT_DIAGNOSE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <linux/perf_event.h>

#include "caps.h"

/* kernel.perf_event_paranoid when it cannot be read: no perf events. */
#define DIAGNOSE_PARANOID_UNKNOWN (-1000)

/*
 * What diagnose_gather reads. Each fact costs system calls or sysfs
 * reads, so a caller asks for what its words will use.
 */
enum diagnose_need {
	DIAGNOSE_PARANOID = 1u << 0,	/* paranoid */
	DIAGNOSE_CORE_PMU = 1u << 1,	/* core_pmu */
	DIAGNOSE_RIGHTS = 1u << 2,	/* the rest of "for an open failure" */
	DIAGNOSE_CHECKUP = 1u << 3,	/* the rest of --check's */
	DIAGNOSE_FDS = 1u << 4,		/* nofile, nofile_max, fds_open */
	/* What the words of a failed open use. */
	DIAGNOSE_OPEN = DIAGNOSE_PARANOID | DIAGNOSE_CORE_PMU | DIAGNOSE_RIGHTS,
	DIAGNOSE_ALL = DIAGNOSE_OPEN | DIAGNOSE_CHECKUP,
};

/* What the kernel and pstat's rights are; facts not gathered are 0. */
struct diagnose_facts {
	/* DIAGNOSE_PARANOID */
	int paranoid;		/* DIAGNOSE_PARANOID_UNKNOWN when unknown */
	/* DIAGNOSE_CORE_PMU */
	bool core_pmu;		/* a hardware PMU: pmu_have_core_pmu, or
				 * a PMU of type PERF_TYPE_RAW */
	/* DIAGNOSE_RIGHTS */
	bool have[CAPS_N];	/* effective capabilities */
	int user_err;		/* errno opening task-clock:u on pstat
				 * itself, 0 when it opened */
	int seccomp;		/* /proc/self/status Seccomp:, -1 unknown */
	int no_new_privs;	/* NoNewPrivs: likewise */
	uid_t uid;		/* pstat's real uid */
	long target_uid;	/* owner of the target process, -1 unknown */
	unsigned long nofile, nofile_max;	/* RLIMIT_NOFILE */
	/* DIAGNOSE_FDS: the limits too, and */
	size_t fds_open;	/* descriptors open now */
	bool dumpable;		/* PR_GET_DUMPABLE: not after a set-user-ID,
				 * set-group-ID or file-capability exec, and
				 * the command's process, held before its
				 * exec, is pstat's own memory or its copy */
	bool set_uid, set_gid;	/* the real and effective ids differ */
	long n_cpus;		/* configured CPUs */
	char exe[256];		/* pstat's own path, for setcap */
	/* DIAGNOSE_CHECKUP: what --check adds */
	struct utsname uts;
	int kernel_err;		/* task-clock, kernel included, on pstat */
	int cpu_err;		/* cpu-clock on CPU 0, every task */
	int attach_err;		/* task-clock:u on pid 1 */
	int hw_err;		/* cycles:u on pstat */
	bool elevated;		/* caps_elevated */
	char caps_text[256], ambient[256], file_caps[256];
	char pmus[512];		/* every PMU, comma-separated */
	char core_pmus[256];	/* a hybrid CPU's core PMUs, comma-separated;
				 * empty when it is not hybrid */
	char core_cpus[256];	/* and their CPUs: "cpu_atom 1-3; cpu_core 0" */
	const char *tracefs_events;	/* pmu_tracefs_events, NULL: none */
	char tracefs[256];	/* its mount point */
	unsigned int tracefs_mode;	/* and its mode, owner and group */
	long tracefs_uid, tracefs_gid;
	bool tracefs_readable;	/* tracepoint ids can be read */
	int nmi_watchdog;	/* kernel.nmi_watchdog, -1 when absent */
	bool enomem;		/* a fact is missing: out of memory */
};

/*
 * Fill f with what need asks for (enum diagnose_need), of the machine
 * and of pstat's rights; pid is the target whose owner matters (0 or
 * -1: none). The one impure function here.
 */
void diagnose_gather(struct diagnose_facts *f, unsigned int need, int pid);

/* Everything below is pure: words from facts. */

/* A failed perf_event_open, as pstat saw it. */
struct diagnose_failure {
	const char *event;	/* its name */
	const struct perf_event_attr *attr;
	int err;		/* errno */
	int pid, cpu;		/* where it was opened */
	const char *leader;	/* its group's open leader, or NULL */
	bool command;		/* pid is pstat's command, before its exec */
};

/*
 * The one-line message for a failed open, with what to do about it,
 * into buf (without "pstat: "). s as DIAGNOSE_OPEN gathers it.
 */
void diagnose_open_error(const struct diagnose_failure *f,
			 const struct diagnose_facts *s, char *buf,
			 size_t len);

/* The errno's meaning for perf_event_open, from the man page. */
const char *diagnose_errno_meaning(int err);

/*
 * A probe's result for --check: "ok", or the errno's name and meaning
 * (EPERM for pstat's own count too says that perf_event_open is
 * blocked). s as DIAGNOSE_RIGHTS gathers it.
 */
void diagnose_probe_result(const struct diagnose_facts *s, int err,
			   char *buf, size_t len);

/* What kernel.perf_event_paranoid level lets a process without
 * CAP_PERFMON do. */
const char *diagnose_paranoid_meaning(int level);

/* The sentence for hardware events on a machine without a core PMU. */
const char *diagnose_no_core_pmu(void);

/* Why an event of a PMU that counts everything or nothing failed with
 * modifiers: "cannot leave out user, kernel or hypervisor time". */
const char *diagnose_modifiers_refused(void);

/* Fixes that need no facts. */
enum diagnose_fix {
	DIAGNOSE_FIX_PERF_EVENTS,	/* a kernel with perf events */
	DIAGNOSE_FIX_VPMU,		/* a virtual machine's PMU */
	DIAGNOSE_FIX_CONTAINER,		/* let perf_event_open through */
	DIAGNOSE_FIX_OTHER_USERS,	/* what counting them needs */
	DIAGNOSE_FIX_NMI_WATCHDOG,	/* give its counter back */
	DIAGNOSE_FIX_HARD_LIMIT,	/* more open files */
};

const char *diagnose_fix(enum diagnose_fix which);

/* "give pstat CAP_PERFMON (...): 'sudo setcap cap_perfmon+ep EXE'",
 * s as DIAGNOSE_RIGHTS gathers it. */
void diagnose_setcap_fix(const struct diagnose_facts *s, char *buf,
			 size_t len);

/* "'sudo sysctl kernel.perf_event_paranoid=LEVEL'". */
void diagnose_sysctl_fix(int level, char *buf, size_t len);

/*
 * How to let the user read tracepoint ids: mount tracefs when events
 * (pmu_tracefs_events) is NULL, else let a group read its mount.
 */
void diagnose_tracefs_fix(const char *events, char *buf, size_t len);

/*
 * pstat ran out of descriptors before its counters (EMFILE): the words
 * (after "pstat: ") with the limit that fixes it, for need descriptors
 * besides those open; s as DIAGNOSE_FDS gathers it.
 */
void diagnose_out_of_fds(const struct diagnose_facts *s, size_t need,
			 char *buf, size_t len);

/* counters x targets descriptors beyond the hard limit: the error. */
void diagnose_fd_limit(size_t counters, size_t fds, unsigned long long limit,
		       char *buf, size_t len);

#endif
