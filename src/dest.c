/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where the results go (stderr, -o FILE, --log-fd): a stream that a
 * reader that stops reading never wedges. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include "caps.h"
#include "dest.h"

struct dest {
	int fd;
	bool owned;
	int sig_fd;		/* made at the first wait, or -1 */
	int err;		/* errno of the last write that failed */
	bool gave_up;		/* a signal came while it waited */
	sigset_t stop;
	/* dest_open_replacing's: the file, and the one written (-1 as
	 * fd between a dest_publish and the next write); else NULL. */
	char *path, *tmp;
};

/* The one stream of dest_open_replacing, while it is open. */
static FILE *replacing;
static struct dest *replacing_dest;

/* pstat's stderr (dest_stderr): made once, in static storage. */
static struct dest err_dest;
static char err_buf[BUFSIZ];
static FILE *err_stream;

/*
 * The signal that made a stream give up. It stays pending, so any other
 * stream gives up at once too, should its reader stall as well.
 */
static int stalled;

/*
 * The first pending signal of d->stop that the caller does not ignore,
 * left pending; one it ignores is taken and dropped (pstat's mask
 * blocks them all, so even an ignored one waits to be taken). 0: none.
 */
static int pending(const struct dest *d)
{
	static const struct timespec now;
	struct sigaction sa;
	sigset_t set, one;
	int sig;

	if (sigpending(&set) < 0)
		return 0;
	for (sig = 1; sig < NSIG; sig++) {
		if (!sigismember(&set, sig) || !sigismember(&d->stop, sig))
			continue;
		if (sigaction(sig, NULL, &sa) < 0 || sa.sa_handler != SIG_IGN)
			return sig;
		sigemptyset(&one);
		sigaddset(&one, sig);
		sigtimedwait(&one, NULL, &now);
	}
	return 0;
}

/*
 * Wait until fd takes a write, or a signal of d->stop comes: 0, or
 * -errno (-EINTR for the signal).
 */
static int wait_writable(struct dest *d)
{
	struct pollfd p[2] = {
		{ .fd = d->fd, .events = POLLOUT },
		{ .fd = -1, .events = POLLIN },
	};
	int sig;

	/* Ready at once, as a rule: no signalfd to make. */
	if (poll(p, 1, 0) == 1)
		return 0;
	if (d->sig_fd < 0)
		d->sig_fd = signalfd(-1, &d->stop, SFD_CLOEXEC | SFD_NONBLOCK);
	if (d->sig_fd < 0)
		return -errno;
	p[1].fd = d->sig_fd;
	for (;;) {
		if (poll(p, 2, -1) < 0) {
			if (errno != EINTR)
				return -errno;
			continue;
		}
		if (p[0].revents)
			return 0;
		if (p[1].revents && (sig = pending(d)) != 0) {
			stalled = sig;
			d->gave_up = true;
			return -EINTR;
		}
	}
}

/*
 * FILE.tmp, afresh, with the user's rights; never through a symbolic
 * link, which another user could have left in a shared directory.
 */
static int open_tmp(const struct dest *d)
{
	return caps_open_user(d->tmp, O_WRONLY | O_CREAT | O_TRUNC |
			      O_NOFOLLOW | O_CLOEXEC, 0666);
}

/*
 * At most PIPE_BUF at a time: a pipe that polls writable has room for
 * that much, and takes it without blocking.
 */
static ssize_t dest_write(void *cookie, const char *buf, size_t len)
{
	struct dest *d = cookie;
	size_t done = 0;
	ssize_t n;
	int ret;

	/* The first write after a dest_publish: a new FILE.tmp. */
	if (d->tmp && d->fd < 0) {
		d->fd = open_tmp(d);
		if (d->fd < 0) {
			d->err = errno;
			return -1;
		}
	}
	while (done < len) {
		ret = d->gave_up ? -EINTR : wait_writable(d);
		if (ret < 0) {
			errno = d->err = -ret;
			return done ? (ssize_t)done : -1;
		}
		n = write(d->fd, buf + done,
			  len - done < PIPE_BUF ? len - done : PIPE_BUF);
		if (n < 0 && errno != EINTR && errno != EAGAIN) {
			d->err = errno;
			return done ? (ssize_t)done : -1;
		}
		if (n > 0)
			done += (size_t)n;
	}
	return (ssize_t)done;
}

static int cookie_close(void *cookie)
{
	struct dest *d = cookie;
	int ret = 0;

	if (d->sig_fd >= 0)
		close(d->sig_fd);
	if (d->tmp && d->fd >= 0) {
		/* Written, never published: pstat failed on the way. */
		(void)close(d->fd);
		(void)caps_unlink_user(d->tmp);
	} else if (d->owned && d->fd >= 0) {
		ret = close(d->fd);
	}
	if (d == replacing_dest) {
		replacing = NULL;
		replacing_dest = NULL;
	}
	free(d->path);
	free(d->tmp);
	if (d != &err_dest)
		free(d);
	return ret;
}

static const cookie_io_functions_t io = {
	.write = dest_write,
	.close = cookie_close,
};

FILE *dest_open(int fd, bool owned, const sigset_t *stop)
{
	struct dest *d = malloc(sizeof(*d));
	FILE *f;

	if (!d)
		return NULL;
	*d = (struct dest){ .fd = fd, .owned = owned, .sig_fd = -1,
			    .stop = *stop };
	f = fopencookie(d, "w", io);
	if (!f)
		free(d);
	return f;
}

FILE *dest_open_replacing(const char *path, const sigset_t *stop)
{
	struct dest *d;
	int err;

	if (replacing) {
		errno = EBUSY;
		return NULL;
	}
	d = malloc(sizeof(*d));
	if (!d)
		return NULL;
	*d = (struct dest){ .fd = -1, .owned = true, .sig_fd = -1,
			    .stop = *stop };
	errno = ENOMEM;
	d->path = strdup(path);
	if (!d->path || asprintf(&d->tmp, "%s.tmp", path) < 0) {
		d->tmp = NULL;
		goto fail;
	}
	d->fd = open_tmp(d);
	if (d->fd < 0)
		goto fail;
	replacing = fopencookie(d, "w", io);
	if (!replacing) {
		errno = ENOMEM;
		goto fail;
	}
	replacing_dest = d;
	return replacing;
fail:
	err = errno;
	if (d->fd >= 0) {
		close(d->fd);
		(void)caps_unlink_user(d->tmp);
	}
	free(d->path);
	free(d->tmp);
	free(d);
	errno = err;
	return NULL;
}

int dest_publish(const FILE *f)
{
	struct dest *d = replacing_dest;
	int ret;

	if (!f || f != replacing || d->fd < 0)
		return 0;
	ret = close(d->fd);
	d->fd = -1;
	if (ret < 0 || caps_rename_user(d->tmp, d->path) < 0)
		return -errno;
	return 0;
}

FILE *dest_stderr(const sigset_t *stop)
{
	if (err_stream)
		return err_stream;
	err_dest = (struct dest){ .fd = STDERR_FILENO, .sig_fd = -1,
				  .stop = *stop };
	err_stream = fopencookie(&err_dest, "w", io);
	if (!err_stream)
		err_stream = stderr;
	/*
	 * Fully buffered, in static storage: no heap to grow for it, and
	 * not a write(2) a field, as stdio leaves stderr. diag and each
	 * printed section flush, so nothing comes late or out of order.
	 */
	(void)setvbuf(err_stream, err_buf, _IOFBF, sizeof(err_buf));
	return err_stream;
}

void dest_stderr_close(void)
{
	if (err_stream && err_stream != stderr)
		(void)fclose(err_stream);
	err_stream = NULL;
}

int dest_finish(FILE *f)
{
	if (f != err_stream)
		return fclose(f);
	if (fflush(f) == 0 && !ferror(f))
		return 0;
	if (f != stderr || !errno)
		errno = err_dest.err ? err_dest.err : EIO;
	return EOF;
}

int dest_stalled(void)
{
	return stalled;
}
