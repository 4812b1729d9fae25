#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# pstat never closes, moves or marks close-on-exec a descriptor it
# inherited: MPICH and srun --mpi=pmi2 pass their connection to each
# rank as one (PMI_FD), and MPI_Init fails without it. The command gets
# each at the same number, open on the same file, at the same offset.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events

printf 'first\nsecond\n' >data
# fd 7: a file, read one line into (the command reads on from there);
# fd 9: a pipe's read end; fd 8: a file for writing; and with -o and
# --format, whose own file pstat opens, the same.
for args in "-e task-clock" "--format=csv -o res.csv -e task-clock"; do
	# shellcheck disable=SC2086 # the options are words
	{
		read -r skip <&7
		printf 'piped\n' | "$PSTAT" $args -- sh -c '
			readlink /proc/self/fd/7 /proc/self/fd/8 >links
			read -r a <&7; read -r b <&9
			echo "$a $b" >got; echo written >&8' 9<&0 2>err
	} 7<data 8>written.txt || { show_err_; fail_ "$args: pstat failed"; }
	[ "$skip" = first ] || fail_ "the test's own read"
	expect_eq "$(cat got)" "second piped" "$args: what fds 7 and 9 read"
	expect_eq "$(cat written.txt)" written "$args: what fd 8 wrote"
	expect_eq "$(sed -n 1p links)" "$PWD/data" "$args: fd 7's file"
	expect_eq "$(sed -n 2p links)" "$PWD/written.txt" "$args: fd 8's file"
done
grep -q '^total,,,,task-clock,' res.csv || fail_ "no results in res.csv"
exit 0
