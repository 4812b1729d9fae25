/* SPDX-License-Identifier: GPL-2.0-or-later */
/* perf stat's layout for people: aligned, grouped digits, metrics. */
#include "config.h"

#include <inttypes.h>
#include <langinfo.h>
#include <locale.h>
#include <string.h>

#include "output_impl.h"

/* Columns as perf stat prints them: value, unit, name, '#', metric. */
#define VALUE_WIDTH	18
#define NAME_WIDTH	32
#define METRIC_WIDTH	23

/* Digit grouping and the decimal point of the user's locale. */
struct numeric {
	char thousands[8];
	char radix[8];
};

static struct numeric numeric;

static void copy_or(char *dst, size_t len, const char *src, const char *dflt)
{
	snprintf(dst, len, "%s", src && *src && strlen(src) < len ? src : dflt);
}

/*
 * Only the human output follows the locale, and only through a locale
 * object: printf itself stays in "C", so no machine format can change.
 * A locale without grouping (C, POSIX) still gets commas: big counts
 * must be readable.
 */
static void numeric_init(void)
{
	locale_t loc = newlocale(LC_NUMERIC_MASK, "", (locale_t)0);

	copy_or(numeric.thousands, sizeof(numeric.thousands),
		loc ? nl_langinfo_l(THOUSEP, loc) : NULL, ",");
	copy_or(numeric.radix, sizeof(numeric.radix),
		loc ? nl_langinfo_l(RADIXCHAR, loc) : NULL, ".");
	if (loc)
		freelocale(loc);
}

/* "%.*f" with the locale's decimal point. */
static void format_fixed(char *buf, size_t len, int prec, double v)
{
	size_t radix_len = strlen(numeric.radix);
	char *dot;

	snprintf(buf, len, "%.*f", prec, v);
	dot = strchr(buf, '.');
	if (!dot || radix_len == 1) {
		if (dot)
			*dot = numeric.radix[0];
		return;
	}
	/* A multibyte decimal point: make room when there is some. */
	if (strlen(buf) + radix_len < len) {
		memmove(dot + radix_len, dot + 1, strlen(dot + 1) + 1);
		memcpy(dot, numeric.radix, radix_len);
	}
}

static void format_grouped(char *buf, size_t len, uint64_t v)
{
	char digits[24];
	size_t n, i, o = 0, sep_len = strlen(numeric.thousands);

	n = (size_t)snprintf(digits, sizeof(digits), "%" PRIu64, v);
	for (i = 0; i < n && o + sep_len + 2 < len; i++) {
		if (i > 0 && (n - i) % 3 == 0) {
			memcpy(buf + o, numeric.thousands, sep_len);
			o += sep_len;
		}
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
}

static void human_header(FILE *f, const struct output_run *run,
			 const struct output_opts *o)
{
	char *const *a;

	numeric_init();
	fputs("\n Performance counter stats for '", f);
	for (a = run->argv; *a; a++)
		fprintf(f, "%s%s", a == run->argv ? "" : " ", *a);
	fputs("':\n\n", f);
}

static void value_text(char *buf, size_t len, const struct output_row *row)
{
	switch (row->r.state) {
	case COUNTS_NOT_SUPPORTED:
		snprintf(buf, len, "<not supported>");
		break;
	case COUNTS_NOT_COUNTED:
		snprintf(buf, len, "<not counted>");
		break;
	default:
		if (row->fractional)
			format_fixed(buf, len, 2, row->value);
		else
			format_grouped(buf, len, row->r.value);
	}
}

static void human_row(FILE *f, const struct output_row *row,
		      const struct output_opts *o)
{
	char value[128], metric[64];
	bool scaled = row->r.state == COUNTS_SCALED;

	value_text(value, sizeof(value), row);
	fprintf(f, "%*s %-4s ", VALUE_WIDTH, value, row->unit);
	if (!row->m.valid && !scaled) {
		fprintf(f, "%s\n", row->name);
		return;
	}
	fprintf(f, "%-*s ", NAME_WIDTH, row->name);
	if (row->m.valid) {
		format_fixed(metric, sizeof(metric), 3, row->m.value);
		fprintf(f, "# %8s %-*s", metric, scaled ? METRIC_WIDTH : 0,
			row->m.unit);
	} else {
		fprintf(f, "  %8s %-*s", "", METRIC_WIDTH, "");
	}
	if (scaled) {
		format_fixed(metric, sizeof(metric), 2, row->r.running_pct);
		fprintf(f, "  (%s%%)", metric);
	}
	fputc('\n', f);
}

static void seconds(FILE *f, double s, const char *what)
{
	char buf[64];

	format_fixed(buf, sizeof(buf), 9, s);
	fprintf(f, "%*s seconds %s\n", VALUE_WIDTH, buf, what);
}

static void human_footer(FILE *f, const struct output_run *run,
			 const struct output_opts *o)
{
	fputc('\n', f);
	seconds(f, run->elapsed_ns / 1e9, "time elapsed");
	fputc('\n', f);
	seconds(f, run->user_s, "user");
	seconds(f, run->sys_s, "sys");
	fputc('\n', f);
}

const struct output_printer output_human = {
	.header = human_header,
	.row = human_row,
	.footer = human_footer,
};
