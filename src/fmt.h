/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Numbers to text without printf: the interval loop's and rows' formatting. */
#ifndef PSTAT_FMT_H
#define PSTAT_FMT_H

#include <stddef.h>
#include <stdint.h>

/* snprintf(buf, len, "%s", s), byte for byte. */
void fmt_str(char *buf, size_t len, const char *s);

/* snprintf(buf, len, "%" PRIu64, v), byte for byte. */
void fmt_u64(char *buf, size_t len, uint64_t v);

/*
 * snprintf(buf, len, "%.*f", prec, v), byte for byte: by integers where
 * the rounding is certain, by snprintf where it is not (a value near a
 * tie, negative, too large, not finite, or prec outside 0..9).
 */
void fmt_fixed(char *buf, size_t len, int prec, double v);

#endif
