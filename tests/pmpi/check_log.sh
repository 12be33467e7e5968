#!/bin/sh
# check_log.sh MPIEXEC LIBNBO_MPI PROGRAM - run PROGRAM as a user would
# (LD_PRELOAD=... mpiexec ...) with NBO_PMPI_LOG=1 and check that the log
# names libnbo for MPI_COMM_WORLD and MPI for the intercommunicator.
mpiexec=$1 lib=$2 prog=$3
out=$(LD_PRELOAD=$lib NBO_PMPI_LOG=1 timeout 50 "$mpiexec" -n 2 "$prog" --expect=nbo --ncomms=2 2>&1)
rc=$?
echo "$out"
[ $rc -eq 0 ] || { echo "FAIL: program exited $rc"; exit 1; }
echo "$out" | grep -q "libnbo-mpi: communicator MPI_COMM_WORLD (size 2) served by libnbo: engine mpi, progress thread" ||
    { echo "FAIL: no log line saying libnbo serves MPI_COMM_WORLD"; exit 1; }
echo "$out" | grep -q "served by MPI: intercommunicator" ||
    { echo "FAIL: no log line saying MPI serves the intercommunicator"; exit 1; }
echo "PASS: the log names the engine of each communicator"
