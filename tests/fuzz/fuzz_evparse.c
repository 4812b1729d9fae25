/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The -e grammar: any spec parses or is refused with a reason and a
 * column within it, the same way every time; a good spec joined to
 * itself by a comma is good, with twice the events in the same groups
 * (evcheck.h).
 */
#include "config.h"

#include <stdint.h>

#include "evcheck.h"
#include "evparse.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_fake_sysfs(false);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	evcheck(data, size, evparse, SIZE_MAX);
	return 0;
}
