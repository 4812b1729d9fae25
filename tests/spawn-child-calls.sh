#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The child that pstat clones with CLONE_VM shares pstat's memory until
# its exec, so it must not go through the C library (whose functions set
# errno and take locks that are pstat's): from child() in src/spawn.c,
# every function it can reach is one of that file's own, which make
# system calls directly. objdump shows the calls of spawn.o, as this
# build compiled it (an unoptimised build calls what -O2 inlines).
# Allowed: the stack protector's and UBSan's reports, which run only
# when something is already broken.

# shellcheck source=tests/init.sh
. "${top_srcdir:?}/tests/init.sh"

command -v objdump >/dev/null 2>&1 ||
	framework_failure_ "objdump not found (Debian package binutils)"
! pstat_asan ||
	skip_ "built with AddressSanitizer, whose run-time the child would share: it is forked"
obj=$(dirname "${PSTAT_REAL:-$PSTAT}")/spawn.o
[ -f "$obj" ] || framework_failure_ "$obj: not built"

objdump -dr --no-show-raw-insn "$obj" >dis ||
	framework_failure_ "objdump -dr $obj failed"
grep -q '<child>:' dis || fail_ "$obj has no function child()"
grep -Eq '(syscall|svc)' dis ||
	skip_ "$obj makes no direct system call on this architecture: the child is forked"

# Each function's call and jump targets (direct, or by relocation), then
# what child() reaches, and which of those spawn.o does not define.
awk '
	function add(f, t) {
		sub(/^\.text\./, "", t)
		sub(/[-+]0x[0-9a-f]+$/, "", t)
		if (t != f && t != "")
			calls[f] = calls[f] " " t
	}
	# A branch whose target is relocated names it in its relocation;
	# objdump names the unrelocated address after it (anything nearby).
	function flush() {
		if (pending != "")
			add(f, pending)
		pending = ""
	}
	/^[0-9a-f]+ <[^>]+>:$/ {
		flush()
		f = $2; gsub(/[<>:]/, "", f); defined[f] = 1; branch = 0; next
	}
	/^ +[0-9a-f]+:\t/ {
		flush()
		branch = ($2 ~ /^(call|callq|jmp|jmpq|bl|b|b\..*|cbz|cbnz)$/)
		if (branch && match($0, /<[^>+]+/))
			pending = substr($0, RSTART + 1, RLENGTH - 1)
		next
	}
	/R_(X86_64|AARCH64)_/ && branch { pending = $3; branch = 0 }
	END {
		flush()
		todo[1] = "child"; n = 1; seen["child"] = 1
		for (i = 1; i <= n; i++) {
			k = split(calls[todo[i]], tt, " ")
			for (j = 1; j <= k; j++)
				if (!(tt[j] in seen)) {
					seen[tt[j]] = 1; todo[++n] = tt[j]
				}
		}
		for (x in seen)
			if (!(x in defined) && x !~ /^(__stack_chk_fail|__ubsan_handle_)/)
				print x
	}' dis >outside || framework_failure_ "awk failed"

if [ -s outside ]; then
	fail_ "the CLONE_VM child calls outside src/spawn.c before its exec: \
$(sort outside | tr '\n' ' ')"
fi
exit 0
