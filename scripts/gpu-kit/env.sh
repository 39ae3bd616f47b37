# Sourced from the repository root on the GPU machine: KIT=KIT.tar.xz . scripts/gpu-kit/env.sh
# Unpacks the kit (pack.sh) once: the build where it was, the libraries in /opt/nwkit/lib,
# except those the machine already has (its own Open MPI is kept where it has one; Open MPI
# 4.1's libraries keep one ABI), and Open MPI's files where the machine has none. Then sets
# the library path and Open MPI's environment for root.
if [ ! -d /opt/nwkit ]; then
  mkdir -p /tmp/nwkit && tar -C /tmp/nwkit -xJf "${KIT:?KIT=path of the kit}"
  cp -r /tmp/nwkit/opt/nwkit /opt/
  for l in /opt/nwkit/lib/*; do
    b=$(basename "$l")
    if [ -e "/usr/lib/x86_64-linux-gnu/$b" ] || [ -e "/lib/x86_64-linux-gnu/$b" ]; then rm -f "$l"; fi
  done
  command -v mpirun >/dev/null || tar -C / -xPf /tmp/nwkit/sys.tar --skip-old-files
  tar -xf /tmp/nwkit/build.tar # where it was, from the repository root
  origin=$(cat /tmp/nwkit/origin) # the repository's path where the kit was built
  if [ "$(pwd)" != "$origin" ] && [ ! -e "$origin" ]; then
    mkdir -p "$(dirname "$origin")" && ln -s "$(pwd)" "$origin"
  fi
fi
nw_cudalib=$(dirname "$(find / -xdev -name 'libcublas.so.13' 2>/dev/null | head -1)")
export LD_LIBRARY_PATH=/opt/nwkit/lib:$nw_cudalib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
