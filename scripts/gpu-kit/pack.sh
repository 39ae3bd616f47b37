#!/usr/bin/env bash
# pack.sh BUILD_DIR KIT.tar.xz: a CUDA build of Narwhal and the runtime libraries it needs
# (Open MPI, PMIx, OpenBLAS, cJSON, FFTW, SimGrid and what they load; not glibc, not CUDA),
# packed for a GPU machine of the same architecture that lacks the Debian packages (the
# machines docs/experiments/h100.md ran on: CUDA there, nothing to install from). Unpack
# there from the repository root with `KIT=KIT.tar.xz . scripts/gpu-kit/env.sh`.
# BUILD_DIR must sit inside the repository (its tests name the repository's absolute path;
# env.sh links that path to wherever the repository lies there).
set -euo pipefail
build=${1:?usage: pack.sh BUILD_DIR KIT.tar.xz}
kit=$(realpath -m "${2:?usage: pack.sh BUILD_DIR KIT.tar.xz}")
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/opt/nwkit/lib"
pkgs="openmpi-bin libopenmpi3 openmpi-common libpmix2"
for p in $pkgs; do dpkg -L "$p"; done | grep -v '^/usr/share/\(doc\|man\|lintian\)' | sort -u |
  while read -r f; do if [ -f "$f" ] || [ -L "$f" ]; then echo "$f"; fi; done >"$stage/files.txt"
printf '%s\n' /etc/alternatives/mpirun /etc/alternatives/mpiexec >>"$stage/files.txt"
elfs=$( (find "$build" -type f -executable; grep '\.so' "$stage/files.txt"; echo /usr/bin/orterun) |
  while read -r f; do if file -L "$f" | grep -q ELF; then echo "$f"; fi; done)
# shellcheck disable=SC2086 # one word per file
ldd $elfs 2>/dev/null | awk '/=> \//{print $3}' | sort -u |
  grep -v -E '/(libc|libm|libpthread|libdl|librt|libstdc\+\+|libgcc_s|libresolv|libutil)\.so|/usr/local/|libcuda\.so|libnvidia' |
  grep -v "^$(realpath "$build")/" | # the build's own libraries stay in it: in /opt/nwkit/lib they
  # would come first (LD_LIBRARY_PATH before RUNPATH), and libnarwhal looks for its backend
  # plugins beside itself
  while read -r l; do cp -L "$l" "$stage/opt/nwkit/lib/"; done
tar -cf "$stage/sys.tar" -P --no-recursion -T "$stage/files.txt"
origin=$(git -C "$build" rev-parse --show-toplevel) # where the build's paths point
echo "$origin" >"$stage/origin"
inside=$(realpath --relative-to="$origin" "$build") # the build, from the repository root
tar -cf "$stage/build.tar" --exclude='*.o' --exclude='*.a' --exclude='CMakeFiles/*.dir' \
  -C "$origin" "$inside"
tar -C "$stage" -cJf "$kit" opt sys.tar build.tar origin
echo "wrote $kit ($(du -h "$kit" | cut -f1)); unpacks the build as $inside in the repository"
