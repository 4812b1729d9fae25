/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One event term to its perf_event_attr: names, tracepoints, modifiers. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "event.h"
#include "event_table.h"
#include "pmu.h"

void event_attr_init(struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
}

int event_from_name(struct perf_event_attr *attr, const char *name,
		    size_t len)
{
	const struct event_def *def = event_table_find(name, len);

	if (!def)
		return -ENOENT;
	attr->type = def->type;
	attr->config = def->config;
	return 0;
}

int event_from_tracepoint(struct perf_event_attr *attr, const char *sys,
			  size_t sys_len, const char *name, size_t name_len)
{
	uint64_t id;
	int ret = pmu_tracepoint_id(sys, sys_len, name, name_len, &id);

	if (ret < 0)
		return ret;
	attr->type = PERF_TYPE_TRACEPOINT;
	attr->config = id;
	return 0;
}

int event_is_modifier(char c)
{
	return c == 'u' || c == 'k' || c == 'h';
}

/*
 * perf's rule: the first of u, k and h excludes all three, then each
 * letter lets its own level back in; an attr that already excludes
 * something (a group member with its own letters) starts from there.
 */
int event_apply_modifiers(struct perf_event_attr *attr, const char *mods,
			  size_t len, size_t *bad)
{
	int eu = attr->exclude_user, ek = attr->exclude_kernel;
	int eh = attr->exclude_hv;
	int excluding = eu | ek | eh;
	size_t i;

	for (i = 0; i < len; i++) {
		if (!event_is_modifier(mods[i])) {
			*bad = i;
			return -EINVAL;
		}
		if (!excluding)
			excluding = eu = ek = eh = 1;
		switch (mods[i]) {
		case 'u':
			eu = 0;
			break;
		case 'k':
			ek = 0;
			break;
		case 'h':
			eh = 0;
			break;
		}
	}
	attr->exclude_user = eu;
	attr->exclude_kernel = ek;
	attr->exclude_hv = eh;
	return 0;
}
