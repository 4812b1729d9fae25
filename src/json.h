/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Writing JSON: strings escaped, numbers in the C locale. */
#ifndef PSTAT_JSON_H
#define PSTAT_JSON_H

#include <stdio.h>

/* s as a JSON string: quotes, backslashes and control characters
 * escaped, UTF-8 passed through. */
void json_string(FILE *f, const char *s);

/* A finite double as a JSON number; NaN and infinities as null. */
void json_number(FILE *f, double v);

#endif
