/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inside pstat top: its rows, for top.c, which counts, and top_print.c. */
#ifndef PSTAT_TOP_IMPL_H
#define PSTAT_TOP_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

struct evlist;
struct options;

enum top_state {
	TOP_LIVE,		/* counted */
	TOP_ENDED,		/* gone since the last scan: its last counts */
	TOP_DENIED,		/* may not be counted: reason says why */
};

/* The fixed columns --sort takes; an event's is its index, 0 up. */
enum top_column {
	TOP_SORT_CPU = -1,
	TOP_SORT_PID = -2,
	TOP_SORT_TID = -3,
	TOP_SORT_COMM = -4,
};

/* One process (or thread, --per-thread) and its counters. */
struct top_row {
	int pid, tid;		/* tid == pid for a process */
	char comm[16];
	enum top_state state;
	char reason[512];	/* TOP_DENIED: in words */
	struct evlist *el;	/* its counters; NULL: none open */
	size_t fds;		/* the descriptors el holds */
	bool seen;		/* found by the last scan */
	unsigned long long ticks;	/* utime + stime, /proc's */
	unsigned long long ticks_delta;	/* since the scan before */
	uint64_t *total;	/* each event's count at the last read */
	uint64_t *delta;	/* and over the last interval */
	bool *counted;		/* each event opened: not <not supported> */
	double cpu_pct;		/* from task-clock's delta; NaN without */
};

/* The run: what is counted, and each interval's rows. */
struct top {
	const struct options *o;
	struct evlist *events;	/* as parsed: copied for each row */
	size_t n_events;
	long clock;		/* task-clock's index, or -1 */
	int sort;		/* enum top_column, or an event's index */
	struct top_row **rows;
	size_t n_rows, cap;
	size_t fd_budget;	/* descriptors the counters may hold */
	size_t fds_used;
	size_t n_tasks;		/* found by the last scan */
	size_t n_over;		/* of those, left uncounted: no fds */
	bool said_over;		/* -x: the note of it said on stderr */
	unsigned int n_interval;
	double time_s;		/* since the start, at the last read */
	double interval_s;	/* the last interval's length */
	double start, last;	/* the monotonic clock at the start, and
				 * at the last read */
	FILE *out;
};

/* The text table of an interval, as -b prints it, with no blank line
 * before it: for the screen too. */
void top_print_table(FILE *f, const struct top *t);

/* The table of one interval, in o's format: 0 or -errno of the write. */
int top_print(FILE *f, const struct top *t);

/* The note of the fd budget, or "" when every task fits. */
void top_print_budget_note(const struct top *t, char *buf, size_t len);

/* The name of event i as shown. */
const char *top_event_name(const struct top *t, size_t i);

/*
 * The screen (top_screen.c, with ncurses): drawn, keys and resizes
 * read, the terminal given back. What it shows beside the table:
 */
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
