/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Writing JSON: strings escaped, numbers in the C locale. */
#ifndef PSTAT_JSON_H
#define PSTAT_JSON_H

#include <stdbool.h>
#include <stdio.h>

/* s as a JSON string: quotes, backslashes and control characters
 * escaped, well-formed UTF-8 passed through, and each ill-formed part
 * of it (a byte that starts no sequence, or a sequence cut short) as
 * \ufffd, so that the document stays valid JSON. */
void json_string(FILE *f, const char *s);

/* Whether json_string writes a and b alike: the same bytes, but for
 * ill-formed parts, which are all U+FFFD. */
bool json_same_string(const char *a, const char *b);

/*
 * The length of the well-formed UTF-8 sequence at s (its first byte
 * 0x80 or more); where there is none, minus the length of its maximal
 * ill-formed part (at least 1), which never takes in the ending NUL.
 * Other text formats (OpenMetrics) pass UTF-8 on as json_string does.
 */
int json_utf8_sequence(const unsigned char *s);

/* A finite double as a JSON number; NaN and infinities as null. */
void json_number(FILE *f, double v);

/*
 * Finite v as json_number writes it, into buf (32 bytes hold any): an
 * integer whole, else the shortest %g that reads back the same. Other
 * text formats (OpenMetrics) write numbers so too.
 */
void json_number_text(char *buf, size_t len, double v);

/* An integer, exactly (a double loses digits past 2^53). */
void json_int(FILE *f, long long v);
void json_uint(FILE *f, unsigned long long v);

void json_bool(FILE *f, bool v);
void json_null(FILE *f);

#endif
