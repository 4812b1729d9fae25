/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Vendor event names through libpfm4, loaded and started only when a
 * name needs it: libpfm.so.4 brings 40,000 relocations and 2 MiB of
 * resident tables, and pfm_initialize() reads every PMU table of the
 * machine (8-30 ms), which a command line of perf's own names must never
 * pay for. So it is started the first time a name needs it, and in a
 * dynamically linked pstat not linked but dlopen()ed then.
 */
#include "config.h"

#ifndef PSTAT_STATIC
#include <dlfcn.h>
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "caps.h"
#include "compat.h"
#include "pfm.h"

#ifdef HAVE_LIBPFM4
/* After linux/perf_event.h, whose perf_event_attr libpfm4 then takes. */
#include <perfmon/pfmlib_perf_event.h>

/* libpfm4's soname: its ABI, as Debian's libpfm4 package ships it. */
#define LIBPFM_SONAME	"libpfm.so.4"
#ifndef PSTAT_STATIC
COMPAT_DLOPEN_NOTE(pfm_note,
	"[{\"soname\":[\"" LIBPFM_SONAME "\"],\"feature\":\"pfm\","
	"\"description\":\"vendor event names\","
	"\"priority\":\"recommended\"}]");
#endif

static int state;	/* 0: not started; 1: started; -ENODEV: refused */

/* The functions of libpfm4 pstat calls, once it is loaded. */
static struct {
	void *handle;
	pfm_err_t (*initialize)(void);
	void (*terminate)(void);
	const char *(*strerror)(int code);
	pfm_err_t (*get_pmu_info)(pfm_pmu_t pmu, pfm_pmu_info_t *info);
	int (*get_event_next)(int idx);
	pfm_err_t (*get_event_info)(int idx, pfm_os_t os,
				    pfm_event_info_t *info);
	pfm_err_t (*get_event_attr_info)(int idx, int attr, pfm_os_t os,
					 pfm_event_attr_info_t *info);
	pfm_err_t (*get_os_event_encoding)(const char *str, int dfl_plm,
					   pfm_os_t os, void *args);
} lib;

#ifdef PSTAT_STATIC
/* A static pstat: libpfm4 is linked in, and without relocations to
 * apply at start its tables cost nothing until used. */
static bool load(void)
{
	lib.handle = &lib;
	lib.initialize = pfm_initialize;
	lib.terminate = pfm_terminate;
	lib.strerror = pfm_strerror;
	lib.get_pmu_info = pfm_get_pmu_info;
	lib.get_event_next = pfm_get_event_next;
	lib.get_event_info = pfm_get_event_info;
	lib.get_event_attr_info = pfm_get_event_attr_info;
	lib.get_os_event_encoding = pfm_get_os_event_encoding;
	return true;
}

static void unload(void)
{
}
#else
/* *fn = the symbol name of libpfm4; whether it has one. */
static bool symbol(void *fn, size_t size, const char *name)
{
	void *sym = dlsym(lib.handle, name);

	memcpy(fn, &sym, size);
	return sym != NULL;
}

#define SYMBOL(field, name) symbol(&lib.field, sizeof(lib.field), name)

/* libpfm.so.4 mapped, and its functions found. Whether it is. */
static bool load(void)
{
	lib.handle = dlopen(LIBPFM_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!lib.handle)
		return false;
	if (SYMBOL(initialize, "pfm_initialize") &&
	    SYMBOL(terminate, "pfm_terminate") &&
	    SYMBOL(strerror, "pfm_strerror") &&
	    SYMBOL(get_pmu_info, "pfm_get_pmu_info") &&
	    SYMBOL(get_event_next, "pfm_get_event_next") &&
	    SYMBOL(get_event_info, "pfm_get_event_info") &&
	    SYMBOL(get_event_attr_info, "pfm_get_event_attr_info") &&
	    SYMBOL(get_os_event_encoding, "pfm_get_os_event_encoding"))
		return true;
	dlclose(lib.handle);
	lib.handle = NULL;
	return false;
}

static void unload(void)
{
	dlclose(lib.handle);
}
#endif

/*
 * libpfm4 reads LIBPFM_* (LIBPFM_FORCE_PMU, LIBPFM_VERBOSE, ...) with
 * plain getenv() as it starts. With file capabilities, the caller's
 * variables must not steer it: they are set aside while it starts, then
 * put back, as the same strings, for the command.
 */
static int start_without_env(void)
{
	char **saved = NULL, **grown, *name;
	size_t n = 0, i;
	int ret = PFM_ERR_NOMEM;
	char **e;

	for (;;) {
		for (e = environ; e && *e; e++)
			if (strncmp(*e, "LIBPFM_", 7) == 0 && strchr(*e, '='))
				break;
		if (!e || !*e)
			break;
		grown = realloc(saved, (n + 1) * sizeof(*saved));
		if (grown)
			saved = grown;
		name = strndup(*e, (size_t)(strchr(*e, '=') - *e));
		if (!grown || !name) {
			free(name);
			goto put_back;
		}
		saved[n++] = *e;
		unsetenv(name);
		free(name);
	}
	ret = lib.initialize();
put_back:
	for (i = 0; i < n; i++)
		putenv(saved[i]);
	free(saved);
	return ret;
}

/* libpfm4, started the first time a name needs it. 0 or -ENODEV. */
static int start(void)
{
	int ret;

	if (state == 0) {
		ret = !load() ? PFM_ERR_NOINIT
		      : caps_elevated() ? start_without_env() : lib.initialize();
		state = ret == PFM_SUCCESS ? 1 : -ENODEV;
	}
	return state < 0 ? state : 0;
}

bool pfm_built_in(void)
{
	return true;
}

bool pfm_started(void)
{
	return state != 0;
}

void pfm_fini(void)
{
	if (state == 1)
		lib.terminate();
	if (lib.handle)
		unload();
	memset(&lib, 0, sizeof(lib));
	state = 0;
}

static int pmu_info(int pmu, pfm_pmu_info_t *pi)
{
	memset(pi, 0, sizeof(*pi));
	pi->size = sizeof(*pi);
	return lib.get_pmu_info((pfm_pmu_t)pmu, pi);
}

/* A model of this machine's own (not libpfm4's generic perf tables). */
static bool detected(int pmu, pfm_pmu_info_t *pi)
{
	return pmu_info(pmu, pi) == PFM_SUCCESS && pi->is_present &&
	       pi->type != PFM_PMU_TYPE_OS_GENERIC;
}

int pfm_models(char *buf, size_t len, bool *amd)
{
	pfm_pmu_info_t pi;
	size_t at = 0;
	int pmu, others = 0, ret = start();

	if (amd)
		*amd = false;
	if (len)
		buf[0] = '\0';
	if (ret < 0)
		return ret;
	for (pmu = PFM_PMU_NONE + 1; pmu < PFM_PMU_MAX; pmu++) {
		if (!detected(pmu, &pi))
			continue;
		if (pi.type != PFM_PMU_TYPE_CORE) {
			others++;
			continue;
		}
		if (amd && strncmp(pi.name, "amd64", 5) == 0)
			*amd = true;
		if (at < len)
			at += (size_t)snprintf(buf + at, len - at, "%s%s (%s)",
					       at ? ", " : "", pi.name, pi.desc);
	}
	if (others && at < len)
		snprintf(buf + at, len - at, "%s%d uncore PMU%s",
			 at ? " and " : "", others, others > 1 ? "s" : "");
	return 0;
}

void pfm_unknown_hint(char *buf, size_t len)
{
	char models[160];
	bool amd;

	if (pfm_models(models, sizeof(models), &amd) < 0)
		snprintf(buf, len, "libpfm4 did not start; see 'pstat --list'");
	else if (!models[0])
		snprintf(buf, len,
			 "libpfm4 knows no PMU model of this CPU; see 'pstat --list'");
	else if (amd)
		snprintf(buf, len,
			 "libpfm4 detects %s here, whose names are AMD's, not perf's: RETIRED_INSTRUCTIONS, not ex_ret_instr; see 'pstat --list pfm'",
			 models);
	else
		snprintf(buf, len,
			 "libpfm4 detects %s here; see 'pstat --list pfm'",
			 models);
}

/* libpfm4's encoding of s, with privilege levels 0 and 3 by default. */
static int encode_str(const char *s, struct perf_event_attr *a, int *idx)
{
	pfm_perf_encode_arg_t arg;
	int ret;

	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);	/* libpfm4 leaves it to its caller */
	memset(&arg, 0, sizeof(arg));
	arg.attr = a;
	arg.size = sizeof(arg);
	ret = lib.get_os_event_encoding(s, PFM_PLM0 | PFM_PLM3,
					   PFM_OS_PERF_EVENT_EXT, &arg);
	*idx = arg.idx;
	return ret;
}

/*
 * libpfm4's own modifiers, as the letters of pstat's that mean the
 * same: with both levels asked by default, an excluded one was left
 * out by the name (:u, k=1, ...).
 */
static void mods_of(const struct perf_event_attr *a, char *m, size_t len)
{
	size_t n = 0;
	unsigned int i;

	if (a->exclude_kernel && !a->exclude_user && n + 1 < len)
		m[n++] = 'u';
	if (a->exclude_user && !a->exclude_kernel && n + 1 < len)
		m[n++] = 'k';
	if (a->exclude_user && a->exclude_kernel && n + 1 < len)
		m[n++] = 'h';
	for (i = 0; i < a->precise_ip && n + 1 < len; i++)
		m[n++] = 'p';
	if (a->exclusive && n + 1 < len)
		m[n++] = 'e';
	if (a->pinned && n + 1 < len)
		m[n++] = 'D';
	if (a->exclude_host && n + 1 < len)
		m[n++] = 'G';
	m[n] = '\0';
}

/* The model of the event at idx; whether it is libpfm4's generic one. */
static bool model_of(int idx, struct pfm_encoding *enc)
{
	pfm_event_info_t ei;
	pfm_pmu_info_t pi;

	memset(&ei, 0, sizeof(ei));
	ei.size = sizeof(ei);
	if (lib.get_event_info(idx, PFM_OS_PERF_EVENT_EXT, &ei) != PFM_SUCCESS ||
	    pmu_info(ei.pmu, &pi) != PFM_SUCCESS) {
		snprintf(enc->model, sizeof(enc->model), "?");
		enc->model_desc[0] = '\0';
		return false;
	}
	snprintf(enc->model, sizeof(enc->model), "%s", pi.name);
	snprintf(enc->model_desc, sizeof(enc->model_desc), "%s", pi.desc);
	return pi.type == PFM_PMU_TYPE_OS_GENERIC;
}

/* Why libpfm4 refused the part of str at off, of its event ev. */
static int refuse(struct error *err, const char *str, size_t off,
		  size_t ev_at, size_t ev_len, int code)
{
	int n = (int)strcspn(str + off, ":.");

	err->where[0] = '\0';
	err->spec = NULL;
	err->col = off;
	snprintf(err->hint, sizeof(err->hint),
		 "see 'pstat --list pfm %.*s'", (int)ev_len, str + ev_at);
	if (code == PFM_ERR_ATTR)
		snprintf(err->reason, sizeof(err->reason),
			 "'%.*s' is neither a umask nor a modifier of '%.*s'",
			 n, str + off, (int)ev_len, str + ev_at);
	else if (code == PFM_ERR_ATTR_VAL)
		snprintf(err->reason, sizeof(err->reason),
			 "bad value in '%.*s'", n, str + off);
	else if (code == PFM_ERR_ATTR_SET)
		snprintf(err->reason, sizeof(err->reason),
			 "'%.*s' is set twice", n, str + off);
	else if (code == PFM_ERR_UMASK && !str[off])
		snprintf(err->reason, sizeof(err->reason),
			 "'%.*s' needs a umask", (int)ev_len, str + ev_at);
	else if (code == PFM_ERR_UMASK)
		snprintf(err->reason, sizeof(err->reason),
			 "the umasks of '%.*s' from '%.*s' on do not go together",
			 (int)ev_len, str + ev_at, n, str + off);
	else
		snprintf(err->reason, sizeof(err->reason), "'%.*s': %s",
			 n, str + off, lib.strerror(code));
	return -EINVAL;
}

/*
 * libpfm4 says what is wrong, not where: the name is tried again part
 * by part (parts after the event, split at ':' or '.'), and the first
 * whose addition fails is the one at fault. A umask missing on the way
 * is not a fault yet.
 */
static int locate(const char *str, int code, struct error *err)
{
	const char *pmu_end = strstr(str, "::");
	size_t ev_at = pmu_end ? (size_t)(pmu_end - str) + 2 : 0;
	size_t ev_len = strcspn(str + ev_at, ":."), i = ev_at + ev_len, next;
	char *pre = strdup(str);
	struct perf_event_attr a;
	int idx, r;

	if (!pre)
		return -ENOMEM;
	for (; str[i]; i = next) {
		next = i + 1 + strcspn(str + i + 1, ":.");
		pre[next] = '\0';
		r = encode_str(pre, &a, &idx);
		pre[next] = str[next];
		if (r != PFM_SUCCESS && r != PFM_ERR_UMASK) {
			free(pre);
			return refuse(err, str, i + 1, ev_at, ev_len, r);
		}
	}
	free(pre);
	i = ev_at + ev_len;
	return refuse(err, str, str[i] ? i + 1 : i, ev_at, ev_len, code);
}

int pfm_encode(struct perf_event_attr *attr, const char *name, size_t len,
	       struct pfm_encoding *enc, struct error *err)
{
	struct perf_event_attr a;
	char *str;
	int idx, ret = start();

	if (ret < 0)
		return ret;
	str = strndup(name, len);
	if (!str)
		return -ENOMEM;
	ret = encode_str(str, &a, &idx);
	if (ret == PFM_ERR_NOTFOUND || ret == PFM_ERR_NOMEM) {
		free(str);
		return ret == PFM_ERR_NOMEM ? -ENOMEM : -ENOENT;
	}
	if (ret != PFM_SUCCESS) {
		ret = locate(str, ret, err);
		free(str);
		return ret;
	}
	free(str);
	/*
	 * perf's generic names are pstat's own: libpfm4's copies of them
	 * (TASK-CLOCK, in any case) are taken only as perf::NAME.
	 */
	if (model_of(idx, enc) && !memmem(name, len, "::", 2))
		return -ENOENT;
	/* The rest of the attr is pstat's: its modifiers, its defaults. */
	attr->type = a.type;
	attr->config = a.config;
	attr->config1 = a.config1;
	attr->config2 = a.config2;
	mods_of(&a, enc->mods, sizeof(enc->mods));
	return 0;
}

/* The event at idx, then its umasks, to fn. */
static int each_umask(pfm_event_fn *fn, void *arg, const pfm_pmu_info_t *pi,
		      int idx)
{
	pfm_event_attr_info_t ai;
	pfm_event_info_t ei;
	int a, ret;

	memset(&ei, 0, sizeof(ei));
	ei.size = sizeof(ei);
	if (lib.get_event_info(idx, PFM_OS_PERF_EVENT_EXT, &ei) != PFM_SUCCESS)
		return 0;
	ret = fn(arg, pi->name, pi->desc, ei.name, NULL, ei.desc);
	for (a = 0; ret == 0 && a < ei.nattrs; a++) {
		memset(&ai, 0, sizeof(ai));
		ai.size = sizeof(ai);
		if (lib.get_event_attr_info(idx, a, PFM_OS_PERF_EVENT_EXT,
					    &ai) != PFM_SUCCESS ||
		    ai.type != PFM_ATTR_UMASK)
			continue;
		ret = fn(arg, pi->name, pi->desc, ei.name, ai.name, ai.desc);
	}
	return ret;
}

int pfm_each_event(pfm_event_fn *fn, void *arg)
{
	pfm_pmu_info_t pi;
	int pmu, idx, ret = start();

	for (pmu = PFM_PMU_NONE + 1; ret == 0 && pmu < PFM_PMU_MAX; pmu++) {
		if (!detected(pmu, &pi))
			continue;
		for (idx = pi.first_event; ret == 0 && idx != -1;
		     idx = lib.get_event_next(idx))
			ret = each_umask(fn, arg, &pi, idx);
	}
	return ret;
}

#else /* !HAVE_LIBPFM4: every answer is that it is not built in. */

bool pfm_built_in(void)
{
	return false;
}

bool pfm_started(void)
{
	return false;
}

void pfm_fini(void)
{
}

int pfm_models(char *buf, size_t len, bool *amd)
{
	if (len)
		buf[0] = '\0';
	if (amd)
		*amd = false;
	return -EOPNOTSUPP;
}

void pfm_unknown_hint(char *buf, size_t len)
{
	snprintf(buf, len,
		 "see 'pstat --list'; vendor names need libpfm4, which this pstat is built without");
}

int pfm_encode(struct perf_event_attr *attr, const char *name, size_t len,
	       struct pfm_encoding *enc, struct error *err)
{
	return -EOPNOTSUPP;
}

int pfm_each_event(pfm_event_fn *fn, void *arg)
{
	return -EOPNOTSUPP;
}

#endif
