#!/usr/bin/env bash
# build-starpu.sh PREFIX: StarPU 1.3.10 built with CUDA (Debian's libstarpu-dev has none) and
# installed in PREFIX, for benchmarks/starpu.sh's GPU rows (Narwhal against StarPU
# on a GPU, Fig. 22 of the Unicorn paper). The source is Debian bookworm's own starpu
# 1.3.10+dfsg package, the version the CPU rows run, fetched with apt-get source through a
# private source list (the machine's apt configuration is left alone); the toolkit is
# /usr/local/cuda (CUDA_DIR to change it).
#
# Two changes make 1.3.10 build against CUDA 13, which postdates it:
# - cudaDeviceProp lost computeMode: StarPU's check for exclusive-thread mode (it refuses to
#   run there with peer copies) is compiled out by configuring with --disable-cuda-memcpy-peer,
#   which only matters between two GPUs;
# - cublas_v2.h now refuses to follow cublas.h (it tests cublas.h's include guard), and
#   src/drivers/cuda/starpu_cublas.c includes both, for the legacy calls it makes (cublasInit,
#   cublasSetKernelStream; libcublas.so.13 still exports them): the guard is undefined
#   between the two.
# --enable-maxcpus=128: configured here, StarPU otherwise enabled only 2 CPU workers of the
# GPU machine's 16 ("16 CPU cores requested. Only 2 enabled"), and the comparison was void.
# --disable-sc-hypervisor is not passed: 1.3.10's configure enables the hypervisor for either
# spelling of the option, and it then needs uthash.h, which Debian's source leaves out.
#
# Then build the kit against it: PKG_CONFIG_PATH=PREFIX/lib/pkgconfig cmake -S . -B
# .devkit/build ... (benchmarks/starpu_sgemm gets its CUDA codelet), and pack.sh carries
# PREFIX's libraries with the build. About 15 minutes on 2 cores.
set -euo pipefail
prefix=$(realpath -m "${1:?usage: build-starpu.sh PREFIX}")
cuda=${CUDA_DIR:-/usr/local/cuda}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
mkdir -p lists/partial
echo "deb-src http://deb.debian.org/debian bookworm main" >src.list
apt=(-o Dir::Etc::sourcelist="$work/src.list" -o Dir::Etc::sourceparts=- -o Dir::State::Lists="$work/lists")
apt-get "${apt[@]}" update >/dev/null 2>&1
apt-get "${apt[@]}" source --download-only starpu=1.3.10+dfsg-2 >/dev/null 2>&1
tar xzf starpu_1.3.10+dfsg.orig.tar.gz
src=$work/starpu-1.3.10+dfsg
cublas=$src/src/drivers/cuda/starpu_cublas.c
grep -q '^#include <cublas.h>$' "$cublas" || { echo "build-starpu.sh: $cublas is not 1.3.10's"; exit 1; }
sed -i 's|^#include <cublas.h>$|#include <cublas.h>\n#undef CUBLAS_H_ /* CUDA 13: cublas_v2.h refuses to follow it */|' "$cublas"
mkdir "$src/b" && cd "$src/b"
../configure --prefix="$prefix" --enable-cuda --with-cuda-dir="$cuda" --disable-cuda-memcpy-peer \
  --disable-opencl --disable-mpi --disable-fortran --disable-build-doc --disable-build-examples \
  --disable-static --disable-build-tests --disable-socl --disable-starpufft --disable-openmp --disable-mlr \
  --without-fxt --disable-hdf5 --enable-maxcpus=128 >configure.log 2>&1 || { tail -20 configure.log; exit 1; }
grep -q 'CUDA   enabled: yes' configure.log || { echo "build-starpu.sh: configure found no CUDA in $cuda"; exit 1; }
make -j"$(nproc)" >make.log 2>&1 || { grep -m5 -E ' error:|Error [0-9]' make.log; exit 1; }
make install >install.log 2>&1
echo "StarPU 1.3.10 with CUDA in $prefix (pkg-config: $prefix/lib/pkgconfig/starpu-1.3.pc)"
