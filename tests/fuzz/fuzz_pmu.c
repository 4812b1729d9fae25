/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PMU formats and terms: a format file ("config1:0-7,32") is taken
 * exactly when it is well formed, a value is packed into its bits and
 * nowhere else, or refused when it does not fit; and any terms against
 * a PMU whose format and alias files are the input parse or are refused
 * with a reason at an offset within them.
 */
#include "config.h"

#include <errno.h>
#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "event.h"
#include "fuzz.h"
#include "pmu.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_fake_sysfs(false);
	return 0;
}

/* A bit number at *s, moving s past it; past 63 when too large. */
static unsigned long long number(const char **s)
{
	unsigned long long v = 0;

	for (; isdigit((unsigned char)**s); (*s)++)
		v = v > 1000 ? v : v * 10 + (unsigned)(**s - '0');
	return v;
}

/*
 * The format's grammar, told apart from pmu.c's reading of it:
 * (config|config1|config2) ':' range (',' range)*, a range N or N-M with
 * N <= M <= 63, up to the end or a newline. -1 when not well formed.
 */
static int oracle_word(const char *s, uint64_t *mask)
{
	static const char *const words[] = {
		"config:", "config1:", "config2:",
	};
	unsigned long long lo, hi;
	int word;

	for (word = 2; word >= 0; word--)
		if (strncmp(s, words[word], strlen(words[word])) == 0)
			break;
	if (word < 0)
		return -1;
	s += strlen(words[word]);
	*mask = 0;
	for (;;) {
		if (!isdigit((unsigned char)*s))
			return -1;
		lo = hi = number(&s);
		if (*s == '-') {
			if (!isdigit((unsigned char)*++s))
				return -1;
			hi = number(&s);
		}
		if (lo > hi || hi > 63)
			return -1;
		for (; lo <= hi; lo++)
			*mask |= 1ULL << lo;
		if (*s == '\0' || *s == '\n')
			return word;
		if (*s++ != ',')
			return -1;
	}
}

/* The value held by mask's bits of word, low bits first. */
static uint64_t gather(uint64_t word, uint64_t mask)
{
	uint64_t v = 0;
	int bit, n = 0;

	for (bit = 0; bit < 64; bit++)
		if (mask & (1ULL << bit))
			v |= ((word >> bit) & 1) << n++;
	return v;
}

static void check_format(const char *text, uint64_t value, uint64_t word0,
			 struct pmu_format *f, int *ret)
{
	uint64_t mask = 0, word = word0;
	int want = oracle_word(text, &mask), bits;

	*ret = pmu_format_parse(text, f);
	FUZZ_CHECK(*ret == 0 || *ret == -EINVAL, "'%s': %d", text, *ret);
	FUZZ_CHECK((*ret == 0) == (want >= 0), "'%s': %d, but %s", text, *ret,
		   want >= 0 ? "it is well formed" : "it is not well formed");
	if (*ret < 0)
		return;
	FUZZ_CHECK(f->word == want && f->mask == mask,
		   "'%s': word %d mask %#llx, want %d %#llx", text, f->word,
		   (unsigned long long)f->mask, want, (unsigned long long)mask);
	bits = __builtin_popcountll(mask);
	*ret = pmu_format_pack(f, value, &word);
	FUZZ_CHECK(*ret == 0 || *ret == -ERANGE, "pack: %d", *ret);
	FUZZ_CHECK((*ret == 0) == (bits == 64 || value >> bits == 0),
		   "'%s': %#llx over %d bits: %d", text,
		   (unsigned long long)value, bits, *ret);
	if (*ret < 0) {
		FUZZ_CHECK(word == word0, "a refused value changed the word");
		return;
	}
	FUZZ_CHECK((word & ~mask) == (word0 & ~mask),
		   "'%s': bits outside the format changed: %#llx to %#llx",
		   text, (unsigned long long)word0, (unsigned long long)word);
	FUZZ_CHECK(gather(word, mask) == value, "'%s': %#llx packed as %#llx",
		   text, (unsigned long long)value, (unsigned long long)word);
}

static void write_file(const char *rel, const char *text)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/bus/event_source/devices/fz/%s",
		 fuzz_sysfs_root(), rel);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	FUZZ_CHECK(fd >= 0, "%s", path);
	FUZZ_CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text),
		   "%s", path);
	close(fd);
}

/* Terms against PMU fz, whose format f and alias al are the input. */
static void check_terms(const char *terms)
{
	struct perf_event_attr attr;
	struct event_pmu_extra x;
	struct error err = { 0 };
	int ret;

	event_attr_init(&attr);
	ret = event_from_pmu(&attr, "fz", terms, strlen(terms), &x, &err);
	FUZZ_CHECK(ret == 0 || ret == -EINVAL, "fz/%s/: %d", terms, ret);
	if (ret == 0) {
		FUZZ_CHECK(attr.type == 42, "fz/%s/: type %u", terms,
			   attr.type);
		return;
	}
	FUZZ_CHECK(err.reason[0], "fz/%s/: no reason", terms);
	FUZZ_CHECK(err.col <= strlen(terms), "fz/%s/: offset %zu: %s", terms,
		   err.col, err.reason);
}

/* f=VALUE packs VALUE into f's format as pmu_format_pack does. */
static void check_term_value(const char *fmt, const struct pmu_format *f,
			     int fmt_ret, uint64_t value)
{
	struct perf_event_attr attr;
	struct event_pmu_extra x;
	struct error err;
	const __u64 *words[] = { &attr.config, &attr.config1, &attr.config2 };
	uint64_t word = 0;
	char term[32];
	int ret;

	snprintf(term, sizeof(term), "f=%#llx", (unsigned long long)value);
	event_attr_init(&attr);
	ret = event_from_pmu(&attr, "fz", term, strlen(term), &x, &err);
	if (fmt_ret == 0)
		fmt_ret = pmu_format_pack(f, value, &word);
	FUZZ_CHECK((ret == 0) == (fmt_ret == 0), "'%s' with format '%s': %d",
		   term, fmt, ret);
	if (ret == 0)
		FUZZ_CHECK(*words[f->word] == word,
			   "'%s' with format '%s': %#llx, want %#llx", term,
			   fmt, (unsigned long long)*words[f->word],
			   (unsigned long long)word);
}

/* What a sysfs file reads as: no trailing blanks, at most len - 1 bytes. */
static void as_read(char *s, size_t len)
{
	size_t n = strnlen(s, len - 1);

	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	s[n] = '\0';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	uint64_t value = fuzz_uint(&in, 8), word0 = fuzz_uint(&in, 8);
	char *fmt = fuzz_str(&in), *alias = fuzz_str(&in);
	char *terms = fuzz_str(&in);
	struct pmu_format f;
	int ret;

	check_format(fmt, value, word0, &f, &ret);
	write_file("format/f", fmt);
	write_file("events/al", alias);
	check_terms(terms);
	/* As pmu.c reads the file back: the format it has then. */
	as_read(fmt, 256);
	check_format(fmt, value, word0, &f, &ret);
	check_term_value(fmt, &f, ret == -ERANGE ? 0 : ret, value);
	free(fmt);
	free(alias);
	free(terms);
	return 0;
}
