# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the metric tests, after tests/init.sh: a copy of the
# machine's PMUs in ./tree with fake core PMUs of the tracepoint PMU's
# type (perf and pstat then open real tracepoints under vendor names:
# the config is a tracepoint id), and in_tree to run a command with the
# copy mounted over the real tree in a private mount namespace. Root.

devices=/sys/bus/event_source/devices
unshare -m true 2>unshare.err ||
	skip_ "no private mount namespace here: $(head -n 1 unshare.err)"
tp_type=$(cat "$devices/tracepoint/type") ||
	skip_ "no tracepoint PMU in $devices"

# fake_tree: ./tree, the machine's PMUs without its core PMU "cpu".
fake_tree()
{
	mkdir tree && cp -a "$devices/." tree/ ||
		framework_failure_ "cannot copy $devices"
	rm -rf tree/cpu
}

# fake_intel_pmu NAME: tree/NAME, an Intel core PMU (its formats) of the
# tracepoint PMU's type.
fake_intel_pmu()
{
	mkdir -p "tree/$1/format" "tree/$1/events" &&
		echo "$tp_type" >"tree/$1/type" ||
		framework_failure_ "cannot make the fake $1 PMU"
	for t in event:config:0-7 umask:config:8-15 edge:config:18 \
		 pc:config:19 any:config:21 inv:config:23 cmask:config:24-31; do
		echo "${t#*:}" >"tree/$1/format/${t%%:*}"
	done
}

# in_tree CMD...: CMD with the fake tree mounted over the real one.
in_tree()
{
	unshare -m sh -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' \
		sh "$PWD/tree" "$devices" "$@"
}
