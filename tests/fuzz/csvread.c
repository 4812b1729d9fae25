/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A strict CSV reader for the fuzz targets (see csvread.h). */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "csvread.h"

static void *grow(void *p, size_t n, size_t size)
{
	p = realloc(p, (n + 1) * size);
	if (!p)
		abort();
	return p;
}

static void add_field(struct csv_record *r, const char *text, size_t len)
{
	char *f = malloc(len + 1);

	if (!f)
		abort();
	memcpy(f, text, len);
	f[len] = '\0';
	r->fields = grow(r->fields, r->n, sizeof(*r->fields));
	r->fields[r->n++] = f;
}

/* A quoted field at s[*pos], the quote; its text unquoted. */
static int quoted(const char *s, size_t len, size_t *pos,
		  struct csv_record *r)
{
	char *text = malloc(len - *pos + 1);
	size_t n = 0, i;

	if (!text)
		abort();
	for (i = *pos + 1; i < len; i++) {
		if (s[i] != '"') {
			text[n++] = s[i];
			continue;
		}
		if (i + 1 < len && s[i + 1] == '"') {
			text[n++] = '"';
			i++;
			continue;
		}
		add_field(r, text, n);
		free(text);
		*pos = i + 1;
		return 0;
	}
	free(text);
	return -1;
}

/* An unquoted field at s[*pos]: up to the separator or the newline. */
static int plain(const char *s, size_t len, const char *sep, size_t *pos,
		 struct csv_record *r)
{
	size_t sep_len = strlen(sep), i;

	for (i = *pos; i < len && s[i] != '\n'; i++) {
		if (len - i >= sep_len && memcmp(s + i, sep, sep_len) == 0)
			break;
		if (s[i] == '"' || s[i] == '\r')
			return -1;
	}
	add_field(r, s + *pos, i - *pos);
	*pos = i;
	return 0;
}

static int record(const char *s, size_t len, const char *sep, size_t *pos,
		  struct csv_record *r, const char **err)
{
	size_t sep_len = strlen(sep);

	for (;;) {
		if (*pos < len && s[*pos] == '"') {
			if (quoted(s, len, pos, r) < 0) {
				*err = "an unterminated quoted field";
				return -1;
			}
		} else if (plain(s, len, sep, pos, r) < 0) {
			*err = "a quote or a carriage return unquoted";
			return -1;
		}
		if (*pos < len && s[*pos] == '\n') {
			(*pos)++;
			return 0;
		}
		if (len - *pos >= sep_len &&
		    memcmp(s + *pos, sep, sep_len) == 0) {
			*pos += sep_len;
			continue;
		}
		*err = *pos < len ? "a quoted field, then not a separator"
				  : "no newline at the end";
		return -1;
	}
}

int csv_parse(const char *s, size_t len, const char *sep, struct csv *c,
	      const char **err, size_t *at)
{
	size_t pos = 0;

	memset(c, 0, sizeof(*c));
	*err = NULL;
	while (pos < len) {
		c->records = grow(c->records, c->n, sizeof(*c->records));
		memset(&c->records[c->n], 0, sizeof(c->records[0]));
		if (record(s, len, sep, &pos, &c->records[c->n++], err) < 0) {
			*at = pos;
			return -1;
		}
	}
	*at = pos;
	return 0;
}

void csv_free(struct csv *c)
{
	size_t i, j;

	for (i = 0; i < c->n; i++) {
		for (j = 0; j < c->records[i].n; j++)
			free(c->records[i].fields[j]);
		free(c->records[i].fields);
	}
	free(c->records);
	memset(c, 0, sizeof(*c));
}
