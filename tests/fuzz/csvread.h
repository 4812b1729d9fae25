/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A strict CSV reader for the fuzz targets: RFC 4180 with any
 * separator. A field is quoted ("a ""b""", which may hold the
 * separator, quotes and newlines) or holds none of them, nor a
 * carriage return; every record ends with a newline.
 */
#ifndef PSTAT_CSVREAD_H
#define PSTAT_CSVREAD_H

#include <stddef.h>

struct csv_record {
	char **fields;		/* unquoted, NUL-terminated */
	size_t n;
};

struct csv {
	struct csv_record *records;
	size_t n;
};

/* 0, or -1 with *err (static text) and *at where reading stopped. */
int csv_parse(const char *s, size_t len, const char *sep, struct csv *c,
	      const char **err, size_t *at);
void csv_free(struct csv *c);

#endif
