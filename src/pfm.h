/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Vendor event names through libpfm4 (inst_retired.any_p,
 * skl::INST_RETIRED:ANY_P:u), started only when a name needs it.
 */
#ifndef PSTAT_PFM_H
#define PSTAT_PFM_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/perf_event.h>

#include "event.h"

/* Whether pstat was built with libpfm4. */
bool pfm_built_in(void);

/* What an encoding brings besides the attr's type and configs. */
struct pfm_encoding {
	char mods[16];		/* libpfm4's own modifiers (u, k=1,
				 * precise=2, ...) as pstat's letters */
	char model[64];		/* libpfm4's name of the PMU: "skl" */
	char model_desc[128];	/* and its words: "Intel Skylake" */
};

/*
 * name[0..len) in libpfm4's syntax, [PMU::]EVENT[:UMASK...][:MOD=VAL...]
 * or perf's EVENT.UMASK, onto attr: its type, config, config1 and
 * config2 only. 0; -ENOENT when libpfm4 knows no such event here;
 * -EINVAL with err (an offset into name) for a bad umask or modifier;
 * -EOPNOTSUPP when pstat is built without libpfm4; -ENODEV when libpfm4
 * does not start; -ENOMEM.
 */
int pfm_encode(struct perf_event_attr *attr, const char *name, size_t len,
	       struct pfm_encoding *enc, struct error *err);

/*
 * The PMU models libpfm4 detects here, "skl (Intel Skylake), ...", or
 * "" for none; whether one is AMD's in *amd (may be NULL). 0,
 * -EOPNOTSUPP or -ENODEV as pfm_encode.
 */
int pfm_models(char *buf, size_t len, bool *amd);

/* Why name is unknown to libpfm4 as well: the models it knows here. */
void pfm_unknown_hint(char *buf, size_t len);

/*
 * Each event of the detected models, then each of its umasks (umask
 * NULL for the event itself), until fn returns non-zero, which is
 * returned. 0, or -EOPNOTSUPP or -ENODEV as pfm_encode.
 */
typedef int pfm_event_fn(void *arg, const char *model, const char *model_desc,
			 const char *event, const char *umask,
			 const char *desc);
int pfm_each_event(pfm_event_fn *fn, void *arg);

/* Whether libpfm4 was started by this process (a test's question). */
bool pfm_started(void);

/* libpfm4's memory back, when it was started. */
void pfm_fini(void);

#endif
