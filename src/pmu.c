/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What sysfs and tracefs say about event sources, under movable roots. */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "pmu.h"

static const char *sysfs_override;
static const char *tracefs_override;
static bool env_read;

/* tracefs's own mount first; the debugfs automount on older systems. */
static const char *const tracefs_candidates[] = {
	"/sys/kernel/tracing/events",
	"/sys/kernel/debug/tracing/events",
};

void pmu_set_roots(const char *sysfs, const char *tracefs)
{
	sysfs_override = sysfs;
	tracefs_override = tracefs;
	env_read = true;
}

static void read_env(void)
{
	if (env_read)
		return;
	env_read = true;
	/* Not for a pstat with privileges its user lacks (caps.h). */
	sysfs_override = secure_getenv("PSTAT_SYSFS");
	tracefs_override = secure_getenv("PSTAT_TRACEFS");
}

const char *pmu_sysfs_root(void)
{
	read_env();
	return sysfs_override ? sysfs_override : "/sys";
}

const char *pmu_tracefs_events(void)
{
	size_t i;

	read_env();
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

/* A small file without its trailing newline; 0 or -errno. */
static int read_small(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	buf[0] = '\0';
	if (fd < 0)
		return errno == ENOTDIR ? -ENOENT : -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -EIO;
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		n--;
	buf[n] = '\0';
	return 0;
}

/* The PMUs' directory, or a file below it when pmu is not NULL. */
static const char *devices(char *buf, size_t len, const char *pmu,
			   const char *file)
{
	if (pmu)
		snprintf(buf, len, "%s/bus/event_source/devices/%s/%s",
			 pmu_sysfs_root(), pmu, file);
	else
		snprintf(buf, len, "%s/bus/event_source/devices",
			 pmu_sysfs_root());
	return buf;
}

static int parse_u64(const char *s, int base, uint64_t *val)
{
	char *end;

	errno = 0;
	*val = strtoull(s, &end, base);
	return errno || end == s || *end || *s == '-' ? -EINVAL : 0;
}

static bool valid_component(const char *s, size_t len)
{
	return len > 0 && len < 256 && !memchr(s, '/', len) &&
	       !(len <= 2 && s[0] == '.' && (len == 1 || s[1] == '.'));
}

int pmu_tracepoint_id(const char *sys, size_t sys_len,
		      const char *name, size_t name_len, uint64_t *id)
{
	const char *events = pmu_tracefs_events();
	char path[4096], buf[32];
	int ret;

	if (!events)
		return -ENODEV;
	if (!valid_component(sys, sys_len) || !valid_component(name, name_len))
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/%.*s/%.*s/id", events, (int)sys_len,
		 sys, (int)name_len, name);
	ret = read_small(path, buf, sizeof(buf));
	if (ret == -EPERM)
		ret = -EACCES;
	return ret < 0 ? ret : parse_u64(buf, 10, id);
}

static int is_entry(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/* The names in dir, sorted; the count or -errno. */
static int list_dir(const char *dir, char ***out)
{
	struct dirent **d;
	char **names;
	int n, i;

	n = scandir(dir, &d, is_entry, alphasort);
	if (n < 0)
		return -errno;
	names = calloc((size_t)n + 1, sizeof(*names));
	for (i = 0; i < n; i++) {
		if (names)
			names[i] = strdup(d[i]->d_name);
		free(d[i]);
	}
	free(d);
	for (i = 0; names && i < n; i++)
		if (!names[i]) {
			pmu_instances_free(names, n);
			names = NULL;
		}
	if (!names)
		return -ENOMEM;
	*out = names;
	return n;
}

static int glob_system(const char *events, const char *sys,
		       const char *name_glob,
		       int (*fn)(void *, const char *, const char *, uint64_t),
		       void *arg)
{
	char path[4096], **names;
	int n, i, found = 0, ret = 0;
	uint64_t id;

	snprintf(path, sizeof(path), "%s/%s", events, sys);
	n = list_dir(path, &names);
	if (n < 0)
		return n == -ENOTDIR ? 0 : n;
	for (i = 0; i < n && ret >= 0; i++) {
		if (fnmatch(name_glob, names[i], 0) != 0)
			continue;
		/* Files such as "enable" and "filter" have no id. */
		ret = pmu_tracepoint_id(sys, strlen(sys), names[i],
					strlen(names[i]), &id);
		if (ret == -ENOENT) {
			ret = 0;
			continue;
		}
		if (ret == 0)
			ret = fn(arg, sys, names[i], id);
		found++;
	}
	pmu_instances_free(names, n);
	return ret < 0 ? ret : found;
}

int pmu_tracepoint_glob(const char *sys_glob, const char *name_glob,
			int (*fn)(void *arg, const char *sys,
				  const char *name, uint64_t id),
			void *arg)
{
	const char *events = pmu_tracefs_events();
	char **systems;
	int n, i, ret = 0, found = 0;

	if (!events)
		return -ENODEV;
	n = list_dir(events, &systems);
	if (n < 0)
		return n == -EPERM ? -EACCES : n;
	for (i = 0; i < n && ret >= 0; i++) {
		if (fnmatch(sys_glob, systems[i], 0) != 0)
			continue;
		ret = glob_system(events, systems[i], name_glob, fn, arg);
		if (ret > 0)
			found += ret;
	}
	pmu_instances_free(systems, n);
	return ret < 0 ? ret : found;
}

/*
 * As perf's is_pmu_core(): "cpu" (x86 and most others), s390's
 * "cpum_cf", or a PMU with a "cpus" file, which CPU PMUs have and no
 * other: arm64's (armv8_pmuv3, armv8_cortex_a72, ... whose type is
 * dynamic) and hybrid x86's cpu_core and cpu_atom.
 */
bool pmu_have_core_pmu(void)
{
	char path[4096], **names = NULL;
	bool core = false;
	int n, i;

	if (access(devices(path, sizeof(path), "cpu", ""), F_OK) == 0 ||
	    access(devices(path, sizeof(path), "cpum_cf", ""), F_OK) == 0)
		return true;
	n = pmu_all(&names);
	for (i = 0; i < n && !core; i++)
		core = access(devices(path, sizeof(path), names[i], "cpus"),
			      F_OK) == 0;
	if (n >= 0)
		pmu_instances_free(names, n);
	return core;
}

int pmu_core_name(char *buf, size_t len)
{
	char path[4096], **names = NULL;
	int n, i, ret = -ENOENT;

	if (access(devices(path, sizeof(path), "cpu", ""), F_OK) == 0) {
		snprintf(buf, len, "cpu");
		return 0;
	}
	n = pmu_all(&names);
	if (n < 0)
		return n;
	for (i = 0; i < n && ret < 0; i++)
		if (access(devices(path, sizeof(path), names[i], "cpus"),
			   F_OK) == 0) {
			snprintf(buf, len, "%s", names[i]);
			ret = 0;
		}
	pmu_instances_free(names, n);
	return ret;
}

int pmu_format_parse(const char *text, struct pmu_format *f)
{
	static const char *const words[] = { "config", "config1", "config2" };
	const char *colon = strchr(text, ':'), *p;
	size_t i;

	f->word = -1;
	f->mask = 0;
	for (i = 0; colon && i < sizeof(words) / sizeof(words[0]); i++)
		if (strlen(words[i]) == (size_t)(colon - text) &&
		    strncmp(text, words[i], (size_t)(colon - text)) == 0)
			f->word = (int)i;
	if (f->word < 0)
		return -EINVAL;
	for (p = colon + 1;;) {
		char *end;
		unsigned long lo = strtoul(p, &end, 10), hi = lo;

		if (end == p || !isdigit((unsigned char)*p))
			return -EINVAL;
		if (*end == '-') {
			p = end + 1;
			hi = strtoul(p, &end, 10);
			if (end == p || !isdigit((unsigned char)*p))
				return -EINVAL;
		}
		if (lo > hi || hi > 63)
			return -EINVAL;
		f->mask |= (hi == 63 ? ~0ULL : (1ULL << (hi + 1)) - 1) &
			   ~((1ULL << lo) - 1);
		if (*end == '\0' || *end == '\n')
			return 0;
		if (*end != ',')
			return -EINVAL;
		p = end + 1;
	}
}

int pmu_format_pack(const struct pmu_format *f, uint64_t value,
		    uint64_t *word)
{
	uint64_t out = 0;
	int bit;

	for (bit = 0; bit < 64 && value; bit++) {
		if (!(f->mask & (1ULL << bit)))
			continue;
		if (value & 1)
			out |= 1ULL << bit;
		value >>= 1;
	}
	if (value)
		return -ERANGE;
	*word = (*word & ~f->mask) | out;
	return 0;
}

int pmu_read_sysfs(const char *rel, char *buf, size_t len)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", pmu_sysfs_root(), rel);
	return read_small(path, buf, len);
}

int pmu_read(const char *pmu, const char *file, char *buf, size_t len)
{
	char path[4096];

	return read_small(devices(path, sizeof(path), pmu, file), buf, len);
}

int pmu_type(const char *pmu, uint32_t *type)
{
	char buf[32];
	uint64_t v;
	int ret = pmu_read(pmu, "type", buf, sizeof(buf));

	if (ret == 0)
		ret = parse_u64(buf, 10, &v);
	if (ret == 0 && v > UINT32_MAX)
		ret = -EINVAL;
	if (ret == 0)
		*type = (uint32_t)v;
	return ret;
}

void pmu_instances_free(char **names, int n)
{
	while (n-- > 0)
		free(names[n]);
	free(names);
}

/* NAME_N for a numeric N: an instance of NAME. */
static long instance_number(const char *entry, const char *name, size_t len)
{
	const char *p = entry + len + 1;
	char *end;
	long n;

	if (strncmp(entry, name, len) != 0 || entry[len] != '_' ||
	    !isdigit((unsigned char)*p))
		return -1;
	n = strtol(p, &end, 10);
	return *end ? -1 : n;
}

static long suffix(const char *name)
{
	return strtol(strrchr(name, '_') + 1, NULL, 10);
}

static int by_suffix(const void *a, const void *b)
{
	long x = suffix(*(char *const *)a), y = suffix(*(char *const *)b);

	return (x > y) - (x < y);
}

/* The PMUs name means, without perf's "uncore_" taken as said. */
static int instances_of(const char *name, size_t len, char ***names)
{
	char dir[4096], **all, **out;
	int n, i, kept = 0;

	n = list_dir(devices(dir, sizeof(dir), NULL, NULL), &all);
	if (n < 0)
		return n == -ENOMEM ? n : 0;
	out = calloc((size_t)n + 1, sizeof(*out));
	for (i = 0; out && i < n && kept == 0; i++) {
		/* An exact name is that PMU alone. */
		if (strlen(all[i]) == len && strncmp(all[i], name, len) == 0) {
			out[kept++] = all[i];
			all[i] = NULL;
		}
	}
	for (i = 0; out && i < n && (kept == 0 || out[0][len] == '_'); i++) {
		if (all[i] && instance_number(all[i], name, len) >= 0) {
			out[kept++] = all[i];
			all[i] = NULL;
		}
	}
	pmu_instances_free(all, n);
	if (!out)
		return -ENOMEM;
	/* By N, so imc_10 follows imc_9. */
	if (kept > 1)
		qsort(out, (size_t)kept, sizeof(*out), by_suffix);
	if (kept == 0)
		free(out);
	else
		*names = out;
	return kept;
}

int pmu_instances(const char *name, size_t len, char ***names)
{
	char full[256];
	int n = instances_of(name, len, names);

	/* perf's tables say cha_0 and cha for uncore_cha_0 and its kin. */
	if (n != 0 || (len >= 7 && strncmp(name, "uncore_", 7) == 0) ||
	    len + 8 > sizeof(full))
		return n;
	snprintf(full, sizeof(full), "uncore_%.*s", (int)len, name);
	return instances_of(full, len + 7, names);
}

static bool metadata(const char *name)
{
	return strchr(name, '.') != NULL;
}

int pmu_names(const char *pmu, const char *dir, char ***names)
{
	char path[4096], **all = NULL;
	int n, i, kept = 0;

	n = list_dir(devices(path, sizeof(path), pmu, dir), &all);
	if (n < 0)
		return n;
	for (i = 0; all && i < n; i++) {
		if (metadata(all[i]))
			free(all[i]);
		else
			all[kept++] = all[i];
	}
	*names = all;
	return kept;
}

int pmu_all(char ***names)
{
	char dir[4096];

	return list_dir(devices(dir, sizeof(dir), NULL, NULL), names);
}

int pmu_lookup(const char *pmu, const char *dir, const char *name,
	       char *real, size_t len)
{
	char rel[512], path[4096], **names = NULL;
	int n, i, ret = -ENOENT;

	/* name.scale and the like are facts about an alias, not one. */
	if (!valid_component(name, strlen(name)) || metadata(name))
		return -ENOENT;
	snprintf(rel, sizeof(rel), "%s/%s", dir, name);
	if (access(devices(path, sizeof(path), pmu, rel), F_OK) == 0) {
		snprintf(real, len, "%s", name);
		return 0;
	}
	n = pmu_names(pmu, dir, &names);
	for (i = 0; i < n && ret < 0; i++) {
		if (strcasecmp(names[i], name) == 0) {
			snprintf(real, len, "%s", names[i]);
			ret = 0;
		}
	}
	if (n >= 0)
		pmu_instances_free(names, n);
	return ret;
}

int pmu_alias_owners(const char *name, size_t len, char ***pmus)
{
	char alias[256], real[256], **all = NULL;
	int n, i, kept = 0;

	if (len >= sizeof(alias))
		return 0;
	memcpy(alias, name, len);
	alias[len] = '\0';
	n = pmu_all(&all);
	if (n < 0)
		return n == -ENOMEM ? n : 0;
	for (i = 0; i < n; i++) {
		if (pmu_lookup(all[i], "events", alias, real,
			       sizeof(real)) == 0)
			all[kept++] = all[i];
		else
			free(all[i]);
	}
	if (kept == 0)
		free(all);
	else
		*pmus = all;
	return kept;
}

/* perf 6.1's perf_pmu__hybrid_mounted(): cpu_* with a cpus file. */
static bool hybrid_core(const char *pmu)
{
	char path[4096];

	return strncmp(pmu, "cpu_", 4) == 0 &&
	       access(devices(path, sizeof(path), pmu, "cpus"), F_OK) == 0;
}

int pmu_hybrid_cores(char ***names)
{
	char path[4096], **all = NULL;
	int n, i, kept = 0;

	/* One look on every CPU that is not hybrid (x86's usual "cpu"). */
	if (access(devices(path, sizeof(path), "cpu", ""), F_OK) == 0)
		return 0;
	n = pmu_all(&all);
	if (n < 0)
		return n == -ENOMEM ? n : 0;
	for (i = 0; all && i < n; i++) {
		if (hybrid_core(all[i]))
			all[kept++] = all[i];
		else
			free(all[i]);
	}
	if (kept == 0)
		free(all);
	else
		*names = all;
	return kept;
}

bool pmu_is_hybrid_core(const char *pmu)
{
	char path[4096];

	return hybrid_core(pmu) &&
	       access(devices(path, sizeof(path), "cpu", ""), F_OK) != 0;
}
