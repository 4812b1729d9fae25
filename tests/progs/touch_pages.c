/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A workload that takes at least P page faults by touching P fresh anonymous pages. */

#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE);
	volatile char *mem;
	char *end;
	long n, i;

	if (argc != 2)
		return 2;
	errno = 0;
	n = strtol(argv[1], &end, 10);
	if (errno || end == argv[1] || *end || n < 1 || page < 1)
		return 2;

	/* No MAP_POPULATE: each first write must fault the page in. */
	mem = mmap(NULL, (size_t)n * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return 1;
	for (i = 0; i < n; i++)
		mem[i * page] = 1;
	return 0;
}
