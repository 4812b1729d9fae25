/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * -G and --for-each-cgroup: the cgroup hierarchy perf_event counts in,
 * the cgroups named (their directories open), and which events each
 * counts, by perf's rules.
 */
#ifndef PSTAT_CGROUP_H
#define PSTAT_CGROUP_H

#include <limits.h>
#include <stddef.h>

struct evlist;

/* One cgroup named: as given, and its directory. */
struct cgroup_dir {
	char *name;
	int fd;
};

struct cgroups {
	char root[PATH_MAX];	/* where names start: the perf_event
				 * hierarchy's mount; "" until found */
	struct cgroup_dir *dirs;
	size_t n;
	size_t next;		/* the event the next -G name is for
				 * (perf's nr_cgroups) */
};

void cgroups_init(struct cgroups *cg);
void cgroups_free(struct cgroups *cg);

/*
 * The hierarchy perf_event counts in, from a mounts file (the format of
 * /proc/self/mounts): a cgroup (v1) mount with the perf_event
 * controller, else the cgroup2 mount. Into root; 0, or -ENOENT.
 */
int cgroup_find_root(const char *mounts, char *root, size_t len);

/*
 * perf's -G LIST after the events added so far: each name counts the
 * next event no -G named yet (an empty name leaves it to count
 * everything); a first -G of a single name counts every event so far.
 * 0, or -errno with a one-line reason in err (no such cgroup, more
 * names than events).
 */
int cgroups_apply(struct cgroups *cg, struct evlist *el, const char *list,
		  char *err, size_t len);

/*
 * --for-each-cgroup's name for the events from first on: 0, or -errno
 * with the reason in err.
 */
int cgroups_name_range(struct cgroups *cg, struct evlist *el,
		       const char *name, size_t first, char *err, size_t len);

/*
 * The kernel counts a group in one cgroup: 0, or -EINVAL naming the
 * member whose cgroup is not its leader's.
 */
int cgroups_check_groups(const struct evlist *el, char *err, size_t len);

#endif
