/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * -e @FILE: any file's events parse, or the file is refused with a
 * reason, and a bad line is named by its number and shown alone with
 * the column of the fault; a file of one line means what that line
 * means to -e.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "evlist.h"
#include "evparse.h"
#include "fuzz.h"

#define PATH "events.txt"

static const uint8_t *file_data;
static size_t file_size;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_fake_sysfs(false);
	return 0;
}

/* The file, whatever the path: a memfd holding the input. */
static int open_input(const char *path, int flags, mode_t mode)
{
	int fd = memfd_create("evfile", MFD_CLOEXEC);

	FUZZ_CHECK(fd >= 0, "memfd_create: %s", strerror(errno));
	FUZZ_CHECK(strcmp(path, PATH) == 0, "opened '%s'", path);
	FUZZ_CHECK(write(fd, file_data, file_size) == (ssize_t)file_size,
		   "write: %s", strerror(errno));
	FUZZ_CHECK(lseek(fd, 0, SEEK_SET) == 0, "lseek: %s", strerror(errno));
	return fd;
}

static size_t count_lines(const uint8_t *data, size_t size)
{
	size_t n = 1, i;

	for (i = 0; i < size; i++)
		n += data[i] == '\n';
	return n;
}

static void check_error(const struct error *err, const uint8_t *data,
			size_t size)
{
	size_t line = 0;
	int end = 0;

	FUZZ_CHECK(err->reason[0], "no reason");
	if (err->where[0]) {
		FUZZ_CHECK(sscanf(err->where, PATH ":%zu: %n", &line,
				  &end) == 1 && err->where[end] == '\0',
			   "where '%s'", err->where);
		FUZZ_CHECK(line >= 1 && line <= count_lines(data, size),
			   "line %zu of %zu", line, count_lines(data, size));
	}
	if (!err->spec)
		return;
	FUZZ_CHECK(err->where[0], "a line shown, but not where it is");
	FUZZ_CHECK(err->buf && err->spec >= err->buf &&
		   err->spec <= err->buf + strlen(err->buf),
		   "the line shown is not the error's own");
	FUZZ_CHECK(!strchr(err->spec, '\n'), "the line shown spans lines: '%s'",
		   err->spec);
	FUZZ_CHECK(err->col <= strlen(err->spec),
		   "column %zu past the line's end (%zu): '%s': %s", err->col,
		   strlen(err->spec), err->spec, err->reason);
}

/* The one line of a file, as evparse_file takes it: no comment, no
 * blanks around it, no commas after it. NULL when it names nothing. */
static char *only_line(const uint8_t *data, size_t size)
{
	char *line = fuzz_strndup(data, strnlen((const char *)data, size));
	char *start = line + strspn(line, " \t"), *end = start + strlen(start);

	while (end > start && strchr(" \t\r\n,", end[-1]))
		*--end = '\0';
	if (!*start) {
		free(line);
		return NULL;
	}
	memmove(line, start, strlen(start) + 1);
	return line;
}

/* A file of one line, without a comment: as -e that line. */
static void check_as_spec(int ret, const struct error *err,
			  const struct evlist *el, const uint8_t *data,
			  size_t size)
{
	struct error spec_err = { 0 };
	struct evlist *spec_el = evlist_new();
	char *line = only_line(data, size);
	size_t i;
	int spec_ret;

	FUZZ_CHECK(spec_el, "no memory");
	if (!line) {
		FUZZ_CHECK(ret == -EINVAL &&
			   strstr(err->reason, "names no events"),
			   "an empty file: %d, '%s'", ret, err->reason);
		evlist_free(spec_el);
		return;
	}
	spec_ret = evparse(spec_el, line, &spec_err);
	FUZZ_CHECK(ret == spec_ret, "'%s': %d as a file, %d as -e", line, ret,
		   spec_ret);
	FUZZ_CHECK(evlist_count(el) == evlist_count(spec_el),
		   "'%s': %zu events as a file, %zu as -e", line,
		   evlist_count(el), evlist_count(spec_el));
	for (i = 0; i < evlist_count(el); i++)
		FUZZ_CHECK(strcmp(evsel_name(evlist_at(el, i)),
				  evsel_name(evlist_at(spec_el, i))) == 0,
			   "'%s': event %zu differs", line, i);
	if (ret == -EINVAL)
		FUZZ_CHECK(strcmp(err->reason, spec_err.reason) == 0 &&
			   err->col == spec_err.col &&
			   (!err->spec || strcmp(err->spec, line) == 0),
			   "'%s': '%s' at %zu as a file, '%s' at %zu as -e",
			   line, err->reason, err->col, spec_err.reason,
			   spec_err.col);
	error_fini(&spec_err);
	evlist_free(spec_el);
	free(line);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct error err = { 0 };
	struct evlist *el = evlist_new();
	int ret;

	FUZZ_CHECK(el, "no memory");
	file_data = data;
	file_size = size;
	ret = evparse_file(el, PATH, open_input, &err);
	FUZZ_CHECK(ret == 0 || ret == -EINVAL || ret == -ENOMEM, "%d", ret);
	if (ret == 0)
		FUZZ_CHECK(evlist_count(el) > 0, "good, but no events");
	if (ret == -EINVAL)
		check_error(&err, data, size);
	if (!memchr(data, '\n', size) && !memchr(data, '#', size))
		check_as_spec(ret, &err, el, data, size);
	error_fini(&err);
	FUZZ_CHECK(!err.buf && !err.spec, "error_fini left its text");
	evlist_free(el);
	return 0;
}
