/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --pfm-events: any list of libpfm4 events parses or is refused with a
 * reason and a column within it, the same way every time (libpfm4's
 * tables, as this machine's CPU selects them, are read once); a good
 * list joined to itself by a comma is good, with twice the events in
 * the same groups; no group holds more than 64 (evcheck.h).
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>

#include "evcheck.h"
#include "fuzz.h"
#include "pfm.h"
#include "pfm_events.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_fake_sysfs(false);
	/* Built without libpfm4, every list is refused: still checked. */
	if (!pfm_built_in())
		fprintf(stderr, "fuzz_pfm_events: no libpfm4 in this build\n");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	evcheck(data, size, pfm_events_parse, 64);
	return 0;
}
