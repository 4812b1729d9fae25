/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The unit tests' one fake kernel (see fake_kernel.h). */
#include "config.h"

#include <errno.h>
#include <string.h>

#include <check.h>

#include "fake_kernel.h"
#include "sys.h"

struct fake_kernel fake;

static char cpu_labels[][40] = { "CPU0", "CPU1" };
static int cpu_ids[] = { 0, 1 };
static int one_cpu[] = { 1, 1 };
static size_t cpu_of_target[] = { 0, 1 };
const struct aggr fake_per_cpu = {
	.kind = AGGR_CPU,
	.n = 2,
	.of_target = cpu_of_target,
	.label = cpu_labels,
	.id = cpu_ids,
	.n_cpus = one_cpu,
};

static size_t slot(int fd)
{
	ck_assert_int_ge(fd, FAKE_FIRST_FD);
	ck_assert_int_lt(fd, fake.next_fd);
	return (size_t)(fd - FAKE_FIRST_FD);
}

/*
 * With fake.eintr, whether to interrupt this call: each is, once, and
 * its retry is answered. Nothing is logged of an interrupted call.
 */
static bool interrupt(void)
{
	if (!fake.eintr)
		return false;
	fake.retrying = !fake.retrying;
	if (fake.retrying)
		fake.n_eintr++;
	return fake.retrying;
}

static int fake_open(struct perf_event_attr *attr, pid_t pid, int cpu,
		     int group_fd, unsigned long flags)
{
	size_t call;
	struct fake_open *o;
	int err;

	if (interrupt())
		return -EINTR;
	call = fake.n_opens++;
	ck_assert_uint_lt(call, FAKE_MAX_CALLS);
	err = attr->exclude_kernel ? fake.user_err : fake.kernel_err;
	if (pid == -1 && fake.cpu_err)
		err = fake.cpu_err;
	if (fake.open_errno[call])
		err = fake.open_errno[call];
	o = &fake.opens[call];
	*o = (struct fake_open){
		.attr = *attr,
		.pid = pid,
		.cpu = cpu,
		.group_fd = group_fd,
		.flags = flags,
	};
	if (!err)
		ck_assert_int_lt(fake.next_fd, FAKE_FIRST_FD + FAKE_MAX_CALLS);
	o->ret = err ? -err : fake.next_fd++;
	return o->ret;
}

uint64_t fake_id(int fd)
{
	return 1000 + (uint64_t)fd;
}

static int fake_ioctl(int fd, unsigned long request, void *arg)
{
	size_t s = slot(fd);

	if (interrupt())
		return -EINTR;
	if (request == PERF_EVENT_IOC_ENABLE ||
	    request == PERF_EVENT_IOC_DISABLE) {
		fake.ioctls[s]++;
		return 0;
	}
	if (request == PERF_EVENT_IOC_SET_OUTPUT) {
		fake.output[s] = (int)(intptr_t)arg;
		return 0;
	}
	if (request != PERF_EVENT_IOC_ID)
		return -ENOTTY;
	if (fake.id_errno[s])
		return -fake.id_errno[s];
	*(uint64_t *)arg = fake_id(fd);
	return 0;
}

/* The open call that returned fd. */
static const struct fake_open *opened(int fd)
{
	size_t call;

	for (call = 0; call < fake.n_opens; call++)
		if (fake.opens[call].ret == fd)
			return &fake.opens[call];
	ck_abort_msg("fd %d was never opened", fd);
	return NULL;
}

/* A leader's group read from the counters: it, then its members. */
static void group_reply(int fd, struct fake_reply *r)
{
	const struct fake_counter *c = &fake.counters[slot(fd)];
	size_t call, nr = 0;

	ck_assert_msg(opened(fd)->group_fd == -1,
		      "read of fd %d, which is no leader", fd);
	r->buf[1] = c->enabled;
	r->buf[2] = c->running;
	for (call = 0; call < fake.n_opens; call++) {
		const struct fake_open *o = &fake.opens[call];

		if (o->ret < 0 || (o->ret != fd && o->group_fd != fd) ||
		    fake.closes[slot(o->ret)])
			continue;
		ck_assert_uint_lt(4 + 2 * nr, sizeof(r->buf) / sizeof(r->buf[0]));
		r->buf[3 + 2 * nr] = fake.counters[slot(o->ret)].value;
		r->buf[4 + 2 * nr] = fake_id(o->ret);
		nr++;
	}
	r->buf[0] = nr;
	r->len = (3 + 2 * nr) * sizeof(uint64_t);
}

static ssize_t fake_read(int fd, void *buf, size_t len)
{
	struct fake_reply built, *r = &fake.replies[slot(fd)];

	if (interrupt())
		return -EINTR;
	ck_assert_uint_lt(fake.n_reads, FAKE_MAX_CALLS);
	fake.reads[fake.n_reads++] = (struct fake_read){ .fd = fd, .len = len };
	if (r->err)
		return -r->err;
	if (r->eof)
		return 0;
	if (!r->len) {
		group_reply(fd, &built);
		r = &built;
	}
	if (r->len > len)
		return -ENOSPC;	/* as the kernel says it */
	memcpy(buf, r->buf, r->len);
	return (ssize_t)r->len;
}

static int fake_close(int fd)
{
	fake.closes[slot(fd)]++;
	if (fake.n_closes < FAKE_MAX_CALLS)
		fake.closed[fake.n_closes] = fd;
	fake.n_closes++;
	return 0;
}

static int fake_paranoid(int *level)
{
	fake.n_paranoid++;
	if (fake.paranoid == FAKE_NO_PARANOID)
		return -ENOENT;
	*level = fake.paranoid;
	return 0;
}

/* The ring buffer: fake.ring, of the length asked for, once. */
static int fake_mmap(int fd, size_t len, void **addr)
{
	if (fake.mmap_err)
		return -fake.mmap_err;
	ck_assert_uint_le(len, sizeof(fake.ring));
	ck_assert_int_eq(fake.mmap_len, 0);
	fake.mmap_fd = fd;
	fake.mmap_len = len;
	*addr = fake.ring;
	return 0;
}

static int fake_munmap(void *addr, size_t len)
{
	ck_assert_ptr_eq(addr, fake.ring);
	ck_assert_uint_eq(len, fake.mmap_len);
	fake.mmap_len = 0;
	fake.munmaps++;
	return 0;
}

static const struct sys_ops fake_ops = {
	.perf_event_open = fake_open,
	.ioctl = fake_ioctl,
	.read = fake_read,
	.close = fake_close,
	.paranoid = fake_paranoid,
	.mmap = fake_mmap,
	.munmap = fake_munmap,
};

void fake_setup(void)
{
	memset(&fake, 0, sizeof(fake));
	fake.next_fd = FAKE_FIRST_FD;
	fake.paranoid = 2;
	sys_set_ops(&fake_ops);
}

void fake_teardown(void)
{
	sys_set_ops(NULL);
}

void fake_count(int fd, uint64_t value, uint64_t enabled, uint64_t running)
{
	fake.counters[slot(fd)] = (struct fake_counter){ value, enabled, running };
}

void fake_reply(int fd, uint64_t enabled, uint64_t running, size_t nr,
		const uint64_t *pairs)
{
	struct fake_reply *r = &fake.replies[slot(fd)];
	size_t i;

	ck_assert_uint_le(3 + 2 * nr, sizeof(r->buf) / sizeof(r->buf[0]));
	r->buf[0] = nr;
	r->buf[1] = enabled;
	r->buf[2] = running;
	for (i = 0; i < nr; i++) {
		r->buf[3 + 2 * i] = pairs[2 * i];
		r->buf[4 + 2 * i] = fake_id((int)pairs[2 * i + 1]);
	}
	r->len = (3 + 2 * nr) * sizeof(uint64_t);
}
