/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pstat top's screen (ncurses): drawn, keys and resizes read, the terminal given back. */
#ifndef PSTAT_TOP_SCREEN_H
#define PSTAT_TOP_SCREEN_H

#include <stdbool.h>

struct top;

/* What the screen shows beside the table. */
struct top_screen_view {
	bool help;		/* the keys, over the table */
	bool paused;		/* the table stays as it is */
};

enum top_screen_event {
	TOP_SCREEN_TIMEOUT,	/* the time asked for has passed */
	TOP_SCREEN_KEY,		/* a key, in *key */
	TOP_SCREEN_RESIZE,	/* the terminal's size changed */
	TOP_SCREEN_SIGNAL,	/* SIGINT, SIGTERM or SIGHUP, in *sig */
	TOP_SCREEN_AGAIN,	/* nothing to do */
};

/*
 * Take the terminal: curses' screen on stdout, keys from stdin, the
 * signals that end pstat (and SIGWINCH) caught, and an atexit(3) that
 * gives the terminal back whatever the way out. 0; -ENOTTY when stdin
 * or stdout is no terminal, or curses cannot drive it.
 */
int top_screen_open(void);

/* Wait up to seconds for a key, a resize or a signal. */
enum top_screen_event top_screen_wait(double seconds, int *key, int *sig);

/* The table of t's last interval, fitted to the screen, and a line of
 * the keys. */
void top_screen_draw(const struct top *t, const struct top_screen_view *v);

/* Give the terminal back as it was, and the signals their defaults;
 * harmless when not open. */
void top_screen_close(void);

#endif
