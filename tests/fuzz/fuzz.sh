#!/usr/bin/env bash
# fuzz.sh BUILD_DIR [--minutes M] [--seed S] [--jobs N] [--out DIR] [--timeout S]
#         [--inputs N] [--only K]
#
# A mutation fuzzer of everything the narwhal tool reads: command lines of
# `narwhal run`, JSON run files, sweep files and SimGrid platforms, plus the small commands
# (plot, critical-path, reproduce, calibrate). It starts from valid seeds (each app on small sizes and
# platforms/small.xml, the sweeps of experiments/ shrunk to a few tiny points, the platforms of
# platforms/ and ones gen-platform.sh writes) and mutates them: option names and values, JSON
# types, keys and text, XML attributes, elements and text. Each input runs under a timeout and
# a memory limit and is put in one class:
#
#   ok          exit 0 with the output the command promises (ok-with-stderr: and something on
#               stderr, a warning: reported, not a finding)
#   refused     exit 2, one line on stderr naming a program ("narwhal: ..."), nothing on stdout
#   failed      exit 1, one line on stderr (a sweep: its point's line and its own)
#   CRASH       a signal, a sanitizer report, a SimGrid abort or backtrace
#   HANG        still running at the timeout, and again given three times as long (the
#               machine may be shared); slow: the same for an input that may ask for a large
#               problem (a new --n, --block, --app or --app-param, a number from 10^4 on):
#               reported, not rerun, the first 50 kept in OUT/slow to be run on a normal build
#   MEMORY      ASan's hard RSS limit (a normal build: malloc fails at ulimit -v, exit 1)
#   MESSAGE     exit 1 or 2 with an empty or multi-line stderr, or exit 2 with output on stdout
#   SILENT      exit 0 without the output promised (no report, JSON that does not parse)
#   ACCEPTED    exit 0 (or 1) for an input the README calls invalid (an unknown option, a
#               value outside an option's choices, malformed JSON, a zero bandwidth, ...):
#               only mutations whose invalidity is certain are labelled so
#   DIFFERS     exit 3: a configuration the tool accepted computed a wrong result
#   STATUS      any other exit status
#
# Upper-case classes are findings: each input is kept as a reproducer under OUT/findings/CLASS/K
# (cmd.sh runs it again from that directory; its files, stdout, stderr and status beside it).
# Counts per class and inputs per minute are printed at the end, with one example of each
# distinct finding. Input K is a function of --seed and K alone (an LCG of our own, so bash's
# RANDOM and its version do not matter): `--only K` makes and runs that input again. Use an
# ASan+UBSan build (cmake -DNW_SANITIZE=ON) to see memory errors; docs/experiments/fuzzing.md.
# shellcheck disable=SC2034  # the pools are read through pick's nameref
set -euo pipefail
export LC_ALL=C # byte semantics for the mutations, whatever the caller's locale

src=$(cd "$(dirname "$0")/../.." && pwd)
small=$src/platforms/small.xml

usage() {
  echo "usage: tests/fuzz/fuzz.sh BUILD_DIR [--minutes M] [--seed S] [--jobs N] [--out DIR]" \
    "[--timeout S] [--inputs N] [--only K]" >&2
  exit 2
}
die() {
  echo "fuzz: $*" >&2
  exit 2
}

# ---------------------------------------------------------------------------------------------
# Arguments
# ---------------------------------------------------------------------------------------------
[ $# -ge 1 ] || usage
build=$1
shift
minutes=5 seed=1 jobs=2 out="" timeout_s=20 max_inputs=0 only=""
while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || usage
  case $1 in
  --minutes) minutes=$2 ;;
  --seed) seed=$2 ;;
  --jobs) jobs=$2 ;;
  --out) out=$2 ;;
  --timeout) timeout_s=$2 ;;
  --inputs) max_inputs=$2 ;;
  --only) only=$2 ;;
  *) usage ;;
  esac
  shift 2
done
[[ $minutes =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "--minutes '$minutes': a number of minutes"
[[ $seed =~ ^[0-9]{1,9}$ ]] || die "--seed '$seed': a whole number below 10^9"
[[ $jobs =~ ^[1-9][0-9]?$ ]] || die "--jobs '$jobs': 1 to 99"
[[ $timeout_s =~ ^[1-9][0-9]*$ ]] || die "--timeout '$timeout_s': whole seconds"
[[ $max_inputs =~ ^[0-9]+$ ]] || die "--inputs '$max_inputs': a whole number"
[[ -z $only || $only =~ ^[0-9]+$ ]] || die "--only '$only': an input number"
build=$(cd "$build" 2>/dev/null && pwd) || die "$build: no such directory"
nw=$build/narwhal
[ -x "$nw" ] || die "$build/narwhal: not built"
command -v jq >/dev/null || die "needs jq (apt-get install jq): it shrinks the seeds and checks JSON output"
out=${out:-$build/fuzz-$seed}
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ -z "$only" ]; then # a new run; --only K adds to the last one's directory
  rm -rf "$out/work" "$out/findings" "$out/seeds" "$out/slow"
  : >"$out/log.tsv"
fi
mkdir -p "$out/work" "$out/findings" "$out/seeds"

# ---------------------------------------------------------------------------------------------
# The environment every input runs in
# ---------------------------------------------------------------------------------------------
# The repository's sanitizer settings (scripts/random-programs.sh, tests/cli), with an exit
# status of our own for a report and stack traces in it. ASan reserves terabytes of address
# space, so `ulimit -v` cannot bound it: its own RSS limits do (malloc returns NULL past the
# soft one, as it would under ulimit -v; the hard one ends the process).
asan=0
# (grep reads the whole of ldd's output: `ldd | grep -q` under pipefail fails at random when
# grep exits first and ldd dies of SIGPIPE, and the build was then taken for a normal one.)
if grep -q libasan <<<"$(ldd "$nw" 2>/dev/null)"; then
  asan=1
  export ASAN_OPTIONS="detect_leaks=0:abort_on_error=0:exitcode=86:allocator_may_return_null=1:soft_rss_limit_mb=3072:hard_rss_limit_mb=4096:max_allocation_size_mb=3072"
  export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:exitcode=86"
fi
unset OMPI_COMM_WORLD_RANK || true

# bounded_run SECONDS ARGS...: runs the narwhal tool with ARGS in the current directory,
# bounded: time (timeout, then KILL), memory (4 GiB), file size (1 GiB), no core files; stdout,
# stderr and the status into files.
bounded_run() {
  local limit=$1
  shift
  (
    ulimit -c 0
    ulimit -f 1048576
    [ "$asan" = 1 ] || ulimit -v 4194304
    exec timeout -k 5 "$limit" "$nw" "$@" </dev/null >stdout.txt 2>stderr.txt
  ) && rc=0 || rc=$?
  echo "$rc" >status.txt
  # ASan's note that a malloc failed (it returns NULL, as malloc does at ulimit -v): what the
  # tool then says is the message.
  sed -i '/^==[0-9]*==WARNING: AddressSanitizer failed to allocate/d' stderr.txt
}

# ---------------------------------------------------------------------------------------------
# Random numbers: a 31-bit LCG of our own, reseeded per input from (--seed, K)
# ---------------------------------------------------------------------------------------------
rng=1
reseed() { rng=$(((seed * 7919 + $1 * 104729 + 12345) % 2147483648)); }
# rand N: R = a number from 0 to N-1 (never in a $(...): the state lives in this shell).
rand() {
  rng=$(((rng * 1103515245 + 12345) % 2147483648))
  R=$(((rng >> 7) % $1))
}
# pick ARRAY: P = one of its elements.
pick() {
  local -n _a=$1
  rand "${#_a[@]}"
  P=${_a[R]}
}
# chance N: true N times in 100.
chance() {
  rand 100
  [ "$R" -lt "$1" ]
}

# ---------------------------------------------------------------------------------------------
# What the tool takes: options and their kinds from `narwhal run --help`, apps and policies
# from its own refusals, so the fuzzer follows the tool
# ---------------------------------------------------------------------------------------------
declare -A KIND CHOICES
OPTS=()
while read -r name arg _; do
  name=${name#--}
  case $name in "[no-]verify") name=verify ;; esac
  OPTS+=("$name")
  case $arg in
  "" | "[default:") KIND[$name]=flag ;;
  *"|"*)
    KIND[$name]=choice
    CHOICES[$name]="|$arg|"
    ;;
  N) KIND[$name]=num ;;
  KEY=VALUE) KIND[$name]=param ;;
  KEY:VALUE) KIND[$name]=cfg ;;
  SETTING) KIND[$name]=log ;;
  *) KIND[$name]=text ;;
  esac
done < <("$nw" run --help | grep '^  --')
[ "${#OPTS[@]}" -gt 30 ] || die "cannot read the options from narwhal run --help"
# Whole numbers exact to 2^64 (a string of digits in a run file too); steal-retry is seconds.
declare -A U64=([n]=1 [block]=1 [seed]=1 [gpu-mem]=1)
# The list a refusal names, "(one of: a, b)" or "(built in: a, b)", as "|a|b|".
refusal_list() {
  { "$nw" run "$@" 2>&1 || true; } | sed -n 's/.*(\(one of\|built in\): \([^)]*\)).*/|\2|/p' |
    sed 's/, /|/g'
}
APPS=$(refusal_list --app zz-none)
POLICIES=$(refusal_list --sched zz-none)
[ -n "$APPS" ] && [ -n "$POLICIES" ] || die "cannot read the apps and policies from narwhal run"
# app-param keys some app takes (README and each app's check_args): any other key is refused.
PARAM_KEYS="|copies|radius|channels|pattern|iterations|nested|cols|clusters|dims|steps|flops|"

# Whether NAME is an option of run, or --no-NAME of a flag.
is_option() {
  local n=$1
  [ -n "$n" ] || return 1
  [ -n "${KIND[$n]+x}" ] && return 0
  [[ $n == no-* && -n ${n#no-} && ${KIND[${n#no-}]-} == flag ]]
}
# K: the kind of option NAME; an unknown name (a mutation's) is rendered as text with a value.
kind_of() {
  K=text
  [ -z "$1" ] || K=${KIND[$1]-text}
  [[ $1 != no-?* || ${KIND[${1#no-}]-} != flag ]] || K=flag # --no-verify, --no-json, ...
}

# ---------------------------------------------------------------------------------------------
# Value pools
# ---------------------------------------------------------------------------------------------
long5000=$(printf 'a%.0s' {1..5000})
digits300=$(printf '9%.0s' {1..300})
# Text that is wrong wherever it goes (or nearly): empty, control characters, unicode, format
# directives, things that look like options.
BAD_TEXT=("" "abc" $'a\nb' $'\x01' $'\x7f' $'\x1b[2J' "é" "日本語" "５" "∞" "%s%n%x" "$long5000"
  "--" "--json" "-" "=" ":" " " "null" "NaN" $'on\n' "ON" "on " "0" "-1" $'\t' "\\" '"' "'" "a,b"
  "{}" "[]")
NUM_GOOD=(0 1 2 3 4 7 16 64 1000000 1000001 65536 2147483648 4294967296 9007199254740993
  18446744073709551615 99999999999 0000000000000000000064)
NUM_BAD=(-1 1.5 " 5" "5 " +5 0x10 nan inf -0 1e3 18446744073709551616 99999999999999999999999
  "$digits300" "" abc "١٢" "５" $'1\n' "1_000")
PARAM_VALS=("copies=2" "radius=2" "channels=3" "pattern=stencil" "iterations=2" "nested=0"
  "cols=128" "clusters=4" "dims=3" "steps=2" "flops=100" "" "=" "=1" "k" "zzz=1" "copies="
  "copies=-1" "copies=abc" "copies=1e999" "a=b=c" "$long5000=1" "iterations=$digits300"
  "pattern=$long5000" "steps=0" "flops=18446744073709551616" $'radius=1\n')
CFG_VALS=("network/model:LV08" "network/model:CM02" "network/model:Constant" "network/crosstraffic:0"
  "network/TCP-gamma:0" "network/TCP-gamma:4194304" "network/latency-factor:0.5"
  "network/bandwidth-factor:0.9" "cpu/optim:TI" "cpu/optim:Full" "network/optim:Full"
  "maxmin/precision:1e-9" "maxmin/precision:0.1" "surf/precision:1e-9" "host/model:compound"
  "network/model:Nope" "maxmin/precision:-1" "maxmin/precision:abc" "network/latency-factor:-1"
  "network/bandwidth-factor:0" "network/TCP-gamma:-1" "nosuch/key:1" "help" "x" ":x" "a:"
  "precision/work-amount:1e-300" "network/weight-S:-5" "cpu/maxmin-selective-update:maybe")
LOG_VALS=("root.thres:critical" "root.thres:error" "xbt_cfg.thres:warning" "garbage"
  "root.fmt:%m" "root.thres:" "no_such_category.thres:info" "root.thres:nope" ".thres:info")
CONFIG_PATHS=("nope.json" "" "." "/dev/null" "/" "$long5000" $'a\nb.json')

# JSON literal of a string (J).
json_str() {
  local s=$1 c
  s=${s//\\/\\\\}
  s=${s//\"/\\\"}
  s=${s//$'\n'/\\n}
  s=${s//$'\t'/\\t}
  s=${s//$'\r'/\\r}
  if [[ $s == *[$'\x01'-$'\x1f'$'\x7f']* ]]; then
    for c in {1..31} 127; do
      s=${s//$(printf "\\x$(printf %02x "$c")")/$(printf '\\u%04x' "$c")}
    done
  fi
  J="\"$s\""
}

# ---------------------------------------------------------------------------------------------
# Expectations: EXPECT is "invalid" (the README says the tool refuses it: exit 2 whatever else
# the input holds), "invalid-run" (refused once the run is set up: not with --dry-run, which
# stops before, nor on the real backend, which reads no platform), or "any"
# ---------------------------------------------------------------------------------------------
# A whole number the tool reads exactly: digits only, below 2^64.
is_u64() {
  [[ $1 =~ ^[0-9]+$ ]] || return 1
  local d=${1#"${1%%[!0]*}"} # without its leading zeros
  # shellcheck disable=SC2071  # 20 digits against 2^64, as text
  [ ${#d} -lt 20 ] || { [ ${#d} -eq 20 ] && [[ $d < 18446744073709551616 ]]; }
}
# expect_value NAME VALUE FORM: EXPECT for option NAME given VALUE on the command line, as
# "--NAME VALUE" (FORM sep) or "--NAME=VALUE" (eq).
expect_value() {
  local n=$1 v=$2 form=$3
  EXPECT=any
  if [ "$form" = sep ] && [[ $v == --* ]]; then # the value is taken for the next option
    EXPECT=invalid
    return
  fi
  kind_of "$n"
  case $K in
  flag) [[ $n != no-* && ($v == true || $v == false) ]] || EXPECT=invalid ;; # --no-X=: never
  choice) [[ ${CHOICES[$n]} == *"|$v|"* && -n $v ]] || EXPECT=invalid ;;
  num)
    if [ "$n" = steal-retry ]; then
      case $v in "" | abc | -1 | nan | inf | "$digits300" | 18446744073709551616) EXPECT=invalid ;; esac
    else
      is_u64 "$v" || EXPECT=invalid
    fi
    ;;
  param)
    if [[ -z $v || $v != *=* || $v == =* ]]; then
      EXPECT=invalid
    elif [[ $PARAM_KEYS != *"|${v%%=*}|"* ]]; then
      EXPECT=invalid
    fi
    ;;
  cfg) [[ -z $v || $v != *:* || $v == :* || $v == *[$'\x01'-$'\x1f']* ]] && EXPECT=invalid ;;
  log) [[ -z $v || $v == *[$'\x01'-$'\x1f']* ]] && EXPECT=invalid ;;
  text) expect_text "$n" "$v" ;;
  esac
  return 0
}
expect_text() {
  local n=$1 v=$2
  [ -n "$v" ] || {
    EXPECT=invalid
    return
  }
  case $n in
  app) [[ $APPS == *"|$v|"* ]] || EXPECT=invalid ;;
  sched) [[ $POLICIES == *"|$v|"* ]] || EXPECT=invalid ;;
  platform) EXPECT=invalid-run ;; # none of the pools' names is a platform file
  trace | perfmodel) [ ${#v} -lt 1024 ] || EXPECT=invalid ;;
  roofline-p) case $v in abc | nan | inf | -1 | 1.5 | 2 | é | "$long5000") EXPECT=invalid ;; esac ;;
  esac
}
# Whether the name at index I of array NAMES comes again later, and is one whose value is
# checked only once every option is read (an app's name, a platform file): then the later
# value is the one checked, and a bad earlier one goes unseen, rightly.
overridden() {
  local -n _names=$1
  local i=$2 j
  case ${_names[i]} in app | platform) ;; *) return 1 ;; esac
  for ((j = i + 1; j < ${#_names[@]}; j++)); do
    [ "${_names[j]}" != "${_names[i]}" ] || return 0
  done
  return 1
}
# BIG=1 when VALUE (or the VALUE of KEY=VALUE) is a number from 10^4 on: such inputs ask for
# large problems, and running past the timeout is then no hang (class slow). So is another app
# given a seed's sizes (chain-rw with pagerank's 1024 x 256 runs 262144 subtasks: 1.7 s in a
# normal build, 95 s in the sanitizer build, whose SimGrid actors are threads), or a small block
# (lu --n 128 --block 1: 707264 subtasks, 4.6 s in a normal build): any new value of a key that
# sizes the problem.
sizes_key() {
  case $1 in n | block | app | app-param) BIG=1 ;; esac
  return 0
}
note_big() {
  local v=${1#*=}
  v=${v#"${v%%[!0]*}"}
  if [[ $v =~ ^[0-9]{5,}$ ]]; then
    BIG=1
  elif [[ $v =~ ^[0-9]*\.?[0-9]*[eE]\+?[0-9]+$ ]] && awk "BEGIN { exit !($v >= 1e4) }" 2>/dev/null; then
    BIG=1
  fi
  return 0
}
# The final expectation of an input from its worst mutation and what it runs.
settle_expect() {
  if [ "$EXPECT" = invalid-run ]; then
    EXPECT=invalid
    local a
    for a in "${ARGS[@]}"; do
      case $a in --dry-run | --dry-run=true | real) EXPECT=any ;; esac
    done
    [ "$KIND_IN" != config ] || ! grep -q '"dry-run"\|"real"' run.json 2>/dev/null || EXPECT=any
  fi
}

# ---------------------------------------------------------------------------------------------
# Seeds
# ---------------------------------------------------------------------------------------------
# Each app on small sizes: app, --n, --block, an app-param it takes ("-": none).
SEED_APPS=("matmul 128 32 copies=2" "conv2d 128 32 radius=2" "randprog 256 0 -" "chain 8 4 -"
  "chain-rw 8 4 -" "taskbench 8 4 iterations=2" "pagerank 1024 256 iterations=2"
  "lu 128 32 nested=0" "fft2d 64 16 -" "gemv 256 64 cols=128" "cmeans 256 64 clusters=4"
  "gmm 256 64 dims=4"
  "molecular2d 1024 64 steps=2" "adder 1024 64 flops=100" "mdlite 256 32 steps=2")
# Valid options to add to a seed (a flag has the value "-").
EXTRAS=("nodes 1" "nodes 2" "nodes 3" "data phantom" "data functional" "seed 7"
  "seed 123456789012" "devices gpu" "devices cpu+gpu" "devices auto" "sched eager" "sched dmda"
  "sched heft" "sched random" "sched ws" "sched roofline" "placement node0" "placement rows"
  "placement columns" "steal-policy one-level" "prosteal off" "multi-assign off" "pipeline off"
  "prefetch-priority same" "locality on" "work-groups on" "gpu-cache mru" "gpu-cache none"
  "concurrent-tasks off" "check-views off" "gpu-streams 2" "gpu-mem 100000000" "agglomerate 4"
  "gpu-mode many-task" "mtc-bundle 10" "pack-copies on" "compression network" "compression gpu"
  "steal-retry 0.001" "steal-probes 0" "steal-probes 2" "reserved-cores 1" "cpu-devices 2"
  "prefetch-depth 2" "roofline-p 0.5" "roofline-resident on" "slow 1:4" "slow 0:2@0.001"
  "trace trace.json" "trace-format paje" "cfg network/model:LV08" "log root.thres:critical"
  "perfmodel model.json" "calibrate on" "json -" "json -" "json -" "no-verify -" "check -"
  "dry-run -" "backend real" "fail 1@0.001" "fail 2@0.01,1@0.02" "fail 0@0.001"
  "fault drop:0.1,rto:0.001" "fault delay:0.001:0.5" "fault link:n1-nic:4@0.001"
  "fault detect:0.001")

# The seed run of input K: option names ON, values OV ("-" for a flag), forms OF (sep|eq).
seed_run() {
  pick SEED_APPS
  local app n block param
  read -r app n block param <<<"$P"
  ON=(app platform n block) OV=("$app" "$small" "$n" "$block") OF=(sep sep sep sep)
  if [ "$param" != - ] && chance 30; then add_opt app-param "$param"; fi
  rand 4
  local k count=$R
  for ((k = 0; k < count; k++)); do
    pick EXTRAS
    [ "$P" != "backend real" ] || chance 20 || continue # MPI's start makes these slow
    add_opt ${P%% *} "${P#* }"
  done
  return 0
}
add_opt() {
  ON+=("$1")
  OV+=("$2")
  OF+=(sep)
}
drop_opt() { # drop_opt I
  ON=("${ON[@]:0:$1}" "${ON[@]:$(($1 + 1))}")
  OV=("${OV[@]:0:$1}" "${OV[@]:$(($1 + 1))}")
  OF=("${OF[@]:0:$1}" "${OF[@]:$(($1 + 1))}")
}
# ARGS from ON/OV/OF after the command's words (PREFIX_LEN of them).
render() {
  ARGS=("$@")
  PREFIX_LEN=$#
  local i
  for i in "${!ON[@]}"; do
    kind_of "${ON[i]}"
    if [ "${OV[i]}" = - ] && [ "$K" = flag ]; then # --no-X takes no value, not even =true
      [ "${OF[i]}" = eq ] && [[ ${ON[i]} != no-* ]] && ARGS+=("--${ON[i]}=true") || ARGS+=("--${ON[i]}")
    elif [ "${OF[i]}" = eq ]; then
      ARGS+=("--${ON[i]}=${OV[i]}")
    else
      ARGS+=("--${ON[i]}" "${OV[i]}")
    fi
  done
}

# ---------------------------------------------------------------------------------------------
# Command-line mutations
# ---------------------------------------------------------------------------------------------
# A neutral change: the same meaning, or still a valid run (mostly).
neutral_cli() {
  [ "${#ON[@]}" -gt 0 ] || return 0
  rand 5
  local op=$R i
  rand "${#ON[@]}"
  i=$R
  case $op in
  0) OF[i]=eq ;;
  1) [ "${#ON[@]}" -le 2 ] || drop_opt "$i" ;;
  2) add_opt "${ON[i]}" "${OV[i]}" ;;
  3)
    pick EXTRAS
    add_opt ${P%% *} "${P#* }"
    ;;
  4)
    rand "${#ON[@]}"
    local j=$R t
    t=${ON[i]} ON[i]=${ON[j]} ON[j]=$t
    t=${OV[i]} OV[i]=${OV[j]} OV[j]=$t
    t=${OF[i]} OF[i]=${OF[j]} OF[j]=$t
    ;;
  esac
}
# A new value for option NAME (V).
hostile_value() {
  kind_of "$1"
  case $K in
  num) chance 50 && pick NUM_GOOD || pick NUM_BAD ;;
  choice)
    if chance 40; then
      local c=${CHOICES[$1]:1:-1}
      local -a cs
      IFS='|' read -r -a cs <<<"$c"
      pick cs
    else pick BAD_TEXT; fi
    ;;
  param) pick PARAM_VALS ;;
  cfg) chance 70 && pick CFG_VALS || pick BAD_TEXT ;;
  log) chance 70 && pick LOG_VALS || pick BAD_TEXT ;;
  flag) chance 30 && P=true || pick BAD_TEXT ;;
  text)
    case $1 in
    app) chance 30 && P=$(echo "$APPS" | tr '|' '\n' | sed -n "$((R % 14 + 2))p") || pick BAD_TEXT ;;
    sched) chance 30 && P=$(echo "$POLICIES" | tr '|' '\n' | sed -n "$((R % 12 + 2))p") || pick BAD_TEXT ;;
    roofline-p) chance 40 && pick NUM_GOOD || pick BAD_TEXT ;;
    *) pick BAD_TEXT ;;
    esac
    ;;
  esac
  V=$P
}
# A name one edit away from NAME (T).
typo() {
  local s=$1 c
  local alphabet=abcdefghijklmnopqrstuvwxyz-_0123456789
  rand 6
  local op=$R
  rand $((${#s} + 1))
  local i=$R
  rand ${#alphabet}
  c=${alphabet:R:1}
  case $op in
  0) T=${s:0:i}${s:i+1} ;;
  1) T=${s:0:i}$c${s:i} ;;
  2) T=${s:0:i}$c${s:i+1} ;;
  3) T=${s:0:i}${s:i+1:1}${s:i:1}${s:i+2} ;;
  4) T=${s^^} ;;
  5) T=${s}s ;;
  esac
}
# The one mutation that decides EXPECT: on ON/OV/OF, or on ARGS once rendered (LATE).
hostile_cli() {
  LATE=""
  local i
  rand "${#ON[@]}"
  i=$R
  rand 12
  case $R in
  0 | 1 | 2 | 3) # a value
    kind_of "${ON[i]}"
    [ "$K" != flag ] || OF[i]=eq
    hostile_value "${ON[i]}"
    OV[i]=$V
    note_big "$V"
    sizes_key "${ON[i]}"
    kind_of "${ON[i]}"
    [ "$K" != flag ] || [ "$V" != - ] || OV[i]=true
    expect_value "${ON[i]}" "${OV[i]}" "${OF[i]}"
    WHAT="value of --${ON[i]} (${OF[i]})"
    if [ -n "${OV[i]}" ] && [ ${#OV[i]} -lt 60 ] && [[ ${OV[i]} != --* ]] && overridden ON "$i"; then
      EXPECT=any
    fi
    ;;
  4 | 5) # the name
    typo "${ON[i]}"
    WHAT="name --${ON[i]} -> --$T"
    ON[i]=$T
    is_option "$T" && EXPECT=any || EXPECT=invalid
    ;;
  6) # dashes
    local forms=("-" "" "---" "—" "- -" "+")
    pick forms
    LATE="dashes $i $P"
    WHAT="dashes of --${ON[i]} -> '$P'"
    EXPECT=invalid
    ;;
  7) # no value
    kind_of "${ON[i]}"
    if [ "$K" = flag ]; then
      OF[i]=eq OV[i]=""
      expect_value "${ON[i]}" "" eq
    else
      LATE="novalue $i"
      EXPECT=invalid
    fi
    WHAT="no value for --${ON[i]}"
    ;;
  8) # an unknown option
    local words=(bogus pipline node nodess verbose config-file help2 app-params no-json2 "" x
      "$long5000" "é" $'a\nb' "json=1" "no-app" "no-" "no-no-json" "=" "nodes.x")
    pick words
    add_opt "$P" 1
    is_option "$P" && EXPECT=any || EXPECT=invalid
    WHAT="unknown option --$P"
    ;;
  9) # a stray argument
    pick BAD_TEXT
    [[ $P != --* ]] || P=stray
    LATE="stray $P"
    EXPECT=invalid
    WHAT="stray argument"
    ;;
  10) # a run file that is not one
    pick CONFIG_PATHS
    add_opt config "$P"
    EXPECT=invalid
    WHAT="--config '$P'"
    ;;
  11) # an option many times
    local many=(app-param cfg seed)
    pick many
    local k v
    for ((k = 0; k < 40; k++)); do
      case $P in
      app-param) v="k$k=1" ;;
      cfg) v="network/TCP-gamma:$k" ;;
      seed) v=$k ;;
      esac
      add_opt "$P" "$v"
    done
    [ "$P" = seed ] && EXPECT=any || EXPECT=invalid
    WHAT="--$P 40 times"
    ;;
  esac
}
# The mutations of LATE, on the rendered ARGS (after the command, index 0).
late_cli() {
  [ -n "$LATE" ] || return 0
  local op idx=0
  read -r op _ <<<"$LATE"
  [ "$op" = stray ] || read -r op idx _ <<<"$LATE"
  # The index of option idx in ARGS: count the rendered tokens before it.
  local at=$PREFIX_LEN k
  for ((k = 0; k < idx; k++)); do
    kind_of "${ON[k]}"
    if [ "${OF[k]}" = eq ] || { [ "${OV[k]}" = - ] && [ "$K" = flag ]; }; then # one word
      at=$((at + 1))
    else at=$((at + 2)); fi
  done
  case $op in
  dashes)
    local d=${LATE#dashes $idx }
    [ "$d" != "${LATE}" ] || d=""
    ARGS[at]=$d${ARGS[at]#--}
    ;;
  novalue)
    if [ "${OF[idx]}" = eq ]; then
      ARGS[at]=${ARGS[at]%%=*}=
    else
      ARGS=("${ARGS[@]:0:at+1}" "${ARGS[@]:at+2}")
      # Last, or followed by an option: "missing value". Before a stray word it would take it.
    fi
    ;;
  stray)
    rand $((${#ARGS[@]}))
    local p=$((R + 1))
    # Not between an option and its value (that would make it the value).
    local v=${LATE#stray }
    ARGS=("${ARGS[@]:0:p}" "$v" "${ARGS[@]:p}")
    ;;
  esac
}

# ---------------------------------------------------------------------------------------------
# JSON mutations (run files, sweep files, traces)
# ---------------------------------------------------------------------------------------------
# JSON value (J) of option I of the seed, as a run file gives it.
json_of_opt() {
  local n=${ON[$1]} v=${OV[$1]}
  JN=$n
  kind_of "$n"
  [[ $n != no-* ]] || { JN=${n#no-} && J=false && return; }
  case $K in
  flag) J=true ;;
  num) [[ $v =~ ^[0-9]+(\.[0-9]+)?$ ]] && J=$v || json_str "$v" ;;
  param) json_str "${v#*=}" && J="{\"${v%%=*}\": $J}" ;;
  cfg | log) json_str "$v" && J="[$J]" ;;
  *) json_str "$v" ;;
  esac
}
# A hostile JSON value for key NAME (J) and its EXPECT.
hostile_json_value() {
  local n=$1 k
  kind_of "$1"
  k=$K
  rand 10
  case $R in
  0) J=null EXPECT=invalid ;;
  1) J='{}' && { [ "$k" = param ] && EXPECT=any || EXPECT=invalid; } ;;
  2) J='[]' && { [[ $k == param || $k == cfg || $k == log ]] && EXPECT=any || EXPECT=invalid; } ;;
  3) J=true && { [[ $k == flag || $n == pipeline ]] && EXPECT=any || EXPECT=invalid; } ;;
  4) # a number
    local nums=(0 1 -1 1.5 -0 1e400 1e300 9007199254740993 9007199254740992 18446744073709551616
      1000001 0.5 1e-300 -1e400 2)
    pick nums
    J=$P
    note_big "$P"
    sizes_key "$n"
    expect_json_number "$n" "$P"
    ;;
  5 | 6 | 7) # a string, as on the command line
    hostile_value "$n" 2>/dev/null || pick BAD_TEXT
    note_big "$V"
    sizes_key "$n"
    json_str "$V"
    expect_json_string "$n" "$V"
    ;;
  8) # a string with an escaped control character or unicode
    local esc=('"\u0001"' '"\u001f"' '"\u00e9"' '"\ud800"' '"on\u0000"' '"\\"' '"\/"')
    pick esc
    J=$P EXPECT=any
    # No number, choice, app or policy is spelt so; a NUL is refused wherever it is.
    [[ $k != num && $k != choice && $k != flag && $n != app && $n != sched ]] || EXPECT=invalid
    [[ $P != *u0000* ]] || EXPECT=invalid
    ;;
  9) # deep nesting
    rand 4
    local depths=(10 999 1001 100000)
    local d=${depths[R]}
    J=$(printf '[%.0s' $(seq "$d"))$(printf ']%.0s' $(seq "$d"))
    EXPECT=invalid
    ;;
  esac
}
expect_json_number() {
  local n=$1 x=$2 k
  kind_of "$1"
  k=$K
  EXPECT=any
  case $k in
  flag | choice | param | cfg | log) [[ $n == roofline-p ]] || EXPECT=invalid ;;
  text) [[ $n == roofline-p ]] || EXPECT=invalid ;;
  num)
    case $x in
    -1 | -1e400 | 1e400 | 1e300 | 9007199254740993 | 9007199254740992 | 18446744073709551616) EXPECT=invalid ;;
    1.5 | 0.5 | 1e-300) [ "$n" = steal-retry ] || EXPECT=invalid ;;
    1000001) [ -n "${U64[$n]-}" ] || [ "$n" = steal-retry ] || EXPECT=invalid ;;
    esac
    ;;
  esac
  [ "$n" != roofline-p ] || case $x in -1 | 1.5 | 1e400 | -1e400 | 1e300 | 2 | 9007199254740993 | 9007199254740992 | 18446744073709551616 | 1000001) EXPECT=invalid ;; esac
  return 0
}
expect_json_string() {
  local n=$1 v=$2 k
  kind_of "$1"
  k=$K
  case $k in
  flag) EXPECT=invalid ;;
  num) [ -n "${U64[$n]-}" ] && is_u64 "$v" && EXPECT=any || EXPECT=invalid ;;
  *) expect_value "$n" "$v" eq ;;
  esac
}
# Writes object FILE from keys JK and values JV (JSON text).
write_object() {
  local f=$1 i
  {
    printf '{'
    for i in "${!JK[@]}"; do
      [ "$i" = 0 ] || printf ','
      json_str "${JK[i]}"
      printf '\n  %s: %s' "$J" "${JV[i]}"
    done
    printf '\n}\n'
  } >"$f"
}
# A mutation of the text of JSON FILE: sets EXPECT and WHAT.
mutate_json_text() {
  local f=$1 size
  size=$(wc -c <"$f")
  rand 11
  case $R in
  0 | 1) # truncated before its last '}'
    local body
    body=$(cat "$f")
    rand $((${#body} - 1))
    printf '%s' "${body:0:R}" >"$f"
    EXPECT=invalid WHAT="truncated to $R bytes"
    ;;
  2) # a NUL escape inside its first string
    sed -i '0,/"/s/"/"\\u0000/' "$f"
    EXPECT=invalid WHAT="\\u0000 in a string"
    ;;
  3) # not an object
    local tops=('[%s]' '3' '"x"' 'null' 'true' '' ' ' '%s%s' '%s x' '// c\n%s' '%s}' '{%s')
    pick tops
    local body
    body=$(cat "$f")
    # shellcheck disable=SC2059
    printf "${P//%s/%s}" "$body" "$body" >"$f"
    EXPECT=invalid WHAT="top level '$P'"
    ;;
  4) # a byte replaced
    local bytes=('\x00' '\xff' '\x22' '\x7b' '\x5c' '\x0a' '\x2c' '\x5d' '\xc3\xa9')
    pick bytes
    rand "$size"
    local b=$P
    { head -c "$R" "$f"; printf "$b"; tail -c +$((R + 2)) "$f"; } >"$f.new" && mv "$f.new" "$f"
    EXPECT=any WHAT="byte $R replaced by $b"
    ;;
  5) # a BOM
    { printf '\xef\xbb\xbf'; cat "$f"; } >"$f.new" && mv "$f.new" "$f"
    EXPECT=any WHAT="BOM"
    ;;
  6) # single quotes
    sed -i "s/\"/'/g" "$f"
    EXPECT=invalid WHAT="single quotes"
    ;;
  7) # NaN, Infinity
    local lits=(NaN Infinity -Infinity undefined 0x10 01 .5 1.e5 +1) key
    pick lits
    # The key whose value changes: one that sizes the problem may now ask for a large one
    # (01 for "block": lu --n 1024 --block 1 runs for about 20 minutes), no hang when slow.
    key=$(grep -m1 -oE '"[^"]+": [0-9]' "$f" | sed -E 's/^"([^"]+)".*/\1/') || key=""
    sizes_key "$key"
    sed -i "0,/\": [0-9]/s/\": [0-9][0-9.]*/\": $P/" "$f" # a key's value, not a title's text
    # cJSON reads 01 and 1.e5 (JSON does not): those are numbers like others.
    grep -qF "\": $P" "$f" && [ "$P" != 01 ] && [ "$P" != 1.e5 ] && EXPECT=invalid || EXPECT=any
    note_big "$P"
    WHAT="number literal $P"
    ;;
  8) # a megabyte of whitespace inside
    { head -c 1 "$f"; printf '%*s' 1000000 ''; tail -c +2 "$f"; } >"$f.new" && mv "$f.new" "$f"
    EXPECT=any WHAT="1 MB of spaces"
    ;;
  9) # comments
    sed -i '1s|^|/* c */|' "$f"
    EXPECT=invalid WHAT="a comment"
    ;;
  10) # invalid UTF-8 in every string
    sed -i 's/"\([a-z]\)/"\xff\1/g' "$f"
    EXPECT=invalid WHAT="invalid UTF-8 in the keys"
    ;;
  esac
}

# ---------------------------------------------------------------------------------------------
# Input kinds. Each writes its files into the current directory (the input's), sets ARGS,
# EXPECT, WHAT, KIND_IN and CHECK (what exit 0 must show: report, json, dryrun, sweep, plot,
# none).
# ---------------------------------------------------------------------------------------------
# The check of a run's output, from its options.
run_check() {
  CHECK=report
  local a
  for a in "${ARGS[@]}"; do
    case $a in
    --json | --json=true) [ "$CHECK" = report ] && CHECK=json ;;
    --dry-run | --dry-run=true) CHECK=dryrun ;;
    --check | --check=true | --help | -h) CHECK=none ;;
    esac
  done
  # A run file's switches count too (the command line's --json comes on top).
  if [ -f run.json ]; then
    grep -q '"json": *true' run.json && [ "$CHECK" = report ] && CHECK=json
    grep -q '"dry-run": *true' run.json && CHECK=dryrun
    grep -q '"check": *true' run.json && CHECK=none
  fi
  return 0
}
gen_cli() {
  KIND_IN=cli
  seed_run
  rand 3
  local k count=$R
  for ((k = 0; k < count; k++)); do neutral_cli; done
  hostile_cli
  render run
  late_cli
  if chance 8; then # the command itself
    local cmds=(Run RUN "run " "" runn sweep2 plots help version -run "—run" --run)
    pick cmds
    ARGS[0]=$P
    EXPECT=invalid WHAT="command '$P'"
  fi
  settle_expect
  run_check
}
gen_config() {
  KIND_IN=config
  seed_run
  rand 2
  local k i count=$R op
  for ((k = 0; k < count; k++)); do neutral_cli; done
  JK=() JV=()
  for i in "${!ON[@]}"; do
    json_of_opt "$i"
    JK+=("$JN")
    JV+=("$J")
  done
  rand 10
  op=$R
  case $op in
  0 | 1 | 2 | 3) # a value
    rand "${#JK[@]}"
    i=$R
    hostile_json_value "${JK[i]}"
    JV[i]=$J
    WHAT="value of '${JK[i]}'"
    if [[ $J == \"?* && $J != *u0000* && ${#J} -lt 60 ]] && overridden JK "$i"; then EXPECT=any; fi
    ;;
  4) # a key
    rand "${#JK[@]}"
    i=$R
    typo "${JK[i]}"
    WHAT="key '${JK[i]}' -> '$T'"
    JK[i]=$T
    is_option "$T" && [[ $T != no-* ]] && EXPECT=any || EXPECT=invalid
    ;;
  5) # an unknown key
    local keys=(bogus "" config help "no-verify" "é" "$long5000" "nodes " "Nodes" "--nodes")
    pick keys
    JK+=("$P") JV+=(1)
    EXPECT=invalid WHAT="unknown key '$P'"
    ;;
  6) # a key twice
    rand "${#JK[@]}"
    JK+=("${JK[R]}") JV+=("${JV[R]}")
    EXPECT=any WHAT="key '${JK[R]}' twice"
    ;;
  7 | 8 | 9) ;; # the text, below
  esac
  write_object run.json
  [ "$op" -lt 7 ] || mutate_json_text run.json
  ARGS=(run --config run.json)
  chance 50 && ARGS+=(--json)
  if chance 15; then # the command line beside it
    rand 2
    [ "$R" = 0 ] && ARGS+=(--nodes 2) || ARGS+=(--config run.json)
  fi
  settle_expect
  run_check
}
gen_sweep() {
  KIND_IN=sweep
  local seeds=("$out"/seeds/sweep-*.json)
  pick seeds
  cp "$P" sweep.json
  WHAT="seed $(basename "$P")"
  EXPECT=any
  ARGS=(sweep sweep.json -j 1)
  chance 50 && ARGS+=(--plot off)
  rand 14
  case $R in
  0 | 1 | 2) # a value of base
    local keys
    mapfile -t keys < <(jq -r '.base | keys[]' sweep.json)
    pick keys
    hostile_json_value "$P"
    jq --argjson v "$J" --arg k "$P" '.base[$k] = $v' sweep.json >s.new 2>/dev/null &&
      mv s.new sweep.json || EXPECT=any
    WHAT="value of base '$P'"
    ;;
  3 | 4) # a value of vary
    local keys
    mapfile -t keys < <(jq -r '.vary | keys[]' sweep.json)
    pick keys
    hostile_json_value "$P"
    jq --argjson v "$J" --arg k "$P" '.vary[$k][1] = $v' sweep.json >s.new 2>/dev/null &&
      mv s.new sweep.json || EXPECT=any
    WHAT="a value in vary '$P'"
    ;;
  5) # the sweep's own keys
    local muts=('.bogus = 1' 'del(.base)' 'del(.vary)' '.vary = []' '.vary = {}' '.vary = "x"'
      '.vary |= with_entries(.value = [])' '.vary |= with_entries(.value = "x")' '.csv = 3'
      '.csv = ""' '.title = 3' '.columns = ["nope"]' '.columns = "x"' '.columns = [3]'
      '.mpirun = "mpirun"' '.mpirun = []' '.mpirun = [3]' '.base.json = true'
      '.base["dry-run"] = true' '.base.check = true' '.base.config = "x.json"' '.base = []'
      '.vary.zzz = [1]' '.vary = {"a":[1],"b":[1],"c":[1],"d":[1],"e":[1]}'
      '.vary.nodes = [1, 99]' '.vary.seed = [range(0; 100001)]' '.vary.options = [1]'
      '.vary.options = [{}]' '.vary.options = [{"options": {"seed": 1}}]'
      '.vary.options = [{"zzz": 1}]' '.vary.options = [{"nodes": 0}]'
      '.vary.options = [{"json": true}]' '.vary.options = [{"seed": 1}] | .vary.seed = [2]')
    pick muts
    jq "$P" sweep.json >s.new && mv s.new sweep.json
    EXPECT=invalid WHAT="sweep: ${P:0:60}"
    ;;
  6) # a vary key twice (jq cannot write it)
    sed -i 's/"vary": {/"vary": {"seed": [1, 2], "seed": [3],/' sweep.json
    EXPECT=invalid WHAT="vary names a key twice"
    ;;
  7 | 8 | 9) # the text
    mutate_json_text sweep.json
    ;;
  10 | 11 | 12 | 13) # its command line
    local muts=("-j 0" "-j -1" "-j 257" "-j abc" "-j ''" "-j 1.5" "--plot maybe" "--plot ''"
      "--resume" "--bogus" "sweep.json" "--csv" "-j" "--jobs 3" "--csv ''" "--csv a/b/c.csv"
      "--csv $long5000" "-x" "-")
    pick muts
    local extra
    eval "extra=($P)"
    ARGS+=("${extra[@]}")
    case $P in "--jobs 3" | "--csv a/b/c.csv" | "--csv $long5000") EXPECT=any ;; *) EXPECT=invalid ;; esac
    # --resume with the seed's csv: it reads the missing file as no rows.
    [ "$P" != --resume ] || ! jq -e '.csv' sweep.json >/dev/null || EXPECT=any
    # "-j" and "--csv" last: a missing value, refused as an unexpected argument.
    WHAT="sweep $P"
    ;;
  esac
  [ "$EXPECT" != invalid-run ] || EXPECT=invalid # every point is checked with run --check
  CHECK=sweep
}
# The platform of the seed: one of platforms/, or gen-platform.sh's with random values.
seed_platform() {
  if chance 50; then
    local files=("$src"/platforms/*.xml)
    pick files
    cp "$P" platform.xml
    PLAT="$(basename "$P")"
  else
    local nodes cores gpus args
    rand 3 && nodes=$((R + 1))
    rand 4 && cores=$((R + 1))
    rand 3 && gpus=$R
    args=(--nodes "$nodes" --cores "$cores" --gpus "$gpus")
    chance 30 && args+=(--backbone none)
    chance 20 && args+=(--gpu-prop launch_latency=1e-6 --cpu-prop dram_bw=1e10)
    chance 20 && args+=(--nic-lat 1ms --core-speed 2.5Gf --pcie-bw 12GBps)
    "$src/platforms/gen-platform.sh" "${args[@]}" >platform.xml
    PLAT="gen-platform.sh ${args[*]}"
  fi
}
# Attribute values by what they hold: good ones (EXPECT any) and bad ones (invalid-run).
SPEED_GOOD=(2Gf 1e-3Gf 1e12f 0.5Gf 1Tf 1e-300f 1e30f "1Gf,2Gf" 3)
# Huge values whose unit overflows them (1e300Gf: an infinite speed) and the past-bound ones
# (speeds above 1e30 flop/s, latencies above 1e9 s once their unit is applied) are bad too.
SPEED_BAD=(0 0Gf -1Gf "" abc nan inf 1e400Gf "1 Gf" 1GBps 1Gx "1Gf,0Gf" "Gf" "-0Gf" "1Gf,"
  1e300Gf 1e300Zf 1e31f 2e21Gf "1Gf,1e300Gf" -inf infGf nanGf)
BW_GOOD=(1GBps 1e-3Bps 10Gbps 1e300Bps 5 1KiBps)
BW_BAD=(0 0Bps -1GBps "" abc nan inf 1e400Bps 1Gf "1 GBps" 1GBs 1e300GBps 1e300EiBps 4bps
  infBps -infBps)
LAT_GOOD=(0 0s 1ns 1e-300s 1h 1e9s 1w)
LAT_BAD=(-1us "" abc nan infus 1e400s 1GBps "1 us" -0.1s 1e300w 1e8w 1e10s -infs nanms)
ANY_VALS=(0 -1 "" abc 1e30 18446744073709551616 1 1000000 65 4294967297 "$long5000" cpu gpu tpu
  é "1.5" " 4" inf -inf nan 1e300 -1e300 1e400 1e-400 0x1p99999)
# A mutation of platform.xml: EXPECT and WHAT.
mutate_platform() {
  local f=platform.xml
  rand 10
  case $R in
  0 | 1 | 2 | 3) mutate_attribute ;;
  4) # an element removed
    mutate_lines delete
    ;;
  5) # an element duplicated
    mutate_lines duplicate
    ;;
  6) # a host renamed, everywhere or once
    local hosts
    mapfile -t hosts < <(grep -o '<host id="[^"]*"' "$f" | cut -d'"' -f2)
    [ "${#hosts[@]}" -gt 0 ] || hosts=(n0-cpu)
    pick hosts
    local old=$P names=(n9-cpu x n0-cpu n01-cpu N0-CPU n-1-cpu "n0-cpu " n1-gpu0 n0-gpu9 "" "é")
    pick names
    if chance 50; then sed -i "s/\"$old\"/\"$P\"/g" "$f"; else sed -i "0,/\"$old\"/s//\"$P\"/" "$f"; fi
    EXPECT=any WHAT="host $old renamed '$P'"
    ;;
  7) # truncated before </platform>
    local end
    end=$(grep -bo '</platform>' "$f" | tail -1 | cut -d: -f1)
    rand "$((end + 1))"
    head -c "$R" "$f" >"$f.new" && mv "$f.new" "$f"
    EXPECT=invalid-run WHAT="truncated to $R bytes"
    ;;
  8) # a byte replaced
    local bytes=('\x00' '\xff' '\x22' '\x3c' '\x3e' '\x26' '\x0a')
    pick bytes
    local b=$P size
    size=$(wc -c <"$f")
    rand "$size"
    { head -c "$R" "$f"; printf "$b"; tail -c +$((R + 2)) "$f"; } >"$f.new" && mv "$f.new" "$f"
    EXPECT=any WHAT="byte $R replaced by $b"
    ;;
  9) # two or three of the above: any
    mutate_attribute
    mutate_lines delete
    chance 50 && mutate_attribute
    EXPECT=any WHAT="several: $WHAT"
    ;;
  esac
}
# One attribute's value replaced.
mutate_attribute() {
  local f=platform.xml lines
  mapfile -t lines < <(grep -n '="' "$f" | cut -d: -f1)
  pick lines
  local ln=$P line attrs
  line=$(sed -n "${ln}p" "$f")
  mapfile -t attrs < <(grep -o '[a-z_]*="[^"]*"' <<<"$line" | cut -d= -f1)
  pick attrs
  local a=$P prop=""
  [ "$a" != value ] || prop=$(grep -o 'prop id="[^"]*" value' <<<"$line" | head -1 | cut -d'"' -f2)
  case $a in
  speed) chance 50 && { pick SPEED_GOOD && EXPECT=any; } || { pick SPEED_BAD && EXPECT=invalid-run; } ;;
  bandwidth | bw | bb_bw) chance 50 && { pick BW_GOOD && EXPECT=any; } || { pick BW_BAD && EXPECT=invalid-run; } ;;
  latency | lat | bb_lat) chance 50 && { pick LAT_GOOD && EXPECT=any; } || { pick LAT_BAD && EXPECT=invalid-run; } ;;
  *) pick ANY_VALS && EXPECT=any ;;
  esac
  local v=$P
  [ "$a" != core ] || note_big "$v"
  v=${v//\\/\\\\}
  v=${v//&/\\&}
  v=${v//|/\\|}
  # The first occurrence of the attribute on that line (a prop's value: the first prop's).
  if [ -n "$prop" ]; then
    sed -i "${ln}s|\\(<prop id=\"$prop\" value=\"\\)[^\"]*\"|\\1$v\"|" "$f"
  else
    sed -i "${ln}s|\\([ <]$a=\"\\)[^\"]*\"|\\1$v\"|" "$f"
  fi
  WHAT="$a${prop:+ ($prop)} on line $ln = '${P:0:40}'"
}
# A random element line deleted or duplicated.
mutate_lines() {
  local f=platform.xml lines
  mapfile -t lines < <(grep -n '^ *<[a-zA-Z]' "$f" | cut -d: -f1)
  pick lines
  if [ "$1" = delete ]; then sed -i "${P}d" "$f"; else sed -i "${P}p" "$f"; fi
  EXPECT=any WHAT="line $P ${1}d: $(sed -n "${P}p" "$f" | head -c 60)"
}
gen_platform() {
  KIND_IN=platform
  seed_platform
  local gpus
  gpus=$(grep -c 'value="gpu"' platform.xml || true)
  mutate_platform
  WHAT="$PLAT: $WHAT"
  local apps=("matmul 64 16" "conv2d 64 16" "lu 64 16" "adder 256 16" "pagerank 1024 256")
  pick apps
  local app n block
  read -r app n block <<<"$P"
  ARGS=(run --platform platform.xml --app "$app" --n "$n" --block "$block")
  if [ "$gpus" -gt 0 ] && chance 50; then
    local devs=(gpu cpu+gpu)
    pick devs
    ARGS+=(--devices "$P")
  fi
  chance 30 && ARGS+=(--data phantom)
  chance 30 && ARGS+=(--nodes 1)
  rand 3
  [ "$R" = 0 ] && ARGS+=(--json)
  [ "$R" = 1 ] && ARGS+=(--check)
  settle_expect
  run_check
}
gen_critical_path() {
  KIND_IN=critical-path
  cp "$out/seeds/trace.json" trace.json
  ARGS=(critical-path trace.json)
  EXPECT=any WHAT="critical-path"
  CHECK=path
  rand 2
  if [ "$R" = 0 ]; then
    mutate_json_text trace.json
    # Any JSON object is read (events it cannot use are skipped); only text that is no JSON
    # object at all, or one without a traceEvents list, must be refused.
    case $WHAT in truncated* | top* | single* | "a comment") ;; *) EXPECT=any ;; esac
  else
    local tops=(1 5 1000000 0 -1 1000001 abc "" 1.5 "5 " 18446744073709551616)
    pick tops
    ARGS+=(--top "$P")
    case $P in 1 | 5 | 1000000) ;; *) EXPECT=invalid ;; esac
    WHAT="critical-path --top '$P'"
  fi
}
gen_plot() {
  rand 2
  if [ "$R" = 1 ]; then
    gen_critical_path
    return
  fi
  KIND_IN=plot
  cp "$out/seeds/trace.json" trace.json
  ARGS=(plot trace.json --out t.png)
  EXPECT=any WHAT="plot"
  rand 3
  case $R in
  0)
    mutate_json_text trace.json
    # A trace is read for drawing: only text that is no JSON object at all must be refused.
    case $WHAT in truncated* | top* | single* | "a comment") ;; *) EXPECT=any ;; esac
    ;;
  1)
    local sizes=(640x360 100x100 99x100 10001x100 0x0 abc "" 640x x360 640X360 -640x360
      640x360x2 " 640x360" 4000x3000 10000x100 "640x360 " 18446744073709551616x100 1e3x100
      10000x10000 "640x 360")
    pick sizes
    ARGS+=(--size "$P")
    case $P in 640x360 | 100x100 | 4000x3000 | 10000x100 | " 640x360" | 640X360 | 10000x10000 | "640x 360") EXPECT=any ;; *) EXPECT=invalid ;; esac
    WHAT="plot --size '$P'"
    ;;
  2)
    local muts=("--bogus" "--out" "--size" "extra.json" "--out ''" "--out $long5000" "-")
    pick muts
    local extra
    eval "extra=($P)"
    ARGS+=("${extra[@]}")
    case $P in "--out $long5000") EXPECT=any ;; *) EXPECT=invalid ;; esac
    WHAT="plot $P"
    ;;
  esac
  CHECK=plot
}
gen_other() {
  KIND_IN=other
  CHECK=none
  rand 3
  case $R in
  0) # reproduce with a figure that is not one (a valid one runs for minutes)
    local bad=(nosuch "" "main-job,nosuch" "," "$long5000" $'a\nb' "é" "--out")
    pick bad
    ARGS=(reproduce --out out --only "$P") # --out: never the repository's results/
    chance 30 && ARGS+=(--bogus)
    chance 30 && ARGS+=(--out)
    EXPECT=invalid WHAT="reproduce --only '$P'"
    ;;
  1) # calibrate without a workload (one runs MPI measurements)
    seed_run
    hostile_cli
    render calibrate --platform-out p.xml --perfmodel m.json
    late_cli
    EXPECT=invalid WHAT="calibrate, $WHAT"
    ;;
  2) # the command word: one or two arguments, words split at "|"
    local cmds=("" "-h" "--help" "--version" "--version|x" "RUN" "help" "version" "-" "--"
      "run|--help|x" "sweep" "plot" "reproduce|--help" "$long5000" $'run\n' "run|x" "sweep|")
    pick cmds
    local rest=$P
    ARGS=()
    while :; do
      ARGS+=("${rest%%|*}")
      [[ $rest == *"|"* ]] || break
      rest=${rest#*|}
    done
    case $P in -h | --help | --version | "reproduce|--help") EXPECT=any CHECK=help ;; *) EXPECT=invalid ;; esac
    WHAT="command '$P'"
    ;;
  esac
}

# Makes input K in directory D (the current one): its files and ARGS, EXPECT, WHAT, CHECK.
gen_input() {
  reseed "$1"
  EXPECT=any WHAT="" CHECK=none LATE="" BIG=0
  rand 100
  if [ "$R" -lt 35 ]; then
    gen_cli
  elif [ "$R" -lt 55 ]; then
    gen_config
  elif [ "$R" -lt 67 ]; then
    gen_sweep
  elif [ "$R" -lt 92 ]; then
    gen_platform
  elif [ "$R" -lt 96 ]; then
    gen_plot
  else
    gen_other
  fi
  # The reproducer: a script that runs it again from its own directory.
  {
    echo '#!/usr/bin/env bash'
    echo "# fuzz input $1 (--seed $seed): $KIND_IN, $WHAT; expected: $EXPECT"
    [ "$asan" = 0 ] || echo "export ASAN_OPTIONS='$ASAN_OPTIONS' UBSAN_OPTIONS='$UBSAN_OPTIONS'"
    echo 'cd "$(dirname "$0")"'
    printf '%q ' exec "$nw" "${ARGS[@]}"
    echo
  } >cmd.sh
  chmod +x cmd.sh
  printf '%s\n' "$KIND_IN" "$EXPECT" "$CHECK" "$BIG" "$WHAT" >meta.txt
}

# ---------------------------------------------------------------------------------------------
# Classification
# ---------------------------------------------------------------------------------------------
# A crash's marks in its output: sanitizers anywhere, SimGrid's aborts and C++ exceptions
# outside the tool's own one-line messages.
crashed() {
  grep -q 'AddressSanitizer\|runtime error:\|UndefinedBehaviorSanitizer\|LeakSanitizer' \
    stderr.txt stdout.txt 2>/dev/null && return 0
  grep -v '^narwhal[-a-z]*: \|^reproduce-paper.sh: ' stderr.txt 2>/dev/null |
    grep -q 'Impossible Did Happen\|Backtrace\|terminate called\|Assertion\|xbt_die\|CRITICAL\]\|core dumped\|Segmentation\|Aborted\|Oops\|std::'
}
# CLASS and REASON of the finished input in the current directory.
classify() {
  local rc kind expect check big lines
  rc=$(cat status.txt)
  { read -r kind; read -r expect; read -r check; read -r big; } <meta.txt
  lines=$(wc -l <stderr.txt)
  REASON=""
  if { [ "$rc" = 124 ] || [ "$rc" = 137 ]; } && [ "$big" = 1 ]; then
    CLASS=slow REASON="a large problem, still running after ${timeout_s}s"
  elif [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
    CLASS=HANG REASON="still running after ${timeout_s}s"
  elif grep -q 'hard rss limit' stderr.txt; then
    CLASS=MEMORY REASON="over 4 GiB"
  elif [ "$rc" -gt 128 ] || [ "$rc" = 86 ] || crashed; then
    CLASS=CRASH REASON="status $rc"
  elif [ "$rc" = 3 ]; then
    CLASS=DIFFERS
  elif [ "$rc" != 0 ] && [ "$rc" != 1 ] && [ "$rc" != 2 ]; then
    CLASS=STATUS REASON="status $rc"
  elif [ "$rc" = 0 ]; then
    classify_ok "$expect" "$check"
  elif [ "$lines" = 0 ] || [ ! -s stderr.txt ]; then
    CLASS=MESSAGE REASON="status $rc, nothing on stderr"
  elif [ "$lines" -gt 1 ] && ! { [ "$kind" = sweep ] && [ "$rc" = 1 ] && [ "$lines" = 2 ]; }; then
    CLASS=MESSAGE REASON="status $rc, $lines lines on stderr"
  elif ! head -1 stderr.txt | grep -q '^[A-Za-z0-9_.-]*: '; then
    CLASS=MESSAGE REASON="status $rc, stderr does not start with a program's name"
  elif [ "$rc" = 2 ] && [ -s stdout.txt ]; then
    CLASS=MESSAGE REASON="status 2 with output on stdout"
  elif [ "$rc" = 1 ] && [ "$expect" = invalid ]; then
    CLASS=ACCEPTED REASON="status 1 (the run started) for an invalid input"
  elif [ "$rc" = 2 ]; then
    CLASS=refused
  else
    CLASS=failed
  fi
}
classify_ok() {
  local expect=$1 check=$2
  CLASS=ok
  if [ "$expect" = invalid ]; then
    CLASS=ACCEPTED REASON="status 0"
    return
  fi
  case $check in
  report) grep -q makespan stdout.txt || CLASS=SILENT REASON="no report" ;;
  json) jq -se 'length == 1 and (.[0] | type == "object" and has("makespan_s"))' stdout.txt \
    >/dev/null 2>&1 || CLASS=SILENT REASON="--json printed no single result object" ;;
  dryrun) jq -se 'length == 1 and (.[0] | type == "object")' stdout.txt >/dev/null 2>&1 ||
    CLASS=SILENT REASON="--dry-run printed no single object" ;;
  sweep) [ -s stdout.txt ] || CLASS=SILENT REASON="a sweep that printed nothing" ;;
  plot) [ -s t.png ] || CLASS=SILENT REASON="no t.png" ;;
  path) grep -q '^narwhal critical-path ' stdout.txt || CLASS=SILENT REASON="no path printed" ;;
  help) [ -s stdout.txt ] || CLASS=SILENT REASON="nothing printed" ;;
  esac
  [ "$CLASS" != ok ] || [ ! -s stderr.txt ] || CLASS=ok-with-stderr
}

# Runs input K in its directory, classifies it, logs it, and keeps it if it is a finding.
run_input() {
  local k=$1 d=$out/work/$1
  cd "$d"
  mapfile -d '' -t args <argv
  { bounded_run "$timeout_s" "${args[@]}"; } 2>/dev/null # no "Aborted" from bash: the status
  # The machine is shared: a timeout counts once the input runs past three times as long again.
  local rerun=""
  if grep -qx '12[4]\|137' status.txt && [ "$(sed -n 4p meta.txt)" = 0 ]; then
    { bounded_run $((3 * timeout_s)) "${args[@]}"; } 2>/dev/null
    rerun=" (past ${timeout_s}s once; status $(cat status.txt) given $((3 * timeout_s))s)"
  fi
  classify
  REASON+=$rerun
  local what first
  what=$(sed -n 5p meta.txt | tr '\t\n' '  ' | cut -c1-200)
  first=$(head -1 stderr.txt | tr '\t' ' ' | cut -c1-300)
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$k" "$CLASS" "$(cat status.txt)" \
    "$(sed -n 1p meta.txt)" "$what" "$REASON" "$first" >>"$out/log.tsv"
  cd "$out"
  local keep=""
  if [ "$CLASS" = slow ] && [ "$(find slow -maxdepth 1 2>/dev/null | wc -l)" -le 50 ]; then
    keep=slow/$k # to look at: do they progress?
  elif [[ $CLASS =~ ^[A-Z] ]]; then
    keep=findings/$CLASS/$k
  fi
  if [ -n "$keep" ]; then
    mkdir -p "$(dirname "$keep")"
    head -c 65536 "$d/stdout.txt" >"$d/stdout" && head -c 65536 "$d/stderr.txt" >"$d/stderr" &&
      rm -f "$d/stdout.txt" "$d/stderr.txt" "$d/argv"
    mv "$d" "$keep"
  else
    rm -rf "$d"
  fi
  return 0
}

# ---------------------------------------------------------------------------------------------
# Seeds, checked: every seed must run (exit 0) before mutations of it mean anything
# ---------------------------------------------------------------------------------------------
# Sweeps of experiments/ shrunk: paper-cluster points onto small.xml with 4 nodes at most, the
# app's small sizes, two values per varied key, the CSV in the input's directory.
make_sweep_seeds() {
  local sizes_json='{' s app n block
  for s in "${SEED_APPS[@]}"; do
    read -r app n block _ <<<"$s"
    sizes_json+="\"$app\": {\"n\": $n, \"block\": $block},"
  done
  sizes_json=${sizes_json%,}'}'
  local f name
  for f in "$src"/experiments/*.json; do
    name=$(basename "$f" .json)
    jq --arg src "$src" --argjson sizes "$sizes_json" '
      (.base.app // "matmul") as $app
      | .base.platform |= ($src + "/" + (if test("paper-cluster") then "platforms/small.xml" else . end))
      | .base += $sizes[$app]
      | if .base.nodes then .base.nodes |= ([., 4] | min) else . end
      | del(.base["gpu-streams"])
      | .vary |= with_entries(.value |= (if type == "array" then map(if type == "number" and . > 4 then 4 else . end) | unique | .[:2] else . end))
      | .csv = "out.csv"' "$f" >"$out/seeds/sweep-$name.json"
    (cd "$out/seeds" && timeout 60 "$nw" sweep "sweep-$name.json" -j 1 --plot off >/dev/null 2>&1) ||
      { echo "fuzz: seed $name does not run as shrunk; left out" >&2 && rm -f "$out/seeds/sweep-$name.json"; }
  done
  rm -f "$out/seeds/out.csv"
}
check_seeds() {
  local s app n block failed=0
  for s in "${SEED_APPS[@]}"; do
    read -r app n block _ <<<"$s"
    "$nw" run --app "$app" --platform "$small" --n "$n" --block "$block" >/dev/null 2>&1 ||
      { echo "fuzz: the seed run '$s' fails" >&2 && failed=1; }
  done
  (cd "$out/seeds" && "$nw" run --platform "$small" --n 128 --block 32 --trace trace.json \
    >/dev/null 2>&1) || { echo "fuzz: cannot write the seed trace" >&2 && failed=1; }
  [ "$failed" = 0 ] || die "fix the seeds first"
  make_sweep_seeds
}

# ---------------------------------------------------------------------------------------------
# The loop
# ---------------------------------------------------------------------------------------------
summary() {
  local elapsed=$1 total
  total=$(wc -l <"$out/log.tsv")
  echo
  echo "fuzz: $total inputs in $elapsed s ($(awk -v n="$total" -v s="$elapsed" 'BEGIN { printf "%.0f", s ? n * 60 / s : 0 }') per minute), --seed $seed, $jobs jobs, build $build$([ "$asan" = 1 ] && echo ' (ASan+UBSan)')"
  awk -F'\t' '{ n[$2]++ } END { for (c in n) printf "  %-15s %d\n", c, n[c] }' "$out/log.tsv" | sort
  local f
  f=$(awk -F'\t' '$2 ~ /^[A-Z]/' "$out/log.tsv" | wc -l)
  echo "findings: $f (reproducers under $out/findings)"
  # One example per distinct finding: class, kind, the message without numbers and paths.
  awk -F'\t' '$2 ~ /^[A-Z]/ {
      sig = $7; gsub(/[0-9]+/, "N", sig); gsub(/\/[^ ]*/, "PATH", sig); sig = $2 " " $4 " " $6 " " substr(sig, 1, 120)
      if (!(sig in seen)) { seen[sig] = $1; order[++k] = sig }
      count[sig]++ }
    END { for (i = 1; i <= k; i++) printf "  %5d x  %s  (e.g. input %s)\n", count[order[i]], order[i], seen[order[i]] }' \
    "$out/log.tsv" | head -60
}

main() {
  cd "$out"
  if [ -n "$only" ]; then # one input again, with the seeds of the run that made it
    ls seeds/sweep-*.json >/dev/null 2>&1 || check_seeds
    rm -rf "work/$only" "findings"/*/"$only"
    mkdir -p "work/$only"
    (cd "work/$only" && gen_input "$only" && printf '%s\0' "${ARGS[@]}" >argv)
    run_input "$only"
    tail -1 log.tsv
    ls -d findings/*/"$only" 2>/dev/null || true
    return
  fi
  echo "fuzz: checking the seeds"
  check_seeds
  local deadline k=0 start=$SECONDS
  deadline=$(awk -v m="$minutes" 'BEGIN { printf "%d", m * 60 }')
  echo "fuzz: $minutes minutes, --seed $seed, $jobs jobs, $timeout_s s per input, into $out"
  while [ $((SECONDS - start)) -lt "$deadline" ]; do
    [ "$max_inputs" = 0 ] || [ "$k" -lt "$max_inputs" ] || break
    mkdir -p "work/$k"
    (cd "work/$k" && gen_input "$k" && printf '%s\0' "${ARGS[@]}" >argv) ||
      echo "fuzz: cannot make input $k" >&2
    # Generation above ran in a subshell: its RNG state does not matter (reseeded per input).
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    [ -f "work/$k/argv" ] && run_input "$k" &
    k=$((k + 1))
    if [ $((k % 500)) = 0 ]; then
      echo "fuzz: $k inputs, $((SECONDS - start)) s, findings so far: $(awk -F'\t' '$2 ~ /^[A-Z]/' log.tsv | wc -l)"
    fi
  done
  wait
  summary $((SECONDS - start))
}
main
