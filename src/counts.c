/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Counter values: group read decoding and multiplex scaling (pure). */
#include "config.h"

#include <errno.h>

#include "counts.h"

void counts_scale(const struct counts_values *v, struct counts_result *r)
{
	unsigned __int128 est;

	r->value = v->value;
	r->running_pct = 100.0;
	r->state = COUNTS_COUNTED;
	if (v->enabled == 0)
		return;	/* the task never ran while enabled: an exact 0 */
	if (v->running == 0) {
		r->state = COUNTS_NOT_COUNTED;
		r->value = 0;
		r->running_pct = 0.0;
		return;
	}
	if (v->running >= v->enabled)
		return;
	/* value * enabled overflows 64 bits after a few seconds of a busy
	 * counter; 128 bits cannot. */
	est = (unsigned __int128)v->value * v->enabled / v->running;
	r->value = est > UINT64_MAX ? UINT64_MAX : (uint64_t)est;
	r->running_pct = 100.0 * (double)v->running / (double)v->enabled;
	r->state = COUNTS_SCALED;
}

size_t counts_group_size(size_t nr)
{
	return (3 + 2 * nr) * sizeof(uint64_t);
}

int counts_group_decode(const uint64_t *buf, size_t len,
			struct counts_group *g)
{
	if (len < counts_group_size(0))
		return -EIO;
	g->nr = buf[0];
	if (g->nr > (len / sizeof(uint64_t) - 3) / 2 ||
	    counts_group_size(g->nr) != len)
		return -EIO;
	g->enabled = buf[1];
	g->running = buf[2];
	g->entries = buf + 3;
	return 0;
}
