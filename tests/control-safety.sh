#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --control never harms what it is pointed at: fifo: takes FIFOs alone
# (acks written over a plain file, or a device read without end, are no
# channel).

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

# Not a FIFO: refused before the command runs, and left as it was.
mkfifo ctl || framework_failure_ "mkfifo"
printf 'data\n' >plain
for spec in fifo:ctl,plain fifo:plain fifo:/dev/zero fifo:ctl,/dev/null; do
	expect_refused_saying "is not a FIFO" --control "$spec" -e task-clock
	expect_eq "$(cat plain)" data "plain after --control $spec"
done
