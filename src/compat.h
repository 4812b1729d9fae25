/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Names of errno values and signals, with or without glibc's functions. */
#ifndef PSTAT_COMPAT_H
#define PSTAT_COMPAT_H

/* "EACCES" for EACCES; "unknown error" for a value it does not know. */
const char *compat_errname(int err);

/* "TERM" for SIGTERM, as sigabbrev_np(3); NULL for one it does not know. */
const char *compat_sigabbrev(int sig);

/*
 * pstat's own tables, used where the C library lacks strerrorname_np
 * and sigabbrev_np (musl, glibc before 2.32); public so that the tests
 * hold them to glibc's answers. NULL for a value not in them.
 */
const char *compat_errname_table(int err);
const char *compat_sigabbrev_table(int sig);

/*
 * A library that a dynamic pstat dlopen()s, declared in the ELF note
 * that packaging tools read for it (the "FDO" .note.dlopen of systemd
 * and Fedora), as the linker's DT_NEEDED declares what it links. json:
 * a string literal, [{"soname":[...],"feature":...,"priority":...}].
 */
#define COMPAT_DLOPEN_NOTE(var, json)					\
	static const struct {						\
		unsigned int namesz, descsz, type;			\
		char name[4];						\
		char desc[(sizeof(json) + 3) & ~3u];			\
	} (var) __attribute__((used, section(".note.dlopen"), aligned(4))) = { \
		4, sizeof(json), 0x407c0c0a, "FDO", json		\
	}

#endif
