#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Vendor event names through libpfm4, with its PMU models forced
# (LIBPFM_FORCE_PMU), so that any machine encodes them: -e's fallback
# after pstat's own names, libpfm4's PMU::EVENT:UMASK:MOD=VAL syntax,
# --pfm-events, errors with a caret at the part at fault, --list pfm,
# -V and --check. Built without libpfm4, pstat says so instead.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

# The column of the caret under "       OPT SPEC" in ./err, or nothing.
caret_column()
{
	awk -v spec="       $1 $2" -v skip=$((9 + ${#1})) '
		found { if ($0 ~ /^ *\^$/) print index($0, "^") - skip; exit }
		$0 == spec { found = 1 }' err
}

# check_error OPT SPEC COLUMN TEXT...: refused, each TEXT in the message.
check_error()
{
	opt=$1 spec=$2 col=$3
	shift 3
	expect_refused "$opt" "$spec"
	for want in "$@"; do
		grep '^pstat: ' err | grep -qF -- "$want" ||
			{ show_err_; fail_ "$opt '$spec': no '$want'"; }
	done
	expect_eq "$(caret_column "$opt" "$spec")" "$col" "$opt '$spec': caret"
}

run_pstat -V
expect_rc 0
if grep -q '^libpfm4: not built in' out; then
	expect_refused_saying 'built without libpfm4' --pfm-events inst_retired:any_p
	run_pstat --list pfm
	expect_rc 125
	grep -q '^pstat: --list pfm: pstat is built without libpfm4' err ||
		{ show_err_; fail_ "--list pfm without libpfm4"; }
	run_pstat --check
	grep -q 'libpfm4 *not built in' out ||
		fail_ "--check does not say libpfm4 is not built in"
	expect_refused_saying "unknown event 'inst_retired.any_p'.*built without" \
		-e inst_retired.any_p
	expect_refused_saying "unknown event 'skl::inst_retired:any_p:u'" \
		-e skl::inst_retired:any_p:u
	expect_refused_saying "did you mean 'cycles'" -e cylces:u
	exit 0
fi
grep -q '^libpfm4: built in, detects ' out ||
	fail_ "-V says '$(cat out)', not whether libpfm4 is built in"

LIBPFM_FORCE_PMU=skl
export LIBPFM_FORCE_PMU
run_pstat -V
grep -qx 'libpfm4: built in, detects skl (Intel Skylake)' out ||
	fail_ "-V under skl says '$(cat out)'"
run_pstat --check
grep -q 'libpfm4 *built in, detects skl (Intel Skylake)' out ||
	fail_ "--check does not name the model libpfm4 detects"

# A vendor name is the raw event perf's tables give, with pstat's own
# modifiers: only the name and the source differ.
run_pstat --explain -e inst_retired.any_p:u
expect_rc 0
grep -qx '  (encoded by libpfm4, model skl (Intel Skylake))' out ||
	{ cat out; fail_ "--explain does not name libpfm4 and skl"; }
grep -v -e '^inst_retired.any_p:u ' -e 'encoded by' out >vendor.txt
run_pstat --explain -e r00c0:u
grep -v '^r00c0:u ' out >raw.txt
diff raw.txt vendor.txt ||
	fail_ "inst_retired.any_p:u is not r00c0:u"

# libpfm4's EVENT:UMASK in -e, without a model, as perf takes it: no
# tracepoint has that name, so it is libpfm4's, with its modifiers.
run_pstat --explain -e INST_RETIRED:ANY_P:u
expect_rc 0
grep -v -e '^INST_RETIRED:ANY_P:u ' -e 'encoded by' out >upper.txt
diff raw.txt upper.txt ||
	fail_ "INST_RETIRED:ANY_P:u in -e is not r00c0:u"
run_pstat --explain -e INST_RETIRED:NO_SUCH_UMASK
expect_rc 125
grep -q "neither a umask nor a modifier of 'INST_RETIRED'" err ||
	{ show_err_; fail_ "INST_RETIRED:NO_SUCH_UMASK: no umask error"; }

# libpfm4's own syntax and modifiers, in -e and in --pfm-events.
run_pstat --explain -e skl::inst_retired:any_p:k=1
grep -q '^  exclude_user  *1$' out && ! grep -q exclude_kernel out ||
	{ cat out; fail_ "skl::inst_retired:any_p:k=1 is not kernel only"; }
run_pstat --explain --pfm-events \
	'{inst_retired:any_p:u,cycle_activity:stalls_total}' -e task-clock
expect_rc 0
grep -q '^inst_retired:any_p:u (group 0, leader)$' out &&
	grep -q '^cycle_activity:stalls_total (group 0, member)$' out &&
	grep -q '^task-clock (group 1)$' out &&
	grep -q '^  config  *0x40004a3$' out ||
	{ cat out; fail_ "--pfm-events: the group is not as given"; }
LIBPFM_FORCE_PMU=skx run_pstat --explain -e machine_clears.count
grep -q '^  config  *0x10401c3$' out ||
	{ cat out; fail_ "machine_clears.count under skx"; }

# Not on this machine's PMU: <not supported>, and the rest still count.
run_pstat -x, -e inst_retired.any_p,task-clock -- true
expect_rc 0
rows=$(csv_rows)
echo "$rows" | grep -q ',task-clock,' || fail_ "no task-clock row: $rows"
if have_hw_pmu; then
	echo "$rows" | grep -q ',inst_retired.any_p,' ||
		fail_ "no inst_retired.any_p row: $rows"
else
	echo "$rows" | grep -q '^<not supported>,,inst_retired.any_p,' ||
		fail_ "inst_retired.any_p is not <not supported>: $rows"
fi

# Errors: what is wrong, and the caret under it.
check_error -e inst_retired.bogus 13 \
	"'bogus' is neither a umask nor a modifier of 'inst_retired'" \
	"pstat --list pfm inst_retired"
check_error -e task-clock,mem_load_retired:u 27 \
	"'mem_load_retired' needs a umask"
check_error --pfm-events 'inst_retired:any_p,inst_retired:any_p:c=999' 38 \
	"bad value in 'c=999'"
check_error -e ex_ret_instr 0 "unknown event 'ex_ret_instr'" \
	"libpfm4 detects skl (Intel Skylake) here"
check_error --pfm-events '{inst_retired:any_p' 0 "unclosed '{'"
# A typo of perf's own names is still that.
check_error -e cylces 0 "did you mean 'cycles'?"
LIBPFM_FORCE_PMU=amd64_fam19h_zen4 check_error -e ex_ret_instr 0 \
	"names are AMD's, not perf's: RETIRED_INSTRUCTIONS, not ex_ret_instr"

# --list pfm: the model's events and umasks, with descriptions.
run_pstat --list pfm inst_retired.any_p
expect_rc 0
grep -q '^libpfm4 events of skl (Intel Skylake):$' out &&
	grep -q '^  skl::INST_RETIRED:ANY_P  *\[Number of instructions retired' out ||
	{ cat out; fail_ "--list pfm inst_retired.any_p"; }
run_pstat --list --json pfm 'INST_RETIRED*'
expect_rc 0
python3 - out <<'PY' || fail_ "--list --json pfm: $(cat out)"
import json, sys
doc = json.load(open(sys.argv[1]))
names = {e["name"]: e for e in doc["events"]}
e = names["skl::INST_RETIRED:ANY_P"]
assert e["kind"] == "pfm" and "instructions" in e["description"], e
assert all(n.startswith("skl::INST_RETIRED") for n in names), names
PY
# No model detected: said, as -V says it (issue 31), not an empty list.
LIBPFM_FORCE_PMU=no_such_model run_pstat --list pfm
expect_rc 0
expect_eq "$(cat out)" \
	"libpfm4 events: libpfm4 detects no PMU model of this CPU" \
	"--list pfm without a model"
exit 0
