/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pstat --list: the events this machine knows, grouped by kind. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include "event_table.h"
#include "list.h"
#include "pmu.h"

static bool matches(const char *name, const char *filter)
{
	if (!filter)
		return true;
	if (strpbrk(filter, "*?["))
		return fnmatch(filter, name, 0) == 0;
	return strstr(name, filter) != NULL;
}

static void heading(FILE *f, const char *title, bool *shown)
{
	if (*shown)
		return;
	fprintf(f, "%s:\n", title);
	*shown = true;
}

static void list_table(FILE *f, uint32_t type, const char *title,
		       const char *filter)
{
	const struct event_def *defs;
	bool shown = false;
	size_t n, i, j;

	defs = event_table_all(&n);
	for (i = 0; i < n; i++) {
		if (defs[i].type != type || defs[i].alias_of ||
		    !matches(defs[i].name, filter))
			continue;
		heading(f, title, &shown);
		fprintf(f, "  %s", defs[i].name);
		for (j = 0; j < n; j++)
			if (defs[j].alias_of &&
			    strcmp(defs[j].alias_of, defs[i].name) == 0)
				fprintf(f, " or %s", defs[j].name);
		fputc('\n', f);
	}
	if (shown)
		fputc('\n', f);
}

static int is_dir_entry(const struct dirent *d)
{
	return d->d_name[0] != '.' && d->d_type != DT_REG;
}

/* Directories under dir, sorted by name; -1 when it cannot be read. */
static int subdirs(const char *dir, struct dirent ***out)
{
	return scandir(dir, out, is_dir_entry, alphasort);
}

static void free_dirents(struct dirent **d, int n)
{
	while (n-- > 0)
		free(d[n]);
	free(d);
}

static void list_system(FILE *f, const char *events, const char *sys,
			const char *filter, bool *shown)
{
	struct dirent **names;
	char path[4096], full[512];
	int n, i;

	snprintf(path, sizeof(path), "%s/%s", events, sys);
	n = subdirs(path, &names);
	for (i = 0; i < n; i++) {
		snprintf(full, sizeof(full), "%s:%s", sys, names[i]->d_name);
		if (!matches(full, filter))
			continue;
		heading(f, "Tracepoints", shown);
		fprintf(f, "  %s\n", full);
	}
	if (n > 0)
		free_dirents(names, n);
}

static void list_tracepoints(FILE *f, const char *filter)
{
	const char *events = pmu_tracefs_events();
	struct dirent **systems;
	bool shown = false;
	int n, i;

	n = events ? subdirs(events, &systems) : -1;
	if (n < 0) {
		fprintf(f, "Tracepoints: %s\n\n",
			!events ? "no tracefs mounted" :
			errno == EACCES ?
			"tracefs is not readable (root only here)" :
			"tracefs cannot be read");
		return;
	}
	for (i = 0; i < n; i++)
		list_system(f, events, systems[i]->d_name, filter, &shown);
	free_dirents(systems, n);
	if (shown)
		fputc('\n', f);
}

int list_print(FILE *f, const char *filter)
{
	list_table(f, PERF_TYPE_HARDWARE, "Hardware events", filter);
	list_table(f, PERF_TYPE_SOFTWARE, "Software events", filter);
	list_tracepoints(f, filter);
	return fflush(f) == 0 && !ferror(f) ? 0 : -EIO;
}
