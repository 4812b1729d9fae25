/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The event list grammar, `a,b:u,{c,d}:k`, and -e @FILE, into an evlist. */
#ifndef PSTAT_EVPARSE_H
#define PSTAT_EVPARSE_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

struct evlist;

/* Why a spec or an event file was refused, and where. */
struct evparse_error {
	char where[PATH_MAX + 32];	/* "FILE:LINE: " or empty */
	char reason[PATH_MAX + 256];
	char hint[256];		/* may be empty */
	const char *spec;	/* the text at fault, to show; NULL: none */
	size_t col;		/* byte offset of the fault in spec */
	char *buf;		/* what spec points into, when it is ours */
};

/*
 * Parse one -e argument and add its events to el. 0; -EINVAL with err
 * filled in for a bad spec; -ENOMEM.
 */
int evparse(struct evlist *el, const char *spec, struct evparse_error *err);

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
		 struct evparse_error *err);

/* Free what an error that evparse or evparse_file filled in holds. */
void evparse_error_fini(struct evparse_error *err);

#endif
