/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The event list grammar, `a,b:u,{c,d}:k`, into an evlist. */
#ifndef PSTAT_EVPARSE_H
#define PSTAT_EVPARSE_H

#include <stddef.h>

#include "evlist.h"

/* Why a spec was refused, and where. */
struct evparse_error {
	size_t col;		/* byte offset of the fault in the spec */
	char reason[256];
	char hint[256];		/* may be empty */
};

/*
 * Parse one -e argument and add its events to el. 0; -EINVAL with err
 * filled in for a bad spec; -ENOMEM.
 */
int evparse(struct evlist *el, const char *spec, struct evparse_error *err);

#endif
