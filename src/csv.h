/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RFC 4180 fields: when one needs quotes, and writing it so. */
#ifndef PSTAT_CSV_H
#define PSTAT_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Where a field's bytes go: a FILE (csv_file_put), a line buffer. */
typedef void csv_put_fn(void *ctx, const char *s, size_t len);

/*
 * Whether the len bytes at s need quotes between separators sep: they
 * hold a quote or a line break, or sep could be read in them, inside
 * or running on into the sep after them ("a;" then ";;" reads as "a",
 * then ";").
 */
bool csv_needs_quotes(const char *s, size_t len, const char *sep);

/* The len bytes at s as they go between quotes: each quote doubled. */
void csv_escape(csv_put_fn *put, void *ctx, const char *s, size_t len);

/* One field, quoted where csv_needs_quotes says; no separator. */
void csv_field(csv_put_fn *put, void *ctx, const char *s, size_t len,
	       const char *sep);

/* fwrite to the FILE ctx. */
void csv_file_put(void *ctx, const char *s, size_t len);

/* A field of comma-separated f, then a comma, or a newline if last. */
void csv_cell(FILE *f, const char *s, bool last);

#endif
