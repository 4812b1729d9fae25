/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A strict JSON reader for the fuzz targets, apart from json.c's
 * writer: RFC 8259 exactly (no trailing commas, no leading zeros, no
 * raw control characters, well-formed UTF-8, paired surrogates), and
 * no key twice in an object.
 */
#ifndef PSTAT_JSONREAD_H
#define PSTAT_JSONREAD_H

#include <stdbool.h>
#include <stddef.h>

enum jr_type { JR_NULL, JR_BOOL, JR_NUMBER, JR_STRING, JR_ARRAY, JR_OBJECT };

struct jr_value {
	enum jr_type type;
	char *text;		/* a string, decoded (UTF-8), or a number as
				 * written; NUL-terminated */
	size_t len;		/* its bytes, which may hold a NUL */
	bool boolean;
	struct jr_value *items;	/* an array's, or an object's values */
	char **keys;		/* an object's keys, decoded */
	size_t *key_lens;
	size_t n;
};

/*
 * The one value of s[0..len), blanks around it allowed. 0, or -1 with
 * *err (static text) and *at, the offset where reading stopped.
 */
int jr_parse(const char *s, size_t len, struct jr_value *v, const char **err,
	     size_t *at);
void jr_free(struct jr_value *v);

/* An object's value for key, or NULL (also when v is no object). */
const struct jr_value *jr_get(const struct jr_value *v, const char *key);

/* A string's text, or NULL when v is NULL or not a string. */
const char *jr_string(const struct jr_value *v);

#endif
