/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of control.c: --control's specs and its command lines. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "control.h"
#include "unit.h"

static const struct spec_row {
	int line;
	const char *spec;
	int ret;
	bool fifo;
	int ctl_fd, ack_fd;
	const char *ctl_path, *ack_path;
} spec_rows[] = {
	{ __LINE__, "fd:10", 0, false, 10, -1, "", "" },
	{ __LINE__, "fd:10,11", 0, false, 10, 11, "", "" },
	{ __LINE__, "fd:0,1", 0, false, 0, 1, "", "" },
	{ __LINE__, "fifo:ctl", 0, true, -1, -1, "ctl", "" },
	{ __LINE__, "fifo:/tmp/c,/tmp/a", 0, true, -1, -1, "/tmp/c", "/tmp/a" },
	{ __LINE__, "fd:", -EINVAL },
	{ __LINE__, "fd:x", -EINVAL },
	{ __LINE__, "fd:1x", -EINVAL },
	{ __LINE__, "fd:-1", -EINVAL },
	{ __LINE__, "fd:+1", -EINVAL },
	{ __LINE__, "fd: 1", -EINVAL },
	{ __LINE__, "fd:1,", -EINVAL },
	{ __LINE__, "fd:,1", -EINVAL },
	{ __LINE__, "fd:1,2,3", -EINVAL },
	{ __LINE__, "fd:99999999999", -EINVAL },
	{ __LINE__, "fifo:", -EINVAL },
	{ __LINE__, "fifo:,a", -EINVAL },
	{ __LINE__, "fifo:c,", -EINVAL },
	{ __LINE__, "", -EINVAL },
	{ __LINE__, "fd", -EINVAL },
	{ __LINE__, "pipe:1", -EINVAL },
	{ __LINE__, "FD:1", -EINVAL },
};

START_TEST(test_spec)
{
	const struct spec_row *t = &spec_rows[_i];
	struct control c;
	char err[256] = "";
	int ret = control_parse(&c, t->spec, err, sizeof(err));

	ck_assert_msg(ret == t->ret, "line %d: '%s': %d", t->line, t->spec,
		      ret);
	if (ret < 0) {
		ck_assert_msg(strstr(err, "--control"), "line %d: '%s'",
			      t->line, err);
		return;
	}
	ck_assert_msg(c.fifo == t->fifo && c.ctl_fd == t->ctl_fd &&
		      c.ack_fd == t->ack_fd &&
		      strcmp(c.ctl_path, t->ctl_path) == 0 &&
		      strcmp(c.ack_path, t->ack_path) == 0,
		      "line %d: %d %d '%s' '%s'", t->line, c.ctl_fd, c.ack_fd,
		      c.ctl_path, c.ack_path);
}
END_TEST

#define MAX_CMDS 6

static const struct line_row {
	int line;
	const char *bytes;	/* fed at once; \0 written as | */
	enum control_cmd want[MAX_CMDS];	/* ends at CONTROL_NONE */
	const char *arg;	/* of the last command */
} line_rows[] = {
	{ __LINE__, "enable\n", { CONTROL_ENABLE }, "" },
	{ __LINE__, "disable\n", { CONTROL_DISABLE }, "" },
	{ __LINE__, "ping\n", { CONTROL_PING }, "" },
	{ __LINE__, "enable|", { CONTROL_ENABLE }, "" },
	{ __LINE__, "enable", { CONTROL_NONE }, "" },
	{ __LINE__, "enable\ndisable\nping\n",
	  { CONTROL_ENABLE, CONTROL_DISABLE, CONTROL_PING }, "" },
	{ __LINE__, "enable cycles\n", { CONTROL_ENABLE }, "cycles" },
	{ __LINE__, "disable syscalls:sys_enter_write\n", { CONTROL_DISABLE },
	  "syscalls:sys_enter_write" },
	{ __LINE__, "enabled\n", { CONTROL_UNKNOWN }, "" },
	{ __LINE__, "Enable\n", { CONTROL_UNKNOWN }, "" },
	{ __LINE__, "\n", { CONTROL_UNKNOWN }, "" },
	{ __LINE__, "ping x\n", { CONTROL_UNKNOWN }, "" },
	{ __LINE__, "stop\nping\n", { CONTROL_UNKNOWN, CONTROL_PING }, "" },
	{ __LINE__, "begin solve\n", { CONTROL_BEGIN }, "solve" },
	{ __LINE__, "end solve\n", { CONTROL_END }, "solve" },
	{ __LINE__, "begin two words\n", { CONTROL_BEGIN }, "two words" },
	{ __LINE__, "begin a\nend a\n", { CONTROL_BEGIN, CONTROL_END }, "a" },
	{ __LINE__, "begin\n", { CONTROL_UNKNOWN }, "" },
	{ __LINE__, "begin \n", { CONTROL_UNKNOWN }, "" },
	{ __LINE__, "end\n", { CONTROL_UNKNOWN }, "" },
	{ __LINE__, "beginx\n", { CONTROL_UNKNOWN }, "" },
};

START_TEST(test_lines)
{
	const struct line_row *t = &line_rows[_i];
	struct control c;
	char err[64], bytes[128];
	enum control_cmd got;
	size_t i, n = strlen(t->bytes);

	ck_assert_int_eq(control_parse(&c, "fd:0", err, sizeof(err)), 0);
	memcpy(bytes, t->bytes, n);
	for (i = 0; i < n; i++)
		if (bytes[i] == '|')
			bytes[i] = '\0';
	control_feed(&c, bytes, n);
	for (i = 0; i < MAX_CMDS; i++) {
		got = control_next(&c);
		ck_assert_msg(got == t->want[i], "line %d: command %zu: %d",
			      t->line, i, got);
		if (got == CONTROL_NONE)
			break;
	}
	if (i > 0)
		ck_assert_msg(i == 0 || strcmp(c.arg, t->arg) == 0,
			      "line %d: arg '%s'", t->line, c.arg);
}
END_TEST

/* Lines that come in pieces are whole when they end. */
START_TEST(test_pieces)
{
	struct control c;
	char err[64];

	ck_assert_int_eq(control_parse(&c, "fd:0", err, sizeof(err)), 0);
	control_feed(&c, "ena", 3);
	ck_assert_int_eq(control_next(&c), CONTROL_NONE);
	control_feed(&c, "ble\npi", 6);
	ck_assert_int_eq(control_next(&c), CONTROL_ENABLE);
	ck_assert_int_eq(control_next(&c), CONTROL_NONE);
	control_feed(&c, "ng\n", 3);
	ck_assert_int_eq(control_next(&c), CONTROL_PING);
}
END_TEST

/* A line too long to keep is dropped whole, and the next one counts. */
START_TEST(test_overlong)
{
	char junk[CONTROL_LINE_MAX], err[64];
	struct control c;
	int fds[2];

	ck_assert_int_eq(control_parse(&c, "fd:0", err, sizeof(err)), 0);
	ck_assert_int_eq(pipe(fds), 0);
	c.ctl_fd = fds[0];
	memset(junk, 'e', sizeof(junk));
	ck_assert_int_eq(write(fds[1], junk, sizeof(junk)), sizeof(junk));
	ck_assert_int_eq(write(fds[1], "enable\nping\n", 12), 12);
	close(fds[1]);
	ck_assert_int_eq(control_read(&c), 0);
	ck_assert_int_eq(control_next(&c), CONTROL_NONE);
	ck_assert_int_eq(control_read(&c), 0);
	/* "eee...enable": the end of the long line, not a command. */
	ck_assert_int_eq(control_next(&c), CONTROL_PING);
	ck_assert_int_eq(control_next(&c), CONTROL_NONE);
	ck_assert_int_eq(control_read(&c), 1);
	close(fds[0]);
}
END_TEST

/* --regions' channel: the commands' pipe and the acks', the command's
 * ends apart, its commands' end open for reading too (no SIGPIPE). */
START_TEST(test_channel)
{
	struct control c;
	int child[2];
	char buf[8];

	ck_assert_int_eq(control_channel(&c, child), 0);
	ck_assert_int_ne(c.ctl_fd, c.ack_fd);
	ck_assert_int_eq(fcntl(child[0], F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
	ck_assert_int_eq(fcntl(child[1], F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
	ck_assert_int_eq(fcntl(child[0], F_GETFL) & O_ACCMODE, O_RDWR);
	ck_assert_int_eq(write(child[0], "begin x\n", 8), 8);
	ck_assert_int_eq(control_read(&c), 0);
	ck_assert_int_eq(control_next(&c), CONTROL_BEGIN);
	ck_assert_str_eq(c.arg, "x");
	/* Nothing more to read: no wait, nothing taken. */
	ck_assert_int_eq(control_read(&c), 0);
	ck_assert_int_eq(control_next(&c), CONTROL_NONE);
	ck_assert_int_eq(control_ack(&c), 0);
	ck_assert_int_eq(read(child[1], buf, sizeof(buf)), 4);
	ck_assert_int_eq(memcmp(buf, "ack\n", 4), 0);
	/* pstat gone: the command reads the end of its acks. */
	control_close(&c);
	ck_assert_int_eq(c.ctl_fd, -1);
	ck_assert_int_eq(read(child[1], buf, sizeof(buf)), 0);
	close(child[0]);
	close(child[1]);
}
END_TEST

static Suite *control_suite(void)
{
	Suite *s = suite_create("control");
	TCase *tc = tcase_create("control");

	tcase_add_loop_test(tc, test_spec, 0, N_ROWS(spec_rows));
	tcase_add_loop_test(tc, test_lines, 0, N_ROWS(line_rows));
	tcase_add_test(tc, test_pieces);
	tcase_add_test(tc, test_overlong);
	tcase_add_test(tc, test_channel);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(control_suite());
}
