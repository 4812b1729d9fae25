/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The event list grammar, `a,b:u,{c,d}:k`, and -e @FILE, into an evlist. */
#ifndef PSTAT_EVPARSE_H
#define PSTAT_EVPARSE_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

#include "error.h"

struct evlist;

/*
 * Parse one -e argument and add its events to el. 0; -EINVAL with err
 * filled in for a bad spec; -ENOMEM.
 */
int evparse(struct evlist *el, const char *spec, struct error *err);

/* open(2), or one like it: the descriptor, or -1 with errno set. */
typedef int evparse_open_fn(const char *path, int flags, mode_t mode);

/* What evparse_file reads at most, of a file and of one of its lines. */
#define EVPARSE_FILE_MAX	(1u << 20)
#define EVPARSE_LINE_MAX	(64u << 10)

/*
 * -e @FILE: the events of the file at path, which open_fn opens. Its
 * lines are joined with commas, so a list or a group may go on over
 * lines; # starts a comment. 0; -ENOMEM; -EINVAL with err filled in for
 * a file that cannot be read, is too large or names no events, and for
 * a bad line: then where is "FILE:LINE: ", spec that line and col the
 * fault in it.
 */
int evparse_file(struct evlist *el, const char *path, evparse_open_fn *open_fn,
		 struct error *err);

/* Frees perf's tables, which a vendor name had evparse read. */
void evparse_fini(void);

#endif
