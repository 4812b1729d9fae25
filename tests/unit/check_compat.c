/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of compat.c: pstat's own tables say what glibc says. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "compat.h"
#include "unit.h"

/* Every errno value and signal in the tables, as glibc names it. */
START_TEST(test_errnames_agree)
{
	int err, known = 0;

	for (err = 1; err < 200; err++) {
		const char *ours = compat_errname_table(err);

		if (!ours)
			continue;
		known++;
#ifdef HAVE_STRERRORNAME_NP
		ck_assert_msg(strerrorname_np(err) &&
			      !strcmp(ours, strerrorname_np(err)),
			      "errno %d: table says %s, glibc %s", err, ours,
			      strerrorname_np(err));
#endif
	}
	ck_assert_int_ge(known, 40);
	ck_assert_str_eq(compat_errname_table(EACCES), "EACCES");
	ck_assert_str_eq(compat_errname(EMFILE), "EMFILE");
	ck_assert_str_eq(compat_errname(100000), "unknown error");
	ck_assert_ptr_null(compat_errname_table(0));
	ck_assert_ptr_null(compat_errname_table(-1));
}
END_TEST

START_TEST(test_signames_agree)
{
	int sig;

	for (sig = 1; sig <= SIGSYS; sig++) {
		const char *ours = compat_sigabbrev_table(sig);

		ck_assert_msg(ours, "signal %d has no name", sig);
#ifdef HAVE_SIGABBREV_NP
		ck_assert_msg(sigabbrev_np(sig) &&
			      !strcmp(ours, sigabbrev_np(sig)),
			      "signal %d: table says %s, glibc %s", sig, ours,
			      sigabbrev_np(sig));
#endif
	}
	ck_assert_str_eq(compat_sigabbrev(SIGTERM), "TERM");
	ck_assert_ptr_null(compat_sigabbrev_table(0));
	ck_assert_ptr_null(compat_sigabbrev_table(SIGRTMAX + 1));
}
END_TEST

static Suite *compat_suite(void)
{
	Suite *s = suite_create("compat");
	TCase *tc = tcase_create("compat");

	tcase_add_test(tc, test_errnames_agree);
	tcase_add_test(tc, test_signames_agree);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(compat_suite());
}
