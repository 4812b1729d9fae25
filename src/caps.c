/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pstat's privileges (libcap, user ids): asked, set aside, dropped. */
#include "config.h"

#ifndef PSTAT_STATIC
#include <dlfcn.h>
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/capability.h>
#include <sys/fsuid.h>
#include <unistd.h>

#include "caps.h"
#include "compat.h"

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

/*
 * libcap's functions. In a static pstat (PSTAT_STATIC) they are linked
 * in. Otherwise libcap is loaded the first time a path needs it
 * (--check, a failure's diagnosis, a privileged pstat's opens): linked
 * dynamically, it would be loaded by every start.
 */
struct libcap {
#ifndef PSTAT_STATIC
	void *lib;
#endif
	__typeof__(cap_get_proc) *get_proc;
	__typeof__(cap_get_file) *get_file;
	__typeof__(cap_dup) *dup;
	__typeof__(cap_free) *free;
	__typeof__(cap_to_text) *to_text;
	__typeof__(cap_to_name) *to_name;
	__typeof__(cap_clear_flag) *clear_flag;
	__typeof__(cap_set_proc) *set_proc;
	__typeof__(cap_get_ambient) *get_ambient;
	__typeof__(cap_max_bits) *max_bits;
};

#ifdef PSTAT_STATIC
static const struct libcap lc = {
	.get_proc = cap_get_proc, .get_file = cap_get_file, .dup = cap_dup,
	.free = cap_free, .to_text = cap_to_text, .to_name = cap_to_name,
	.clear_flag = cap_clear_flag, .set_proc = cap_set_proc,
	.get_ambient = cap_get_ambient, .max_bits = cap_max_bits,
};

/* Always there: the same test as the dynamic one's, for its callers. */
static int libcap(void)
{
	return lc.get_proc ? 0 : -ELIBACC;
}

const char *caps_library_error(void)
{
	return NULL;
}

static const char *library_why(void)
{
	return "libcap is not linked in";
}
#else
static struct libcap lc;
/* Why libcap could not be loaded (dlerror), for the words of it. */
static char lc_error[256];

#define LC_SYM(field, name) \
	(*(void **)&lc.field = dlsym(lc.lib, name)) != NULL

/* 0, or -ELIBACC when libcap.so.2 could not be loaded or lacks a
 * function pstat calls: caps_library_error says why. */
static int libcap(void)
{
	const char *why;

	if (lc.lib)
		return 0;
	if (lc_error[0])
		return -ELIBACC;
	lc.lib = dlopen("libcap.so.2", RTLD_NOW | RTLD_LOCAL);
	if (lc.lib && LC_SYM(get_proc, "cap_get_proc") &&
	    LC_SYM(get_file, "cap_get_file") && LC_SYM(dup, "cap_dup") &&
	    LC_SYM(free, "cap_free") && LC_SYM(to_text, "cap_to_text") &&
	    LC_SYM(to_name, "cap_to_name") &&
	    LC_SYM(clear_flag, "cap_clear_flag") &&
	    LC_SYM(set_proc, "cap_set_proc") &&
	    LC_SYM(get_ambient, "cap_get_ambient") &&
	    LC_SYM(max_bits, "cap_max_bits"))
		return 0;
	why = dlerror();
	snprintf(lc_error, sizeof(lc_error),
		 "libcap.so.2 could not be loaded (%s): install the Debian package libcap2",
		 why ? why : "out of memory");
	if (lc.lib)
		dlclose(lc.lib);
	lc.lib = NULL;
	return -ELIBACC;
}

const char *caps_library_error(void)
{
	return lc_error[0] ? lc_error : NULL;
}

/* Why libcap() failed: said once it has. */
static const char *library_why(void)
{
	return lc_error;
}

COMPAT_DLOPEN_NOTE(caps_note,
	"[{\"soname\":[\"libcap.so.2\"],\"feature\":\"capabilities\","
	"\"description\":\"--check, diagnoses, a privileged pstat's opens\","
	"\"priority\":\"required\"}]");
#endif

/* libcap's text of caps, freed; "?" when there is none. */
static int text_of(cap_t caps, char *buf, size_t len)
{
	char *text = caps ? lc.to_text(caps, NULL) : NULL;
	int ret = text ? 0 : -errno;

	snprintf(buf, len, "%s", text ? text : "?");
	lc.free(text);
	lc.free(caps);
	return ret;
}

int caps_text(char *buf, size_t len)
{
	int ret = libcap();

	if (ret < 0) {
		snprintf(buf, len, "? (%s)", library_why());
		return ret;
	}
	return text_of(lc.get_proc(), buf, len);
}

int caps_ambient_text(char *buf, size_t len)
{
	cap_value_t c, n;
	size_t used = 0;
	int ret = libcap();

	buf[0] = '\0';
	if (ret < 0)
		return ret;
	n = (cap_value_t)lc.max_bits();
	for (c = 0; c < n && used < len; c++) {
		char *name;

		if (lc.get_ambient(c) != 1)
			continue;
		name = lc.to_name(c);
		if (!name)
			ret = -ENOMEM;
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 used ? "," : "", name ? name : "?");
		lc.free(name);
	}
	return ret;
}

int caps_file_text(const char *path, char *buf, size_t len)
{
	cap_t caps;
	int ret = libcap();

	buf[0] = '\0';
	if (ret < 0)
		return ret;
	caps = lc.get_file(path);
	if (caps)
		return text_of(caps, buf, len);
	/* ENODATA: none; ENOENT and the like: none to be seen. */
	return errno == ENOMEM ? -ENOMEM : 0;
}

/* pstat's real and effective ids, asked once: it never changes them
 * (only its filesystem ids, for a moment: caps_open_user). */
struct ids {
	uid_t ruid, euid;
	gid_t rgid, egid;
};

static const struct ids *ids(void)
{
	static struct ids v;
	static bool known;
	uid_t suid;
	gid_t sgid;

	if (!known) {
		int saved = errno;

		getresuid(&v.ruid, &v.euid, &suid);
		getresgid(&v.rgid, &v.egid, &sgid);
		errno = saved;
		known = true;
	}
	return &v;
}

bool caps_elevated(void)
{
	const struct ids *i = ids();

	return getauxval(AT_SECURE) || i->ruid != i->euid ||
	       i->rgid != i->egid;
}

/*
 * The filesystem ids become the real ones and no capability is in
 * effect while the file opens, so the kernel checks exactly what the
 * user could do; then pstat's own state comes back.
 */
/*
 * fn(arg) with the rights of the user who ran pstat: file system ids
 * the real ones, no effective capability. Its result, or -1 with errno.
 */
static int as_user(int (*fn)(const void *arg), const void *arg)
{
	cap_t saved, none;
	int ret = -1, err;
	uid_t fsuid;
	gid_t fsgid;

	if (!caps_elevated())
		return fn(arg);
	if (libcap() < 0) {
		errno = ELIBACC;
		return -1;
	}
	saved = lc.get_proc();
	none = saved ? lc.dup(saved) : NULL;
	if (!none || lc.clear_flag(none, CAP_EFFECTIVE) < 0) {
		lc.free(saved);
		lc.free(none);
		errno = ENOMEM;
		return -1;
	}
	fsgid = (gid_t)setfsgid(getgid());
	fsuid = (uid_t)setfsuid(getuid());
	err = EPERM;
	if (lc.set_proc(none) == 0) {
		ret = fn(arg);
		err = errno;
	}
	setfsuid(fsuid);
	setfsgid(fsgid);
	lc.set_proc(saved);
	lc.free(saved);
	lc.free(none);
	errno = err;
	return ret;
}

struct open_args {
	const char *path;
	int flags;
	mode_t mode;
};

static int do_open(const void *arg)
{
	const struct open_args *a = arg;

	return open(a->path, a->flags, a->mode);
}

int caps_open_user(const char *path, int flags, mode_t mode)
{
	const struct open_args a = { path, flags, mode };

	return as_user(do_open, &a);
}

static int do_rename(const void *arg)
{
	const char *const *p = arg;

	return rename(p[0], p[1]);
}

int caps_rename_user(const char *from, const char *to)
{
	const char *const p[] = { from, to };

	return as_user(do_rename, p);
}

static int do_unlink(const void *arg)
{
	return unlink(arg);
}

int caps_unlink_user(const char *path)
{
	return as_user(do_unlink, path);
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
	const struct ids *i = ids();

	drop->uid = i->ruid;
	drop->gid = i->rgid;
	drop->ids = i->ruid != i->euid || i->rgid != i->egid;
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
