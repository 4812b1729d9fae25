/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pstat's privileges (libcap, user ids): asked, set aside, dropped. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/capability.h>
#include <sys/fsuid.h>
#include <unistd.h>

#include "caps.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif

static const cap_value_t cap_values[CAPS_N] = {
	[CAPS_PERFMON] = CAP_PERFMON,
	[CAPS_SYS_ADMIN] = CAP_SYS_ADMIN,
	[CAPS_SYS_PTRACE] = CAP_SYS_PTRACE,
};

/* Straight from capget(2): libcap's cap_get_proc would allocate, and
 * an answer lost to memory would be a capability pstat lacks. */
bool caps_have(enum caps_which which)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	unsigned int bit = (unsigned int)cap_values[which];

	memset(data, 0, sizeof(data));
	if (capget(&hdr, data) < 0 || bit / 32 >= _LINUX_CAPABILITY_U32S_3)
		return false;
	return data[bit / 32].effective & (1u << (bit % 32));
}

/* libcap's text of caps, freed; "?" when there is none. */
static int text_of(cap_t caps, char *buf, size_t len)
{
	char *text = caps ? cap_to_text(caps, NULL) : NULL;
	int ret = text ? 0 : -errno;

	snprintf(buf, len, "%s", text ? text : "?");
	cap_free(text);
	cap_free(caps);
	return ret;
}

int caps_text(char *buf, size_t len)
{
	return text_of(cap_get_proc(), buf, len);
}

int caps_ambient_text(char *buf, size_t len)
{
	cap_value_t c, n = (cap_value_t)cap_max_bits();
	size_t used = 0;
	int ret = 0;

	buf[0] = '\0';
	for (c = 0; c < n && used < len; c++) {
		char *name;

		if (cap_get_ambient(c) != 1)
			continue;
		name = cap_to_name(c);
		if (!name)
			ret = -ENOMEM;
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 used ? "," : "", name ? name : "?");
		cap_free(name);
	}
	return ret;
}

int caps_file_text(const char *path, char *buf, size_t len)
{
	cap_t caps = cap_get_file(path);

	buf[0] = '\0';
	if (caps)
		return text_of(caps, buf, len);
	/* ENODATA: none; ENOENT and the like: none to be seen. */
	return errno == ENOMEM ? -ENOMEM : 0;
}

bool caps_elevated(void)
{
	return getauxval(AT_SECURE) || getuid() != geteuid() ||
	       getgid() != getegid();
}

/*
 * The filesystem ids become the real ones and no capability is in
 * effect while the file opens, so the kernel checks exactly what the
 * user could do; then pstat's own state comes back.
 */
int caps_open_user(const char *path, int flags, mode_t mode)
{
	cap_t saved, none;
	int fd = -1, err;
	uid_t fsuid;
	gid_t fsgid;

	if (!caps_elevated())
		return open(path, flags, mode);
	saved = cap_get_proc();
	none = saved ? cap_dup(saved) : NULL;
	if (!none || cap_clear_flag(none, CAP_EFFECTIVE) < 0) {
		cap_free(saved);
		cap_free(none);
		errno = ENOMEM;
		return -1;
	}
	fsgid = (gid_t)setfsgid(getgid());
	fsuid = (uid_t)setfsuid(getuid());
	err = EPERM;
	if (cap_set_proc(none) == 0) {
		fd = open(path, flags, mode);
		err = errno;
	}
	setfsuid(fsuid);
	setfsgid(fsgid);
	cap_set_proc(saved);
	cap_free(saved);
	cap_free(none);
	errno = err;
	return fd;
}

/* Whether the process holds any capability in any set, from capget(2)
 * (libcap is left for the paths that print capabilities). */
static bool holds_capabilities(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	size_t i;

	memset(data, 0, sizeof(data));
	if (capget(&hdr, data) < 0)
		return true;	/* unknown: drop what there may be */
	for (i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
		if (data[i].effective || data[i].permitted ||
		    data[i].inheritable)
			return true;
	return false;
}

int caps_exec_prepare(struct caps_drop *drop)
{
	drop->uid = getuid();
	drop->gid = getgid();
	drop->ids = drop->uid != geteuid() || drop->gid != getegid();
	/*
	 * Root gets every capability back at exec anyway, and needs them
	 * to find the command where only root may look. No
	 * PR_SET_NO_NEW_PRIVS: the command must behave as if the user had
	 * run it, set-user-ID programs included, and pstat's own
	 * privileges are gone by then. The bounding set stays the user's
	 * for the same reason.
	 */
	drop->caps = drop->uid != 0 && holds_capabilities();
	return 0;
}
