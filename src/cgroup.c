/* SPDX-License-Identifier: GPL-2.0-or-later */
/* -G and --for-each-cgroup: cgroups found, opened, given to events. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "caps.h"
#include "cgroup.h"
#include "error.h"
#include "evlist.h"

void cgroups_init(struct cgroups *cg)
{
	memset(cg, 0, sizeof(*cg));
}

void cgroups_free(struct cgroups *cg)
{
	size_t i;

	for (i = 0; i < cg->n; i++) {
		free(cg->dirs[i].name);
		if (cg->dirs[i].fd >= 0)
			close(cg->dirs[i].fd);
	}
	free(cg->dirs);
	cgroups_init(cg);
}

/* Whether a mount's comma-separated options hold opt. */
static bool has_option(const char *opts, const char *opt)
{
	size_t n = strlen(opt);
	const char *p;

	for (p = opts; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (strncmp(p, opt, n) == 0 && (p[n] == ',' || !p[n]))
			return true;
	return false;
}

int cgroup_find_root(const char *mounts, char *root, size_t len)
{
	char line[4096], dev[256], dir[PATH_MAX], type[64], opts[1024];
	char v2[PATH_MAX] = "";
	FILE *f = fopen(mounts, "re");
	bool v1 = false;

	if (!f)
		return -errno;
	while (!v1 && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %4095s %63s %1023s", dev, dir, type,
			   opts) != 4)
			continue;
		if (strcmp(type, "cgroup") == 0 &&
		    has_option(opts, "perf_event")) {
			snprintf(root, len, "%s", dir);
			v1 = true;
		} else if (strcmp(type, "cgroup2") == 0 && !v2[0]) {
			snprintf(v2, sizeof(v2), "%s", dir);
		}
	}
	(void)fclose(f);
	if (v1)
		return 0;
	if (!v2[0])
		return -ENOENT;
	snprintf(root, len, "%s", v2);
	return 0;
}

/* Whether name (n bytes) has a ".." part: a way out of the hierarchy. */
static bool climbs(const char *name, size_t n)
{
	size_t i = 0, part;

	while (i < n) {
		part = strcspn(name + i, "/");
		if (part > n - i)
			part = n - i;
		if (part == 2 && name[i] == '.' && name[i + 1] == '.')
			return true;
		i += part + 1;
	}
	return false;
}

/*
 * The directory of cgroup name (n bytes) at path, opened with the
 * user's rights (caps.h), whatever pstat's own: the fd, or -EINVAL
 * with the reason in err.
 */
static int open_cgroup(const struct cgroups *cg, const char *name, size_t n,
		       const char *path, char *err, size_t len)
{
	int fd;

	if (climbs(name, n))
		return error_say(err, len,
			      "cgroup '%.*s' leads out of %s, the hierarchy perf_event counts in: name a cgroup inside it, without '..' ('/' for its root)",
			      (int)n, name, cg->root);
	fd = caps_open_user(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	if (fd < 0 && (errno == ENOENT || errno == ENOTDIR))
		return error_say(err, len,
			      "no cgroup '%.*s' in %s, the hierarchy perf_event counts in: name one relative to it ('/' for its root)",
			      (int)n, name, cg->root);
	if (fd < 0)
		return error_say(err, len, "cannot open cgroup '%.*s' (%s): %s",
			      (int)n, name, path, strerror(errno));
	return fd;
}

/* The cgroup named name (n bytes), opened once however often named. */
static int cgroup_of(struct cgroups *cg, const char *name, size_t n,
		     const struct cgroup_dir **d, char *err, size_t len)
{
	struct cgroup_dir *grown;
	char path[2 * PATH_MAX];
	size_t i;
	int fd;

	for (i = 0; i < cg->n; i++)
		if (strlen(cg->dirs[i].name) == n &&
		    strncmp(cg->dirs[i].name, name, n) == 0) {
			*d = &cg->dirs[i];
			return 0;
		}
	if (!cg->root[0] &&
	    cgroup_find_root("/proc/self/mounts", cg->root, sizeof(cg->root)))
		return error_say(err, len,
			      "no cgroup hierarchy with perf_event is mounted (see /proc/mounts): mount one, as in mount -t cgroup2 none /sys/fs/cgroup");
	snprintf(path, sizeof(path), "%s/%.*s", cg->root, (int)n, name);
	fd = open_cgroup(cg, name, n, path, err, len);
	if (fd < 0)
		return fd;
	grown = realloc(cg->dirs, (cg->n + 1) * sizeof(*cg->dirs));
	if (!grown || !(name = strndup(name, n))) {
		close(fd);
		if (grown)
			cg->dirs = grown;
		return -ENOMEM;
	}
	cg->dirs = grown;
	cg->dirs[cg->n] = (struct cgroup_dir){ (char *)name, fd };
	*d = &cg->dirs[cg->n++];
	return 0;
}

int cgroups_apply(struct cgroups *cg, struct evlist *el, const char *list,
		  char *err, size_t len)
{
	size_t n_events = evlist_count(el), i, n;
	const struct cgroup_dir *d = NULL, *first = NULL;
	const char *p = list;
	int ret;

	if (n_events == 0)
		return error_say(err, len,
			      "-G %s: -G names the events before it, and there are none; give -e first",
			      list);
	for (;;) {
		n = strcspn(p, ",");
		if (cg->next >= n_events)
			return error_say(err, len,
				      "-G %s: more cgroups than events before it (%zu); each name is for one event, in order",
				      list, n_events);
		if (n) {
			ret = cgroup_of(cg, p, n, &d, err, len);
			if (ret < 0)
				return ret;
			evlist_set_cgroup(el, cg->next, d->name, d->fd);
			if (cg->next == 0)
				first = d;
		}
		cg->next++;
		if (!p[n])
			break;
		p += n + 1;
	}
	/* perf: "-e a -e b -G foo" counts both in foo. */
	if (cg->next == 1 && first)
		for (i = 1; i < n_events; i++)
			evlist_set_cgroup(el, i, first->name, first->fd);
	return 0;
}

int cgroups_name_range(struct cgroups *cg, struct evlist *el,
		       const char *name, size_t first, char *err, size_t len)
{
	const struct cgroup_dir *d = NULL;
	size_t i;
	int ret;

	if (!*name)
		return error_say(err, len,
			      "--for-each-cgroup: an empty name; name each cgroup ('/' for the root)");
	ret = cgroup_of(cg, name, strlen(name), &d, err, len);
	for (i = first; ret == 0 && d && i < evlist_count(el); i++)
		evlist_set_cgroup(el, i, d->name, d->fd);
	return ret;
}

int cgroups_check_groups(const struct evlist *el, char *err, size_t len)
{
	const char *a, *b;
	size_t i, lead;

	for (i = 0; i < evlist_count(el); i++) {
		lead = evlist_group_of(el, i).first;
		a = evsel_cgroup(evlist_at(el, lead));
		b = evsel_cgroup(evlist_at(el, i));
		if (a != b)
			return error_say(err, len,
				      "'%s' counts in %s%s%s and its group's leader '%s' in %s%s%s: the kernel counts a group in one cgroup; give both the same with -G",
				      evsel_name(evlist_at(el, i)),
				      b ? "cgroup '" : "every cgroup", b ? b : "",
				      b ? "'" : "",
				      evsel_name(evlist_at(el, lead)),
				      a ? "cgroup '" : "every cgroup", a ? a : "",
				      a ? "'" : "");
	}
	return 0;
}
