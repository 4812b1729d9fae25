/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A strict JSON reader for the fuzz targets (see jsonread.h). */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jsonread.h"

#define MAX_DEPTH 64

struct reader {
	const unsigned char *s;
	size_t len, pos;
	const char *err;
};

static int fail(struct reader *r, const char *why)
{
	if (!r->err)
		r->err = why;
	return -1;
}

static int peek(const struct reader *r)
{
	return r->pos < r->len ? r->s[r->pos] : -1;
}

static void blanks(struct reader *r)
{
	while (r->pos < r->len && strchr(" \t\n\r", r->s[r->pos]) &&
	       r->s[r->pos])
		r->pos++;
}

/* A growing byte buffer. */
struct buf {
	char *p;
	size_t n, cap;
};

static void put(struct buf *b, const void *bytes, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		b->cap = (b->n + n + 1) * 2;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			abort();
	}
	memcpy(b->p + b->n, bytes, n);
	b->n += n;
	b->p[b->n] = '\0';
}

static void put_code_point(struct buf *b, uint32_t c)
{
	unsigned char u[4];
	size_t n;

	if (c < 0x80) {
		u[0] = (unsigned char)c;
		n = 1;
	} else if (c < 0x800) {
		u[0] = (unsigned char)(0xc0 | c >> 6);
		u[1] = (unsigned char)(0x80 | (c & 0x3f));
		n = 2;
	} else if (c < 0x10000) {
		u[0] = (unsigned char)(0xe0 | c >> 12);
		u[1] = (unsigned char)(0x80 | (c >> 6 & 0x3f));
		u[2] = (unsigned char)(0x80 | (c & 0x3f));
		n = 3;
	} else {
		u[0] = (unsigned char)(0xf0 | c >> 18);
		u[1] = (unsigned char)(0x80 | (c >> 12 & 0x3f));
		u[2] = (unsigned char)(0x80 | (c >> 6 & 0x3f));
		u[3] = (unsigned char)(0x80 | (c & 0x3f));
		n = 4;
	}
	put(b, u, n);
}

/* The length of the well-formed UTF-8 sequence at s[0..n), or 0. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t need, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		need = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		need = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		need = 4;
	else
		return 0;
	if (s[0] == 0xe0)
		lo = 0xa0;
	if (s[0] == 0xed)
		hi = 0x9f;
	if (s[0] == 0xf0)
		lo = 0x90;
	if (s[0] == 0xf4)
		hi = 0x8f;
	if (n < need)
		return 0;
	for (i = 1; i < need; i++, lo = 0x80, hi = 0xbf)
		if (s[i] < lo || s[i] > hi)
			return 0;
	return need;
}

static int hex4(struct reader *r, uint32_t *v)
{
	size_t i;
	int c;

	*v = 0;
	for (i = 0; i < 4; i++) {
		c = peek(r);
		if (c >= '0' && c <= '9')
			c -= '0';
		else if (c >= 'a' && c <= 'f')
			c -= 'a' - 10;
		else if (c >= 'A' && c <= 'F')
			c -= 'A' - 10;
		else
			return fail(r, "bad \\u escape");
		*v = *v << 4 | (uint32_t)c;
		r->pos++;
	}
	return 0;
}

/* \uXXXX, and its low surrogate after it when it is a high one. */
static int unicode_escape(struct reader *r, struct buf *b)
{
	uint32_t c, low;

	if (hex4(r, &c) < 0)
		return -1;
	if (c >= 0xdc00 && c <= 0xdfff)
		return fail(r, "a low surrogate alone");
	if (c >= 0xd800 && c <= 0xdbff) {
		if (peek(r) != '\\' || r->pos + 1 >= r->len ||
		    r->s[r->pos + 1] != 'u')
			return fail(r, "a high surrogate alone");
		r->pos += 2;
		if (hex4(r, &low) < 0)
			return -1;
		if (low < 0xdc00 || low > 0xdfff)
			return fail(r, "a high surrogate alone");
		c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
	}
	put_code_point(b, c);
	return 0;
}

static int escape(struct reader *r, struct buf *b)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *e;
	int c = peek(r);

	r->pos++;
	if (c == 'u')
		return unicode_escape(r, b);
	e = c > 0 ? strchr(from, c) : NULL;
	if (!e)
		return fail(r, "bad escape");
	put(b, &to[e - from], 1);
	return 0;
}

static int string(struct reader *r, char **text, size_t *len)
{
	struct buf b = { 0 };
	size_t n;
	int c;

	put(&b, "", 0);
	r->pos++;	/* the quote */
	for (;;) {
		c = peek(r);
		if (c < 0) {
			free(b.p);
			return fail(r, "unterminated string");
		}
		if (c == '"')
			break;
		if (c < 0x20) {
			free(b.p);
			return fail(r, "a control character in a string");
		}
		if (c == '\\') {
			r->pos++;
			if (escape(r, &b) < 0) {
				free(b.p);
				return -1;
			}
			continue;
		}
		n = utf8_len(r->s + r->pos, r->len - r->pos);
		if (!n) {
			free(b.p);
			return fail(r, "ill-formed UTF-8 in a string");
		}
		put(&b, r->s + r->pos, n);
		r->pos += n;
	}
	r->pos++;
	*text = b.p;
	*len = b.n;
	return 0;
}

static size_t digits(struct reader *r)
{
	size_t start = r->pos;

	while (peek(r) >= '0' && peek(r) <= '9')
		r->pos++;
	return r->pos - start;
}

/* -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static int number(struct reader *r, struct jr_value *v)
{
	size_t start = r->pos;
	struct buf b = { 0 };

	if (peek(r) == '-')
		r->pos++;
	if (peek(r) == '0')
		r->pos++;
	else if (!digits(r))
		return fail(r, "bad number");
	if (peek(r) == '.') {
		r->pos++;
		if (!digits(r))
			return fail(r, "no digits after the point");
	}
	if (peek(r) == 'e' || peek(r) == 'E') {
		r->pos++;
		if (peek(r) == '+' || peek(r) == '-')
			r->pos++;
		if (!digits(r))
			return fail(r, "no digits in the exponent");
	}
	put(&b, r->s + start, r->pos - start);
	v->type = JR_NUMBER;
	v->text = b.p;
	v->len = b.n;
	return 0;
}

static int value(struct reader *r, struct jr_value *v, int depth);

static int literal(struct reader *r, const char *word)
{
	size_t n = strlen(word);

	if (r->len - r->pos < n || memcmp(r->s + r->pos, word, n) != 0)
		return fail(r, "unexpected character");
	r->pos += n;
	return 0;
}

static void append(struct jr_value *v, const struct jr_value *item,
		   char *key, size_t key_len)
{
	v->items = realloc(v->items, (v->n + 1) * sizeof(*v->items));
	if (!v->items)
		abort();
	v->items[v->n] = *item;
	if (v->type == JR_OBJECT) {
		v->keys = realloc(v->keys, (v->n + 1) * sizeof(*v->keys));
		v->key_lens = realloc(v->key_lens,
				      (v->n + 1) * sizeof(*v->key_lens));
		if (!v->keys || !v->key_lens)
			abort();
		v->keys[v->n] = key;
		v->key_lens[v->n] = key_len;
	}
	v->n++;
}

static bool has_key(const struct jr_value *v, const char *key, size_t len)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		if (v->key_lens[i] == len && memcmp(v->keys[i], key, len) == 0)
			return true;
	return false;
}

/* An object's "key": value, or an array's value. */
static int member(struct reader *r, struct jr_value *v, int depth)
{
	struct jr_value item = { 0 };
	char *key = NULL;
	size_t key_len = 0;

	blanks(r);
	if (v->type == JR_OBJECT) {
		if (peek(r) != '"')
			return fail(r, "expected a key");
		if (string(r, &key, &key_len) < 0)
			return -1;
		if (has_key(v, key, key_len)) {
			free(key);
			return fail(r, "a key twice in an object");
		}
		blanks(r);
		if (peek(r) != ':') {
			free(key);
			return fail(r, "expected ':'");
		}
		r->pos++;
	}
	if (value(r, &item, depth + 1) < 0) {
		jr_free(&item);
		free(key);
		return -1;
	}
	append(v, &item, key, key_len);
	return 0;
}

static int container(struct reader *r, struct jr_value *v, int depth)
{
	int close = peek(r) == '{' ? '}' : ']';

	v->type = close == '}' ? JR_OBJECT : JR_ARRAY;
	r->pos++;
	blanks(r);
	if (peek(r) == close) {
		r->pos++;
		return 0;
	}
	for (;;) {
		if (member(r, v, depth) < 0)
			return -1;
		blanks(r);
		if (peek(r) == close) {
			r->pos++;
			return 0;
		}
		if (peek(r) != ',')
			return fail(r, "expected ',' or a closing bracket");
		r->pos++;
	}
}

static int value(struct reader *r, struct jr_value *v, int depth)
{
	int c;

	memset(v, 0, sizeof(*v));
	if (depth > MAX_DEPTH)
		return fail(r, "nested too deep");
	blanks(r);
	c = peek(r);
	if (c == '{' || c == '[')
		return container(r, v, depth);
	if (c == '"') {
		v->type = JR_STRING;
		return string(r, &v->text, &v->len);
	}
	if (c == '-' || (c >= '0' && c <= '9'))
		return number(r, v);
	if (c == 't' || c == 'f') {
		v->type = JR_BOOL;
		v->boolean = c == 't';
		return literal(r, c == 't' ? "true" : "false");
	}
	v->type = JR_NULL;
	return literal(r, "null");
}

int jr_parse(const char *s, size_t len, struct jr_value *v, const char **err,
	     size_t *at)
{
	struct reader r = { (const unsigned char *)s, len, 0, NULL };
	int ret = value(&r, v, 0);

	blanks(&r);
	if (ret == 0 && r.pos != len)
		ret = fail(&r, "more after the value");
	if (ret < 0)
		jr_free(v);
	*err = r.err;
	*at = r.pos;
	return ret;
}

void jr_free(struct jr_value *v)
{
	size_t i;

	for (i = 0; i < v->n; i++) {
		jr_free(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->key_lens);
	free(v->text);
	memset(v, 0, sizeof(*v));
}

const struct jr_value *jr_get(const struct jr_value *v, const char *key)
{
	size_t i;

	if (!v || v->type != JR_OBJECT)
		return NULL;
	for (i = 0; i < v->n; i++)
		if (strcmp(v->keys[i], key) == 0 &&
		    v->key_lens[i] == strlen(key))
			return &v->items[i];
	return NULL;
}

const char *jr_string(const struct jr_value *v)
{
	return v && v->type == JR_STRING ? v->text : NULL;
}
