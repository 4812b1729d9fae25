/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a parse of an event list promises, for the fuzz targets of -e
 * and --pfm-events: it is good or refused with a reason and a column
 * within the list, the same way every time; every event has a name, a
 * whole attr and a group of at most max events; a good list joined to
 * itself by a comma is good, with twice the events in the same groups.
 */
#ifndef PSTAT_EVCHECK_H
#define PSTAT_EVCHECK_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

struct evlist;

typedef int evcheck_parse_fn(struct evlist *el, const char *spec,
			     struct error *err);

/* The fuzzer's bytes, up to a NUL, as a list parsed by fn. */
void evcheck(const uint8_t *data, size_t size, evcheck_parse_fn *fn,
	     size_t max);

#endif
