/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pstat --explain: each event's group and perf_event_attr, opening nothing. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>

#include "evlist.h"
#include "explain.h"

static const char *const type_names[] = {
	[PERF_TYPE_HARDWARE] = "PERF_TYPE_HARDWARE",
	[PERF_TYPE_SOFTWARE] = "PERF_TYPE_SOFTWARE",
	[PERF_TYPE_TRACEPOINT] = "PERF_TYPE_TRACEPOINT",
	[PERF_TYPE_HW_CACHE] = "PERF_TYPE_HW_CACHE",
	[PERF_TYPE_RAW] = "PERF_TYPE_RAW",
	[PERF_TYPE_BREAKPOINT] = "PERF_TYPE_BREAKPOINT",
};

/* perf's layout: the field name in 32 columns, then the value. */
static void field(FILE *f, const char *name, uint64_t v, bool hex)
{
	if (!v)
		return;
	if (hex)
		fprintf(f, "  %-32s %#" PRIx64 "\n", name, v);
	else
		fprintf(f, "  %-32s %" PRIu64 "\n", name, v);
}

static void read_format(FILE *f, uint64_t rf)
{
	static const struct {
		uint64_t bit;
		const char *name;
	} bits[] = {
		{ PERF_FORMAT_TOTAL_TIME_ENABLED, "TOTAL_TIME_ENABLED" },
		{ PERF_FORMAT_TOTAL_TIME_RUNNING, "TOTAL_TIME_RUNNING" },
		{ PERF_FORMAT_ID, "ID" },
		{ PERF_FORMAT_GROUP, "GROUP" },
	};
	const char *sep = "";
	size_t i;

	fprintf(f, "  %-32s ", "read_format");
	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
		if (rf & bits[i].bit) {
			fprintf(f, "%s%s", sep, bits[i].name);
			sep = "|";
		}
	}
	fputc('\n', f);
}

void explain_attr(FILE *f, const struct perf_event_attr *a)
{
	if (a->type < sizeof(type_names) / sizeof(type_names[0]))
		fprintf(f, "  %-32s %u (%s)\n", "type", a->type,
			type_names[a->type]);
	else
		fprintf(f, "  %-32s %u (a PMU's own)\n", "type", a->type);
	field(f, "size", a->size, false);
	field(f, "config", a->config, true);
	read_format(f, a->read_format);
	field(f, "disabled", a->disabled, false);
	field(f, "inherit", a->inherit, false);
	field(f, "inherit_stat", a->inherit_stat, false);
	field(f, "comm", a->comm, false);
	field(f, "task", a->task, false);
	field(f, "watermark", a->watermark, false);
	field(f, "wakeup_watermark", a->wakeup_watermark, false);
	field(f, "pinned", a->pinned, false);
	field(f, "exclusive", a->exclusive, false);
	field(f, "exclude_user", a->exclude_user, false);
	field(f, "exclude_kernel", a->exclude_kernel, false);
	field(f, "exclude_hv", a->exclude_hv, false);
	field(f, "exclude_idle", a->exclude_idle, false);
	field(f, "enable_on_exec", a->enable_on_exec, false);
	field(f, "precise_ip", a->precise_ip, false);
	field(f, "exclude_host", a->exclude_host, false);
	field(f, "exclude_guest", a->exclude_guest, false);
	field(f, "bp_type", a->bp_type, false);
	field(f, a->type == PERF_TYPE_BREAKPOINT ? "bp_addr" : "config1",
	      a->config1, true);
	field(f, a->type == PERF_TYPE_BREAKPOINT ? "bp_len" : "config2",
	      a->config2, a->type != PERF_TYPE_BREAKPOINT);
}

int explain_print(FILE *f, const struct evlist *el)
{
	size_t i, n = evlist_count(el);

	for (i = 0; i < n; i++) {
		const struct evsel *e = evlist_at(el, i);
		struct evlist_group g = evlist_group_of(el, i);

		fprintf(f, "%s%s (group %zu%s)\n", i ? "\n" : "", evsel_name(e),
			g.index, g.n == 1 ? "" : g.first == i ? ", leader"
							      : ", member");
		explain_attr(f, evsel_attr(e));
		if (evsel_tool(e))
			fprintf(f, "  (a tool event: pstat counts it in ns; the kernel keeps a dummy counter)\n");
		if (evsel_precise_max(e))
			fprintf(f, "  (:P: precise_ip steps down from 3 until the kernel takes it)\n");
		if (evsel_scale(e) != 1.0)
			fprintf(f, "  (scale %g from sysfs)\n", evsel_scale(e));
		if (evsel_unit(e)[0] && !evsel_tool(e))
			fprintf(f, "  (unit %s from sysfs)\n", evsel_unit(e));
		if (evsel_source(e))
			fprintf(f, "  (encoded by %s)\n", evsel_source(e));
	}
	errno = 0;
	if (fflush(f) != 0 || ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}
