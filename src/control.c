/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --control: the channel a harness drives counting through. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "caps.h"
#include "control.h"
#include "error.h"

/* A descriptor number, whole: 0 or -EINVAL. */
static int fd_number(const char *s, size_t n, int *fd)
{
	char buf[16], *end;
	long v;

	if (n == 0 || n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	v = strtol(buf, &end, 10);
	/* Digits alone: strtol would take a sign and white space first. */
	if (errno || *end || end == buf || v < 0 || v > INT_MAX ||
	    !isdigit((unsigned char)buf[0]))
		return -EINVAL;
	*fd = (int)v;
	return 0;
}

static int parse_fds(struct control *c, const char *s, char *err,
		     size_t len)
{
	const char *comma = strchr(s, ',');
	size_t n = comma ? (size_t)(comma - s) : strlen(s);

	if (fd_number(s, n, &c->ctl_fd) < 0 ||
	    (comma && fd_number(comma + 1, strlen(comma + 1), &c->ack_fd) < 0))
		return error_say(err, len,
			      "bad --control '%s': fd: takes descriptor numbers, as in fd:10 or fd:10,11",
			      c->spec);
	return 0;
}

static int parse_fifos(struct control *c, const char *s, char *err,
		       size_t len)
{
	const char *comma = strchr(s, ',');
	size_t n = comma ? (size_t)(comma - s) : strlen(s);

	if (n == 0 || (comma && !comma[1]))
		return error_say(err, len,
			      "bad --control '%s': fifo: takes paths, as in fifo:ctl.fifo or fifo:ctl.fifo,ack.fifo",
			      c->spec);
	if (n >= sizeof(c->ctl_path) ||
	    (comma && strlen(comma + 1) >= sizeof(c->ack_path)))
		return error_say(err, len,
			      "bad --control: a fifo path is longer than %zu bytes",
			      sizeof(c->ctl_path) - 1);
	memcpy(c->ctl_path, s, n);
	c->ctl_path[n] = '\0';
	if (comma)
		snprintf(c->ack_path, sizeof(c->ack_path), "%s", comma + 1);
	return 0;
}

int control_parse(struct control *c, const char *spec, char *err,
		  size_t len)
{
	memset(c, 0, sizeof(*c));
	c->ctl_fd = c->ack_fd = -1;
	c->spec = spec;
	if (strncmp(spec, "fd:", 3) == 0)
		return parse_fds(c, spec + 3, err, len);
	if (strncmp(spec, "fifo:", 5) == 0) {
		c->fifo = true;
		return parse_fifos(c, spec + 5, err, len);
	}
	return error_say(err, len,
		      "bad --control '%s': give fd:CTL[,ACK] or fifo:CTL[,ACK]",
		      spec);
}

/*
 * Whether CTL's descriptor is read without end yet says nothing: a
 * device such as /dev/zero, which would keep pstat reading at full
 * speed while the command runs. A pipe, a FIFO, a socket, a terminal,
 * a file and /dev/null (end of file at once) are commands or an end.
 */
static bool endless(int fd)
{
	struct stat st;

	if (fstat(fd, &st) < 0 || isatty(fd))
		return false;
	if (S_ISCHR(st.st_mode))
		return st.st_rdev != makedev(1, 3);
	return S_ISBLK(st.st_mode) || S_ISDIR(st.st_mode);
}

/* One of fd:'s descriptors: it must be open, for reading or writing. */
static int check_fd(const struct control *c, int fd, int want, char *err,
		    size_t len)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0)
		return error_say(err, len,
			      "--control %s: descriptor %d is not open; open it for pstat (as in 10<>ctl.fifo)",
			      c->spec, fd);
	if ((fl & O_ACCMODE) != O_RDWR && (fl & O_ACCMODE) != want)
		return error_say(err, len,
			      "--control %s: descriptor %d is not open for %s",
			      c->spec, fd, want == O_RDONLY ? "reading" : "writing");
	if (want == O_RDONLY && endless(fd))
		return error_say(err, len,
			      "--control %s: descriptor %d is a device or a directory, not a channel of commands; give a pipe or a FIFO (as in 10<>ctl.fifo)",
			      c->spec, fd);
	return 0;
}

/*
 * O_RDWR: no end of file when a writer goes, nor a wait for one. With
 * the user's rights (caps.h), whatever pstat's own; and a FIFO alone:
 * acks written over a file, or a device read without end, are not a
 * channel.
 */
static int open_fifo(const struct control *c, const char *path, int *fd,
		     char *err, size_t len)
{
	struct stat st;
	int e;

	*fd = caps_open_user(path, O_RDWR | O_NONBLOCK | O_CLOEXEC, 0);
	if (*fd >= 0 && fstat(*fd, &st) == 0 && S_ISFIFO(st.st_mode))
		return 0;
	if (*fd >= 0) {
		close(*fd);
		*fd = -1;
		return error_say(err, len,
			      "--control %s: '%s' is not a FIFO; make one with mkfifo",
			      c->spec, path);
	}
	e = errno;
	error_say(err, len, "--control: cannot open '%s': %s%s", path,
	       strerror(e), e == ENOENT ? " (make it with mkfifo)" : "");
	return -e;
}

int control_open(struct control *c, char *err, size_t len)
{
	int ret;

	if (!c->fifo) {
		ret = check_fd(c, c->ctl_fd, O_RDONLY, err, len);
		if (ret == 0 && c->ack_fd >= 0)
			ret = check_fd(c, c->ack_fd, O_WRONLY, err, len);
		return ret;
	}
	c->own_fds = true;
	ret = open_fifo(c, c->ctl_path, &c->ctl_fd, err, len);
	if (ret == 0 && c->ack_path[0])
		ret = open_fifo(c, c->ack_path, &c->ack_fd, err, len);
	if (ret < 0)
		control_close(c);
	return ret;
}

/*
 * The command's end of the commands' pipe, opened for reading and
 * writing through /proc: while the command holds it, its writes never
 * meet a pipe without a reader (SIGPIPE) should pstat be gone; then the
 * acks' pipe says so (end of file). The write end itself where /proc
 * cannot reopen it.
 */
static int reopened(int wr)
{
	char path[40];
	int fd;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", wr);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return wr;
	close(wr);
	return fd;
}

int control_channel(struct control *c, int child[2])
{
	int ctl[2], ack[2] = { -1, -1 }, e;

	memset(c, 0, sizeof(*c));
	c->spec = "--regions";
	c->ctl_fd = c->ack_fd = child[0] = child[1] = -1;
	if (pipe2(ctl, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(ack, O_CLOEXEC) < 0 ||
	    fcntl(ctl[0], F_SETFL, O_NONBLOCK) < 0 ||
	    fcntl(ack[1], F_SETFL, O_NONBLOCK) < 0) {
		e = errno;
		close(ctl[0]);
		close(ctl[1]);
		if (ack[0] >= 0) {
			close(ack[0]);
			close(ack[1]);
		}
		return -e;
	}
	c->ctl_fd = ctl[0];
	c->ack_fd = ack[1];
	c->own_fds = true;
	child[0] = reopened(ctl[1]);
	child[1] = ack[0];
	return 0;
}

void control_close(struct control *c)
{
	if (c->own_fds) {
		if (c->ctl_fd >= 0)
			close(c->ctl_fd);
		if (c->ack_fd >= 0 && c->ack_fd != c->ctl_fd)
			close(c->ack_fd);
	}
	c->ctl_fd = c->ack_fd = -1;
}

void control_feed(struct control *c, const char *bytes, size_t n)
{
	size_t room = sizeof(c->line) - c->len;

	if (n > room)
		n = room;
	memcpy(c->line + c->len, bytes, n);
	c->len += n;
}

int control_read(struct control *c)
{
	char buf[CONTROL_LINE_MAX];
	ssize_t n;

	/* Full, and control_next found no line in it: drop it. */
	if (c->len == sizeof(c->line)) {
		c->len = 0;
		c->overlong = true;
	}
	do {
		n = read(c->ctl_fd, buf, sizeof(c->line) - c->len);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == EAGAIN ? 0 : -errno;
	if (n == 0)
		return 1;
	control_feed(c, buf, (size_t)n);
	return 0;
}

/* "enable" or "enable NAME". */
static bool is_cmd(struct control *c, const char *line, const char *cmd)
{
	size_t n = strlen(cmd);

	if (strncmp(line, cmd, n) != 0 || (line[n] && line[n] != ' '))
		return false;
	snprintf(c->arg, sizeof(c->arg), "%s", line[n] ? line + n + 1 : "");
	return true;
}

static enum control_cmd command_of(struct control *c, const char *line)
{
	c->arg[0] = '\0';
	if (is_cmd(c, line, "enable"))
		return CONTROL_ENABLE;
	if (is_cmd(c, line, "disable"))
		return CONTROL_DISABLE;
	if (strcmp(line, "ping") == 0)
		return CONTROL_PING;
	if (is_cmd(c, line, "begin") && c->arg[0])
		return CONTROL_BEGIN;
	if (is_cmd(c, line, "end") && c->arg[0])
		return CONTROL_END;
	return CONTROL_UNKNOWN;
}

enum control_cmd control_next(struct control *c)
{
	char line[CONTROL_LINE_MAX] = "";
	size_t end;
	bool dropped;

	for (;;) {
		for (end = 0; end < c->len && c->line[end] != '\n' &&
		     c->line[end] != '\0'; end++)
			;
		if (end == c->len)
			return CONTROL_NONE;
		memcpy(line, c->line, end);
		line[end] = '\0';
		c->len -= end + 1;
		memmove(c->line, c->line + end + 1, c->len);
		/* The end of a line too long to keep: no command. */
		dropped = c->overlong;
		c->overlong = false;
		if (!dropped)
			return command_of(c, line);
	}
}

/*
 * An ack that cannot be written at once is dropped (-EAGAIN), as is one
 * nobody can read (-EPIPE): a harness that stops reading its acks must
 * not stop pstat, nor its signals. fd:'s descriptor may be blocking,
 * and its flags are the harness's too: poll first (4 bytes fit
 * wherever poll sees room).
 */
int control_ack(struct control *c)
{
	struct pollfd p = { .fd = c->ack_fd, .events = POLLOUT };
	ssize_t n;

	if (c->ack_fd < 0)
		return 0;
	if (poll(&p, 1, 0) != 1 || !(p.revents & POLLOUT))
		return -EAGAIN;
	/* No reader: no write, and no SIGPIPE. */
	if (p.revents & POLLERR)
		return -EPIPE;
	do {
		n = write(c->ack_fd, "ack\n", 4);
	} while (n < 0 && errno == EINTR);
	return n == 4 ? 0 : n < 0 ? -errno : -EIO;
}
