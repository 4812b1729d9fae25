/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A real MPI program for tests/mpi-launchers.sh, built there with the
 * MPI library's own mpicc (not by make check): MPI_Init, an Allreduce
 * of the ranks, N write(2) calls, MPI_Finalize. Prints "rank R of S:
 * sum T" and exits 0 when the sum is right; with "pmi_fd", exits 3
 * when PMI_FD (the descriptor MPICH passes) is not set.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, size, sum = 0, devnull;
	long i, n = argc > 1 ? atol(argv[1]) : 0;

	if (argc > 2 && strcmp(argv[2], "pmi_fd") == 0 && !getenv("PMI_FD"))
		return 3;
	if (MPI_Init(&argc, &argv) != MPI_SUCCESS)
		return 4;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	devnull = open("/dev/null", O_WRONLY);
	for (i = 0; i < n * (rank + 1); i++)
		if (write(devnull, "x", 1) != 1)
			return 5;
	printf("rank %d of %d: sum %d\n", rank, size, sum);
	MPI_Finalize();
	return sum == size * (size - 1) / 2 ? 0 : 6;
}
