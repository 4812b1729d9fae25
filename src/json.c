/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Writing JSON: strings escaped, numbers in the C locale. */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "json.h"

void json_string(FILE *f, const char *s)
{
	const unsigned char *c;

	fputc('"', f);
	for (c = (const unsigned char *)s; *c; c++) {
		switch (*c) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		default:
			if (*c < 0x20 || *c == 0x7f)
				fprintf(f, "\\u%04x", *c);
			else
				fputc(*c, f);
		}
	}
	fputc('"', f);
}

/* The shortest %g that reads back as the same double. */
void json_number(FILE *f, double v)
{
	char buf[32];
	int prec;

	if (!isfinite(v)) {
		fputs("null", f);
		return;
	}
	if (v == (double)(long long)v && fabs(v) < 9e15) {
		fprintf(f, "%lld", (long long)v);
		return;
	}
	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	snprintf(buf, sizeof(buf), "%.*g", prec, v);
	fputs(buf, f);
}

void json_int(FILE *f, long long v)
{
	fprintf(f, "%lld", v);
}

void json_uint(FILE *f, unsigned long long v)
{
	fprintf(f, "%llu", v);
}

void json_bool(FILE *f, bool v)
{
	fputs(v ? "true" : "false", f);
}

void json_null(FILE *f)
{
	fputs("null", f);
}
