# SPDX-License-Identifier: GPL-2.0-or-later
# The perf_event_attr fields that say what is counted, one line per
# event, from 'perf stat -vv' (mode=perf) or 'pstat --explain'
# (mode=pstat), for the tests that hold pstat to perf's encodings.
#
# The fields compared; a field neither tool prints is 0. Left out on
# purpose: exclude_guest and exclude_host (perf sets exclude_guest on
# every event, pstat does not: the msr PMU refuses any exclude bit),
# and what depends on the tool rather than the event (disabled,
# enable_on_exec, inherit, read_format, sample_type, size).
function norm(v,   h) {
	v = tolower(v)
	if (v ~ /^0x/) {
		h = substr(v, 3)
		sub(/^0+/, "", h)
		return h == "" ? "0" : h
	}
	return sprintf("%x", v + 0)
}
function flush(   i, s) {
	if (!have)
		return
	s = ""
	for (i = 1; i <= nf; i++)
		s = s (i > 1 ? " " : "") f[i] "=" \
		    ((f[i] in val) ? val[f[i]] : "0")
	out[n] = s
	have = 0
}
# bp_addr and bp_len share their place with config1 and config2.
function key(name) {
	if (name == "bp_addr")
		return "config1"
	if (name == "bp_len")
		return "config2"
	return name
}
BEGIN {
	nf = split("type config config1 config2 bp_type exclude_user " \
		   "exclude_kernel exclude_hv exclude_idle pinned exclusive " \
		   "precise_ip", f, " ")
}
# perf prints an attr block per attempt. After a failed one, a line
# saying what it switches off means the next block is the same event
# again: the last attempt stands.
mode == "perf" && /^perf_event_attr:/ {
	if (!retry) {
		flush()
		n++
	}
	retry = failed = 0
	inblock = have = 1
	split("", val)
	next
}
mode == "perf" && /^-----/ { inblock = 0; next }
mode == "perf" && /sys_perf_event_open failed/ { failed = 1; next }
mode == "perf" && failed && /switching off|decreasing precise_ip|[Rr]etry/ {
	retry = 1
	next
}
mode == "perf" && !inblock { failed = 0; next }
# pstat --explain: a header line per event, then its fields.
mode == "pstat" && /^[^ ]/ {
	flush()
	n++
	split("", val)
	have = inblock = 1
	next
}
mode == "pstat" && /^$/ { inblock = 0; next }
# "  name value", or perf's "  { bp_addr, config1 }  value".
inblock && /^  [^ (]/ {
	if ($1 == "{")
		val[key($3)] = norm($5)
	else
		val[key($1)] = norm($2)
}
END {
	flush()
	for (i = 1; i <= n; i++)
		print out[i]
}
