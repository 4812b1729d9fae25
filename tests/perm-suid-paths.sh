#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A set-user-ID root pstat, installed as the man page says (a root-owned
# 4755 copy), run by nobody: every path nobody names is opened with
# nobody's rights, never root's. --control fifo: does not write acks
# over root's file, --merge does not print root's report (nor tells
# which of root's files exist), -G does not count in a cgroup nobody
# may not open. And a set-group-ID pstat, whose command nobody may not
# count before its exec, says why.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

require_perf_events
require_root
command -v setpriv >/dev/null 2>&1 || skip_ "no setpriv (util-linux)"
if findmnt -n -o OPTIONS -T . 2>/dev/null | grep -qw nosuid; then
	skip_ "the temp dir is on a nosuid mount: no set-user-ID pstat here"
fi
unset PSTAT_RANK PSTAT_LOCAL_RANK PSTAT_SIZE PSTAT_JOB_ID \
	OMPI_COMM_WORLD_RANK PMIX_RANK PMI_RANK MV2_COMM_WORLD_RANK \
	SLURM_PROCID SLURM_LOCALID SLURM_NTASKS SLURM_JOB_ID
# Users may count their own commands in user space.
set_paranoid 2

cp "$PSTAT" ./pstat && chown 0:0 ./pstat && chmod 4755 ./pstat ||
	framework_failure_ "cannot make a set-user-ID copy of pstat"
run_nobody ./pstat --version
[ "$rc" = 0 ] || skip_ "nobody cannot run ./pstat here: $(cat err)"
run_nobody ./pstat --check --json
grep -q '"elevated": true' out ||
	skip_ "./pstat does not run set-user-ID for nobody here"

# Root's, which nobody may not enter; nobody's own, where it writes.
mkdir secret mine && chmod 700 secret && chown 65534:65534 mine ||
	framework_failure_ "cannot make the directories"
printf 'root data\n' >secret/file
mkfifo mine/ctl && chown 65534:65534 mine/ctl ||
	framework_failure_ "mkfifo"

# refused WHAT TEXT...: the run just made was refused before the
# command (touch mine/ran) ran: 125, one 'pstat: ' line holding TEXT.
refused()
{
	what=$1
	shift
	expect_rc 125
	[ ! -e mine/ran ] || { show_err_; fail_ "$what: the command ran"; }
	expect_eq "$(grep -c '^pstat: ' err)" 1 "$what: 'pstat: ' lines"
	for want in "$@"; do
		grep '^pstat: ' err | grep -qF -- "$want" ||
			{ show_err_; fail_ "$what: no '$want' in the message"; }
	done
}

# --control fifo: the ack path is root's file: refused, and left alone.
run_nobody ./pstat --control fifo:mine/ctl,secret/file -e task-clock:u \
	-- touch mine/ran
refused "fifo: root's file as ACK" "secret/file" "Permission denied"
expect_eq "$(cat secret/file)" "root data" "root's file after --control"
run_nobody ./pstat --control fifo:secret/file -e task-clock:u \
	-- touch mine/ran
refused "fifo: root's file as CTL" "secret/file" "Permission denied"
# Nobody's own FIFO is nobody's to use.
run_nobody ./pstat -x, --control fifo:mine/ctl -e task-clock:u \
	-- touch mine/ran
expect_rc 0
[ -e mine/ran ] || fail_ "--control fifo:mine/ctl: the command did not run"
rm -f mine/ran

# --merge: root's rank file. Its command line says 'rootsecret'.
PSTAT_RANK=0 PSTAT_SIZE=1 "$PSTAT" --format=csv -o secret/rank.0.csv \
	-e task-clock -- true rootsecret ||
	framework_failure_ "cannot write root's rank file"
run_nobody ./pstat --merge secret/rank.0.csv
expect_rc 125
! grep -q rootsecret out err || { show_err_; fail_ "--merge printed root's report"; }
grep -q "^pstat: .*secret/rank\.0\.csv.*Permission denied" err ||
	{ show_err_; fail_ "--merge of root's file: no 'Permission denied'"; }
# One that does not exist reads the same: nothing told of root's files.
sed 's/rank\.0\.csv/NAME/' err >err.there
run_nobody ./pstat --merge secret/none.csv
expect_rc 125
sed 's/none\.csv/NAME/' err >err.none
cmp -s err.there err.none ||
	fail_ "--merge tells root's files apart: '$(cat err.there)' and '$(cat err.none)'"
# A copy nobody may read merges.
cp secret/rank.0.csv mine/ && chown 65534 mine/rank.0.csv ||
	framework_failure_ "cp"
run_nobody ./pstat --merge mine/rank.0.csv
expect_rc 0
grep -q task-clock out || { show_err_; fail_ "--merge of nobody's file"; }

# -G: a cgroup only root may open, in the hierarchy pstat counts in.
root=$(awk '$3 == "cgroup" && $4 ~ /(^|,)perf_event(,|$)/ { print $2; exit }' \
	/proc/self/mounts)
[ -n "$root" ] ||
	root=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
cg=pstat-test-$$
if [ -z "$root" ]; then
	echo "no cgroup hierarchy mounted: -G not tried"
elif ! mkdir "$root/$cg" 2>/dev/null; then
	echo "cannot make a cgroup in $root: -G not tried"
else
	at_exit "rmdir '$root/$cg'"
	chmod 700 "$root/$cg" || framework_failure_ "chmod $root/$cg"
	run_nobody ./pstat -a -e task-clock -G "$cg" -- touch mine/ran
	refused "-G root's cgroup" "$cg" "Permission denied"
	chmod 755 "$root/$cg" || framework_failure_ "chmod $root/$cg"
	run_nobody ./pstat -x, -a -e task-clock -G "$cg" -- touch mine/ran
	expect_rc 0
	rm -f mine/ran
fi

# Set-group-ID: the command's process is not dumpable before its exec,
# which the kernel lets no one without CAP_SYS_PTRACE count.
cp "$PSTAT" ./pstat-sgid && chown 0:0 ./pstat-sgid &&
	chmod 2755 ./pstat-sgid ||
	framework_failure_ "cannot make a set-group-ID copy of pstat"
rc=0
# AddressSanitizer's run-time fails in a process that is not dumpable
# (LeakSanitizer, whatever ASAN_OPTIONS say, in CI's sanitize pass).
if pstat_asan; then
	echo "built with AddressSanitizer, which cannot run set-group-ID: not tried"
else
	run_nobody ./pstat-sgid -e task-clock:u -- touch mine/ran
fi
if pstat_asan; then
	:
elif [ "$rc" = 0 ]; then
	echo "this kernel lets nobody count a process that is not dumpable"
else
	refused "set-group-ID" "task-clock:u: permission denied" \
		"set-group-ID" "not dumpable" "chmod g-s"
	! grep -q "security module" err ||
		{ show_err_; fail_ "set-group-ID: blames a security module"; }
fi
