/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of caps.c, as an ordinary process (no set-ID bit, no file
 * capabilities) sees it, whatever user runs them. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "caps.h"
#include "unit.h"

/* The test runs with its user's own rights. */
START_TEST(test_not_elevated)
{
	ck_assert(!caps_elevated());
}
END_TEST

/* cap_to_text(3)'s words, cut to the buffer. */
START_TEST(test_text)
{
	char buf[256], small[4];

	ck_assert_int_eq(caps_text(buf, sizeof(buf)), 0);
	ck_assert_ptr_nonnull(strchr(buf, '='));
	ck_assert_int_eq(caps_text(small, sizeof(small)), 0);
	ck_assert_uint_le(strlen(small), sizeof(small) - 1);
	ck_assert(strncmp(buf, small, strlen(small)) == 0);
	caps_ambient_text(buf, sizeof(buf));
	ck_assert_uint_lt(strlen(buf), sizeof(buf));
}
END_TEST

/* A file without capabilities has none to say. */
START_TEST(test_file_text)
{
	char path[] = "/tmp/check_caps.XXXXXX", buf[64] = "x";
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	caps_file_text(path, buf, sizeof(buf));
	ck_assert_str_eq(buf, "");
	caps_file_text("/nonexistent/pstat", buf, sizeof(buf));
	ck_assert_str_eq(buf, "");
	close(fd);
	unlink(path);
}
END_TEST

/* Not elevated: open(2) itself, errno and all. */
START_TEST(test_open_user)
{
	char path[] = "/tmp/check_caps.XXXXXX";
	int fd = mkstemp(path), fd2;

	ck_assert_int_ge(fd, 0);
	fd2 = caps_open_user(path, O_RDONLY | O_CLOEXEC, 0);
	ck_assert_int_ge(fd2, 0);
	close(fd2);
	close(fd);
	unlink(path);
	errno = 0;
	ck_assert_int_eq(caps_open_user(path, O_RDONLY, 0), -1);
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

/* An ordinary process drops nothing: its ids are the real ones, and
 * it holds no capability unless it is root. */
START_TEST(test_exec_drop)
{
	struct caps_drop drop;

	memset(&drop, 0xff, sizeof(drop));
	ck_assert_int_eq(caps_exec_prepare(&drop), 0);
	ck_assert(!drop.ids);
	ck_assert_int_eq(drop.uid, getuid());
	ck_assert_int_eq(drop.gid, getgid());
	if (getuid() == 0)
		ck_assert(!drop.caps);
}
END_TEST

static Suite *caps_suite(void)
{
	Suite *s = suite_create("caps");
	TCase *tc = tcase_create("caps");

	tcase_add_test(tc, test_not_elevated);
	tcase_add_test(tc, test_text);
	tcase_add_test(tc, test_file_text);
	tcase_add_test(tc, test_open_user);
	tcase_add_test(tc, test_exec_drop);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(caps_suite());
}
