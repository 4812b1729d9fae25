/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The records of a perf ring buffer, taken across its end and decoded. */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <linux/perf_event.h>

#include "ringbuf.h"

/* n bytes at offset at (not wrapped) of the data area into dst. */
static void copy_out(const struct ringbuf_view *v, uint64_t at, void *dst,
		     size_t n)
{
	uint64_t off = at & (v->size - 1);
	size_t first = v->size - off < n ? (size_t)(v->size - off) : n;

	memcpy(dst, v->data + off, first);
	memcpy((unsigned char *)dst + first, v->data, n - first);
}

int ringbuf_next(const struct ringbuf_view *v, uint64_t *tail,
		 struct ringbuf_record *rec)
{
	struct perf_event_header h;
	uint64_t left = v->head - *tail;

	if (left == 0)
		return 0;
	if (left < sizeof(h) || left > v->size)
		return -EBADMSG;
	copy_out(v, *tail, &h, sizeof(h));
	if (h.size < sizeof(h) || h.size > left)
		return -EBADMSG;
	rec->size = h.size;
	rec->type = h.size <= sizeof(rec->u.bytes) ? h.type : 0;
	if (rec->type)
		copy_out(v, *tail, rec->u.bytes, h.size);
	*tail += h.size;
	return 1;
}

static uint32_t u32_at(const struct ringbuf_record *rec, size_t off)
{
	uint32_t x;

	memcpy(&x, rec->u.bytes + off, sizeof(x));
	return x;
}

static uint64_t u64_at(const struct ringbuf_record *rec, size_t off)
{
	uint64_t x;

	memcpy(&x, rec->u.bytes + off, sizeof(x));
	return x;
}

/* The body of each record pstat reads, after the 8-byte header. */
static int decode_body(const struct ringbuf_record *rec,
		       struct ringbuf_event *ev, size_t body)
{
	const size_t at = sizeof(struct perf_event_header);

	switch (rec->type) {
	case PERF_RECORD_READ:	/* u32 pid, tid; u64 values[] */
		if (body < 8 || (body - 8) % 8)
			return -EBADMSG;
		ev->kind = RINGBUF_READ;
		ev->values = (const uint64_t *)(const void *)
			     (rec->u.bytes + at + 8);
		ev->n_values = (body - 8) / 8;
		break;
	case PERF_RECORD_COMM:	/* u32 pid, tid; char comm[] */
		if (body < 9 || !memchr(rec->u.bytes + at + 8, '\0', body - 8))
			return -EBADMSG;
		ev->kind = RINGBUF_COMM;
		ev->comm = (const char *)rec->u.bytes + at + 8;
		break;
	case PERF_RECORD_FORK:	/* u32 pid, ppid, tid, ptid; u64 time */
		if (body < 16)
			return -EBADMSG;
		ev->kind = RINGBUF_FORK;
		ev->ptid = u32_at(rec, at + 12);
		ev->pid = u32_at(rec, at);
		ev->tid = u32_at(rec, at + 8);
		return 0;
	case PERF_RECORD_LOST:	/* u64 id, lost */
		if (body < 16)
			return -EBADMSG;
		ev->kind = RINGBUF_LOST;
		ev->lost = u64_at(rec, at + 8);
		return 0;
	default:
		return 0;
	}
	ev->pid = u32_at(rec, at);
	ev->tid = u32_at(rec, at + 4);
	return 0;
}

int ringbuf_decode(const struct ringbuf_record *rec,
		   struct ringbuf_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->kind = RINGBUF_OTHER;
	if (!rec->type || rec->size < sizeof(struct perf_event_header))
		return 0;
	return decode_body(rec, ev,
			   rec->size - sizeof(struct perf_event_header));
}
