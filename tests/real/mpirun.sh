#!/usr/bin/env bash
# mpirun.sh MPIEXEC NP ARGS...: runs ARGS under mpirun with NP ranks on this one machine, as
# root if need be, more ranks than cores allowed, and a time limit so a hang fails the test.
set -u
mpiexec=$1 np=$2
shift 2
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Containers often forbid the cross-memory attach that shared-memory transport uses.
export OMPI_MCA_btl_vader_single_copy_mechanism=none
exec timeout 120 "$mpiexec" -np "$np" --oversubscribe "$@"
