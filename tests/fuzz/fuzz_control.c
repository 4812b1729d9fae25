/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --control: any spec is taken as a second reading of "fd:CTL[,ACK]"
 * and "fifo:CTL[,ACK]" says, or refused with a reason; any bytes sent
 * down the channel, in any chunks, through a real pipe and
 * control_read, give the commands of their lines in order (a line ends
 * at '\n' or NUL; "enable", "enable NAME", "disable", "disable NAME",
 * "ping", anything else unknown) and nothing for a line longer than
 * CONTROL_LINE_MAX - 1 bytes. The input: the spec, NUL, a byte that
 * sizes the chunks, then the bytes sent.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "control.h"
#include "fuzz.h"

/* The spec's descriptor number, digits only: 0 or -1. */
static int fd_of(const char *s, size_t n, int *fd)
{
	long v = 0;
	size_t i;

	if (n == 0 || n > 15)
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
		if (v > INT_MAX)
			return -1;
	}
	*fd = (int)v;
	return 0;
}

static void check_spec(const char *spec)
{
	struct control c;
	const char *s, *comma;
	char err[1024] = "";
	int ret = control_parse(&c, spec, err, sizeof(err)), ctl = -1,
	    ack = -1;
	bool good = false;
	size_t n;

	FUZZ_CHECK(ret == 0 || ret == -EINVAL, "'%s': %d", spec, ret);
	if (strncmp(spec, "fd:", 3) == 0) {
		s = spec + 3;
		comma = strchr(s, ',');
		n = comma ? (size_t)(comma - s) : strlen(s);
		good = fd_of(s, n, &ctl) == 0 &&
		       (!comma || fd_of(comma + 1, strlen(comma + 1), &ack) == 0);
		FUZZ_CHECK(ret < 0 || (!c.fifo && c.ctl_fd == ctl &&
				       c.ack_fd == (comma ? ack : -1)),
			   "'%s': fds %d,%d, not %d,%d", spec, c.ctl_fd,
			   c.ack_fd, ctl, ack);
	} else if (strncmp(spec, "fifo:", 5) == 0) {
		s = spec + 5;
		comma = strchr(s, ',');
		n = comma ? (size_t)(comma - s) : strlen(s);
		good = n > 0 && n < CONTROL_LINE_MAX &&
		       (!comma || (comma[1] &&
				   strlen(comma + 1) < CONTROL_LINE_MAX));
		FUZZ_CHECK(ret < 0 || (c.fifo && strlen(c.ctl_path) == n &&
				       memcmp(c.ctl_path, s, n) == 0 &&
				       strcmp(c.ack_path,
					      comma ? comma + 1 : "") == 0),
			   "'%s': paths '%s' and '%s'", spec, c.ctl_path,
			   c.ack_path);
	}
	FUZZ_CHECK((ret == 0) == good, "'%s': %d: %s", spec, ret, err);
	FUZZ_CHECK(ret == 0 || strncmp(err, "bad --control", 13) == 0,
		   "'%s': the reason: %s", spec, err);
}

/* The commands the lines of bytes[0..n) give, as control_next should. */
struct want {
	enum control_cmd cmd;
	char arg[CONTROL_LINE_MAX];
};

static enum control_cmd command(const char *line, char *arg)
{
	static const struct {
		const char *word;
		enum control_cmd cmd;
	} words[] = {
		{ "enable", CONTROL_ENABLE }, { "disable", CONTROL_DISABLE },
		{ "begin", CONTROL_BEGIN }, { "end", CONTROL_END },
	};
	size_t i, n;

	arg[0] = '\0';
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		n = strlen(words[i].word);
		if (strncmp(line, words[i].word, n) == 0 &&
		    (!line[n] || line[n] == ' ')) {
			strcpy(arg, line[n] ? line + n + 1 : "");
			/* A region needs its name. */
			if (!arg[0] && (words[i].cmd == CONTROL_BEGIN ||
					words[i].cmd == CONTROL_END))
				return CONTROL_UNKNOWN;
			return words[i].cmd;
		}
	}
	return strcmp(line, "ping") == 0 ? CONTROL_PING : CONTROL_UNKNOWN;
}

static size_t oracle(const uint8_t *b, size_t n, struct want *w)
{
	char line[CONTROL_LINE_MAX];
	size_t i, start = 0, k = 0, len;

	for (i = 0; i < n; i++) {
		if (b[i] != '\n' && b[i] != '\0')
			continue;
		len = i - start;
		if (len < CONTROL_LINE_MAX) {
			memcpy(line, b + start, len);
			line[len] = '\0';
			w[k].cmd = command(line, w[k].arg);
			k++;
		}
		start = i + 1;
	}
	return k;
}

/* What the channel gives now, checked against w[*k...]. */
static void drain(struct control *c, const struct want *w, size_t n_w,
		  size_t *k)
{
	enum control_cmd cmd;

	while ((cmd = control_next(c)) != CONTROL_NONE) {
		FUZZ_CHECK(*k < n_w, "command %zu (%d) from no line", *k,
			   (int)cmd);
		FUZZ_CHECK(cmd == w[*k].cmd && strcmp(c->arg, w[*k].arg) == 0,
			   "command %zu: %d '%s', not %d '%s'", *k, (int)cmd,
			   c->arg, (int)w[*k].cmd, w[*k].arg);
		++*k;
	}
}

static void check_stream(const uint8_t *b, size_t n, unsigned int seed)
{
	struct want *w = calloc(n + 1, sizeof(*w));
	struct control c;
	size_t n_w, k = 0, off = 0, chunk;
	int p[2], avail, ret;
	char err[256];

	FUZZ_CHECK(w, "no memory");
	n_w = oracle(b, n, w);
	FUZZ_CHECK(control_parse(&c, "fd:0", err, sizeof(err)) == 0, "%s",
		   err);
	FUZZ_CHECK(pipe2(p, O_NONBLOCK | O_CLOEXEC) == 0, "pipe2");
	c.ctl_fd = p[0];
	while (off < n) {
		/* 1 to 600 bytes a write: lines split anywhere. */
		seed = seed * 1103515245u + 12345u;
		chunk = 1 + (seed >> 16) % 600;
		chunk = chunk < n - off ? chunk : n - off;
		FUZZ_CHECK(write(p[1], b + off, chunk) == (ssize_t)chunk,
			   "write");
		off += chunk;
		while (ioctl(p[0], FIONREAD, &avail) == 0 && avail > 0) {
			ret = control_read(&c);
			FUZZ_CHECK(ret == 0, "control_read: %d", ret);
			drain(&c, w, n_w, &k);
		}
	}
	close(p[1]);
	ret = control_read(&c);
	FUZZ_CHECK(ret == 1, "control_read at the end: %d", ret);
	drain(&c, w, n_w, &k);
	FUZZ_CHECK(k == n_w, "%zu commands, not %zu", k, n_w);
	close(p[0]);
	free(w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	char *spec = fuzz_str(&in);
	unsigned int seed = fuzz_byte(&in);

	check_spec(spec);
	check_stream(in.p, in.n, seed);
	free(spec);
	return 0;
}
