/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pstat top's screen: the table drawn with ncurses, keys, resizes, and the terminal given back. */
#include "config.h"

#include <curses.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "top_impl.h"

/* What ends pstat, and a resize: caught while the screen is open. */
static const int caught[] = { SIGINT, SIGTERM, SIGHUP, SIGWINCH };
#define N_CAUGHT (sizeof(caught) / sizeof(caught[0]))

static volatile sig_atomic_t got_signal, got_winch;
static SCREEN *screen;
static struct sigaction before[N_CAUGHT];
static sigset_t mask_before;

static void on_signal(int sig)
{
	if (sig == SIGWINCH)
		got_winch = 1;
	else
		got_signal = sig;
}

void top_screen_close(void)
{
	size_t i;

	if (!screen)
		return;
	endwin();
	delscreen(screen);
	screen = NULL;
	for (i = 0; i < N_CAUGHT; i++)
		sigaction(caught[i], &before[i], NULL);
	sigprocmask(SIG_SETMASK, &mask_before, NULL);
}

/* However pstat exits (an error said on the way out, exit(3)). */
static void at_exit(void)
{
	top_screen_close();
}

int top_screen_open(void)
{
	static bool registered;
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t block;
	size_t i;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return -ENOTTY;
	if (!registered && atexit(at_exit) == 0)
		registered = true;
	/* Taken only in top_screen_wait's ppoll: never mid-draw. */
	sigemptyset(&block);
	for (i = 0; i < N_CAUGHT; i++)
		sigaddset(&block, caught[i]);
	sigprocmask(SIG_BLOCK, &block, &mask_before);
	for (i = 0; i < N_CAUGHT; i++)
		sigaction(caught[i], &sa, &before[i]);
	got_signal = got_winch = 0;
	screen = newterm(NULL, stdout, stdin);
	if (!screen) {
		for (i = 0; i < N_CAUGHT; i++)
			sigaction(caught[i], &before[i], NULL);
		sigprocmask(SIG_SETMASK, &mask_before, NULL);
		return -ENOTTY;
	}
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	return 0;
}

/* The terminal's size now, for curses. */
static void resize(void)
{
	struct winsize ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row &&
	    ws.ws_col)
		resizeterm(ws.ws_row, ws.ws_col);
}

enum top_screen_event top_screen_wait(double seconds, int *key, int *sig)
{
	struct pollfd in = { .fd = STDIN_FILENO, .events = POLLIN };
	struct timespec ts = { 0 };
	sigset_t open_mask = mask_before;
	size_t i;
	int ret;

	for (i = 0; i < N_CAUGHT; i++)
		sigdelset(&open_mask, caught[i]);
	if (seconds > 0) {
		ts.tv_sec = (time_t)seconds;
		ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
	}
	/* A key typed ahead first: curses may hold it already. */
	*key = getch();
	if (*key != ERR)
		return TOP_SCREEN_KEY;
	ret = ppoll(&in, 1, &ts, &open_mask);
	if (got_signal) {
		*sig = got_signal;
		return TOP_SCREEN_SIGNAL;
	}
	if (got_winch) {
		got_winch = 0;
		resize();
		return TOP_SCREEN_RESIZE;
	}
	if (ret == 0)
		return TOP_SCREEN_TIMEOUT;
	/* The terminal closed: as its SIGHUP would. */
	if (ret > 0 && (in.revents & (POLLHUP | POLLERR | POLLNVAL))) {
		*sig = SIGHUP;
		return TOP_SCREEN_SIGNAL;
	}
	*key = ret > 0 ? getch() : ERR;
	return *key != ERR ? TOP_SCREEN_KEY : TOP_SCREEN_AGAIN;
}

/* The name of the column the rows are sorted by. */
static const char *sort_name(const struct top *t)
{
	switch (t->sort) {
	case TOP_SORT_CPU:
		return "%CPU";
	case TOP_SORT_PID:
		return "PID";
	case TOP_SORT_TID:
		return "TID";
	case TOP_SORT_COMM:
		return "COMM";
	default:
		return top_event_name(t, (size_t)t->sort);
	}
}

static const char *const help_lines[] = {
	"pstat top: keys",
	"",
	"  q        quit",
	"  h or ?   this help (again: the table)",
	"  < >      sort by the column before or after",
	"  space    pause the table (counting goes on)",
	"",
	"Rates are per second over the interval; %CPU is task-clock's.",
	"New processes are found by a scan of /proc each interval.",
};

/* The lines of text at y, each cut to the width; the next line. */
static int put_lines(int y, const char *text, size_t len)
{
	const char *p = text, *end = text + len, *nl;

	while (p < end && y < LINES - 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		mvaddnstr(y++, 0, p, (int)(nl - p) < COLS ? (int)(nl - p)
							  : COLS);
		p = nl + 1;
	}
	return y;
}

void top_screen_draw(const struct top *t, const struct top_screen_view *v)
{
	char *text = NULL, status[256];
	size_t len = 0, i;
	FILE *f;

	erase();
	if (v->help) {
		for (i = 0; i < sizeof(help_lines) / sizeof(help_lines[0]) &&
			    (int)i < LINES - 1; i++)
			mvaddnstr((int)i, 0, help_lines[i], COLS);
	} else if (t->n_interval == 0) {
		mvaddnstr(0, 0, "pstat top: counting the first interval...",
			  COLS);
	} else {
		f = open_memstream(&text, &len);
		if (f) {
			top_print_table(f, t);
			(void)fclose(f);
		}
		if (text)
			put_lines(0, text, len);
		free(text);
	}
	snprintf(status, sizeof(status),
		 "q quit  h help  < > sort: %s  space pause%s", sort_name(t),
		 v->paused ? "  [paused]" : "");
	attron(A_REVERSE);
	mvaddnstr(LINES - 1, 0, status, COLS);
	attroff(A_REVERSE);
	refresh();
}
