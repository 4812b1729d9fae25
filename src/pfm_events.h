/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --pfm-events LIST: libpfm4's event syntax, in a list with {} groups. */
#ifndef PSTAT_PFM_EVENTS_H
#define PSTAT_PFM_EVENTS_H

struct evlist;
struct error;

/*
 * Parse one --pfm-events argument, `a,{b,c}` where each event is in
 * libpfm4's syntax ([PMU::]EVENT[:UMASK...][:MOD=VAL...]), and add its
 * events to el. 0; -EINVAL with err filled in (its col an offset into
 * spec); -ENOMEM.
 */
int pfm_events_parse(struct evlist *el, const char *spec,
		     struct error *err);

#endif
