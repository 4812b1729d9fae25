/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What sysfs and tracefs say about event sources, under movable roots. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmu.h"

static const char *sysfs_root = "/sys";
static const char *tracefs_override;

/* tracefs's own mount first; the debugfs automount on older systems. */
static const char *const tracefs_candidates[] = {
	"/sys/kernel/tracing/events",
	"/sys/kernel/debug/tracing/events",
};

void pmu_set_roots(const char *sysfs, const char *tracefs)
{
	sysfs_root = sysfs ? sysfs : "/sys";
	tracefs_override = tracefs;
}

const char *pmu_tracefs_events(void)
{
	size_t i;

	if (tracefs_override)
		return tracefs_override;
	for (i = 0; i < sizeof(tracefs_candidates) / sizeof(*tracefs_candidates);
	     i++) {
		/* EACCES still means it is there: report that, not absence. */
		if (access(tracefs_candidates[i], F_OK) == 0 || errno == EACCES)
			return tracefs_candidates[i];
	}
	return NULL;
}

/* Read a small decimal file; 0 or -errno. */
static int read_u64(const char *path, uint64_t *val)
{
	char buf[32], *end;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n < 0 ? -EIO : -EINVAL;
	buf[n] = '\0';
	errno = 0;
	*val = strtoull(buf, &end, 10);
	if (errno || end == buf || (*end != '\n' && *end != '\0'))
		return -EINVAL;
	return 0;
}

static int valid_component(const char *s, size_t len)
{
	return len > 0 && len < 256 && !memchr(s, '/', len) &&
	       !(len <= 2 && s[0] == '.' && (len == 1 || s[1] == '.'));
}

int pmu_tracepoint_id(const char *sys, size_t sys_len,
		      const char *name, size_t name_len, uint64_t *id)
{
	const char *events = pmu_tracefs_events();
	char path[4096];
	int ret;

	if (!events)
		return -ENODEV;
	if (!valid_component(sys, sys_len) || !valid_component(name, name_len))
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/%.*s/%.*s/id", events, (int)sys_len,
		 sys, (int)name_len, name);
	ret = read_u64(path, id);
	if (ret == -EACCES || ret == -EPERM) {
		/* Missing or forbidden? Without search permission on the
		 * directory the two look the same; say forbidden. */
		return -EACCES;
	}
	return ret == -ENOTDIR ? -ENOENT : ret;
}

bool pmu_have_core_pmu(void)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/bus/event_source/devices/cpu",
		 sysfs_root);
	return access(path, F_OK) == 0;
}
