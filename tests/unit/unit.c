/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one main of the Check suites (see unit.h). */
#include "config.h"

#include <stdlib.h>

#include "unit.h"

int unit_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
