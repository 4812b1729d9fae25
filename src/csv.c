/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RFC 4180 fields: when one needs quotes, and writing it so. */
#include "config.h"

#include <string.h>

#include "csv.h"

bool csv_needs_quotes(const char *s, size_t len, const char *sep)
{
	size_t n = strlen(sep), k;

	if (memchr(s, '"', len) || memchr(s, '\n', len) ||
	    memchr(s, '\r', len) || memmem(s, len, sep, n))
		return true;
	for (k = 1; k < n && k <= len; k++)
		if (memcmp(s + len - k, sep, k) == 0 &&
		    memcmp(sep + k, sep, n - k) == 0)
			return true;
	return false;
}

void csv_escape(csv_put_fn *put, void *ctx, const char *s, size_t len)
{
	const char *q;

	while ((q = memchr(s, '"', len))) {
		put(ctx, s, (size_t)(q - s) + 1);
		put(ctx, "\"", 1);
		len -= (size_t)(q - s) + 1;
		s = q + 1;
	}
	put(ctx, s, len);
}

void csv_field(csv_put_fn *put, void *ctx, const char *s, size_t len,
	       const char *sep)
{
	if (!csv_needs_quotes(s, len, sep)) {
		put(ctx, s, len);
		return;
	}
	put(ctx, "\"", 1);
	csv_escape(put, ctx, s, len);
	put(ctx, "\"", 1);
}

void csv_file_put(void *ctx, const char *s, size_t len)
{
	fwrite(s, 1, len, ctx);
}

void csv_cell(FILE *f, const char *s, bool last)
{
	csv_field(csv_file_put, f, s, strlen(s), ",");
	fputc(last ? '\n' : ',', f);
}
