/* SPDX-License-Identifier: MIT */
/*
 * likwid's marker calls on pstat's region channel (include/pstat.h): a
 * program written against likwid-marker.h (built with -DLIKWID_PERFMON)
 * runs under pstat --regions and gets its regions counted, with no
 * likwid, no access daemon and no perf_event_paranoid change.
 *
 * Installed as $(pkglibdir)/libpstat-likwid.so, whose soname is
 * likwid's, liblikwid.so.5, beside a link of that name: a program
 * linked with likwid's library runs on this one with
 * LD_LIBRARY_PATH=$(pkglibdir), and one built anew links
 * -L$(pkglibdir) -lpstat-likwid -Wl,-rpath,$(pkglibdir).
 *
 * Regions are the process's (every thread's counts between the first
 * start and the last stop), not likwid's per-thread ones; pstat prints
 * them, so likwid_markerGetRegion reports none, and the group calls
 * (likwid_markerNextGroup) change nothing: pstat's -e chooses.
 */
#include "../include/pstat.h"

#define SHIM __attribute__((visibility("default")))

/* As likwid.h declares them. */
void likwid_markerInit(void);
void likwid_markerThreadInit(void);
void likwid_markerNextGroup(void);
void likwid_markerClose(void);
int likwid_markerRegisterRegion(const char *tag);
int likwid_markerStartRegion(const char *tag);
int likwid_markerStopRegion(const char *tag);
int likwid_markerResetRegion(const char *tag);
void likwid_markerGetRegion(const char *tag, int *nr_events, double *events,
			    double *time, int *count);

SHIM void likwid_markerInit(void)
{
}

SHIM void likwid_markerThreadInit(void)
{
}

SHIM void likwid_markerNextGroup(void)
{
}

SHIM void likwid_markerClose(void)
{
}

SHIM int likwid_markerRegisterRegion(const char *tag)
{
	(void)tag;
	return 0;
}

SHIM int likwid_markerStartRegion(const char *tag)
{
	if (!tag)
		return -1;
	PSTAT_REGION_BEGIN(tag);
	return 0;
}

SHIM int likwid_markerStopRegion(const char *tag)
{
	if (!tag)
		return -1;
	PSTAT_REGION_END(tag);
	return 0;
}

SHIM int likwid_markerResetRegion(const char *tag)
{
	(void)tag;
	return 0;
}

SHIM void likwid_markerGetRegion(const char *tag, int *nr_events,
				 double *events, double *time, int *count)
{
	(void)tag;
	(void)events;
	if (nr_events)
		*nr_events = 0;
	if (time)
		*time = 0.0;
	if (count)
		*count = 0;
}
