/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Why a module refused its input: the words, into the caller's buffer. */
#ifndef PSTAT_ERROR_H
#define PSTAT_ERROR_H

#include <stddef.h>

/*
 * fmt's words into err, len bytes with the NUL, cut to fit: -EINVAL,
 * what a module returns for input it refuses (main says the words).
 */
int error_say(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
