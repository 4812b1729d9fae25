/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pstat's privileges (libcap, user ids): asked, set aside, dropped. */
#ifndef PSTAT_CAPS_H
#define PSTAT_CAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Capabilities, asked of libcap. */
enum caps_which {
	CAPS_PERFMON,		/* CAP_PERFMON (Linux 5.8+) */
	CAPS_SYS_ADMIN,
	CAPS_SYS_PTRACE,
	CAPS_N,
};

/*
 * Why libcap could not be loaded, in words with the fix, or NULL when it
 * was (or was not needed yet). A dynamic pstat loads libcap.so.2 only
 * on the paths that need it; each of them then fails with -ELIBACC.
 */
const char *caps_library_error(void);

/* Whether the effective set holds it. */
bool caps_have(enum caps_which which);

/* The process's capabilities as cap_to_text(3) writes them ("=" when
 * there are none; "?" and why, when libcap is missing). 0 or -errno. */
int caps_text(char *buf, size_t len);

/* The ambient set as text ("" when empty). 0, or -ENOMEM when a name
 * is missing ("?"). */
int caps_ambient_text(char *buf, size_t len);

/* The file capabilities of path, as cap_to_text writes them; "" when it
 * has none. 0, or -ENOMEM when they could not be read. */
int caps_file_text(const char *path, char *buf, size_t len);

/*
 * pstat runs with privileges the user who started it does not have: a
 * setuid or setgid bit, or file capabilities (AT_SECURE).
 */
bool caps_elevated(void);

/*
 * open(2) with the rights of the user who ran pstat, not pstat's own:
 * for -o and other files the user names. Returns the fd, or -1 with
 * errno set, as open does.
 */
int caps_open_user(const char *path, int flags, mode_t mode);

/* rename(2) and unlink(2) so too: 0, or -1 with errno. */
int caps_rename_user(const char *from, const char *to);
int caps_unlink_user(const char *path);

/* What the child drops before it executes the command. */
struct caps_drop {
	bool ids;		/* setuid or setgid pstat: be the user again */
	bool caps;		/* clear every capability set, ambient too */
	uid_t uid;		/* the real ids */
	gid_t gid;
};

/*
 * The command gets none of pstat's privileges: what the child must drop,
 * decided before it starts, as facts into *drop (the child, which shares
 * pstat's memory, drops them with system calls alone). 0 or -errno.
 */
int caps_exec_prepare(struct caps_drop *drop);

#endif
