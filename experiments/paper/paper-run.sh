# shellcheck shell=bash
# paper-run.sh: sourced by the figure scripts of the Unicorn paper's sections 5.2-5.7
# (benchmarks/gpus-only-figs.sh, balance-figs.sh, granularity-figs.sh, multi-assign-figs.sh,
# external-load-figs.sh, cores-figs.sh, overhead-figs.sh), benchmarks/prs-figs.sh,
# experiments/paper/agglomeration-grain.sh and experiments/paper/gemtc-scale.sh, as
# `. PATH/paper-run.sh BUILD_DIR`: it sets build (BUILD_DIR, default build), nw (the narwhal
# executable in it) and src (the repository root), and sources rows.sh.
#   unicorn_run NODES APP N BLOCK [OPTION...]: one simulated run on the Unicorn paper's
#     cluster ($paper_platform, rows.sh: platforms/paper-cluster.xml, or what PAPER_PLATFORM
#     names; narwhal reproduce names the fitted platforms/paper-cluster-fitted.xml) as the
#     paper's experiments ran (CPU work-groups and both GPUs of each node, phantom data), its
#     --json on stdout; options given later override these.
#   json_eval EXPR...: each Python expression over the JSON on stdin (bound to d), printed
#     space-separated on one line; the helpers cpu_pct(d) (percent of subtasks the CPUs
#     completed) and finish_spread_pct(d) ((latest - earliest device finish) / makespan, %).
#   extreme min|max PAIRS: "KEY VALUE" of the pair with the least (min) or greatest (max)
#     VALUE among the space-separated KEY:VALUE pairs (the first such pair on a tie).
#   app_args SPEC: the app, size, block and --app-param options of "APP N BLOCK [K=V...]",
#     into the array APP_ARGS (name, n, block, then the options).
build=${1:-build}
nw=$build/narwhal
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck disable=SC1091 # the repository's own
. "$src/experiments/paper/rows.sh"
unicorn_run() {
  local nodes=$1 app=$2 n=$3 block=$4
  shift 4
  "$nw" run --app "$app" --backend sim --platform "$paper_platform" \
    --nodes "$nodes" --n "$n" --block "$block" --data phantom --devices cpu+gpu \
    --work-groups on "$@" --json
}
json_eval() {
  python3 -c 'import json, sys
d = json.load(sys.stdin)
def cpu_pct(d):
    return 100.0 * sum(x["subtasks"] for x in d["devices"] if x["kind"] == "cpu") / d["subtasks"]
def finish_spread_pct(d):
    f = [x["finish_s"] for x in d["devices"]]
    return 100.0 * (max(f) - min(f)) / d["makespan_s"]
print(" ".join(str(eval(e)) for e in sys.argv[1:]))' "$@"
}
app_args() {
  local name n block p
  read -r name n block p <<<"$1"
  APP_ARGS=("$name" "$n" "$block")
  for p in $p; do APP_ARGS+=(--app-param "$p"); done
}
extreme() {
  tr ' ' '\n' <<<"$2" | awk -F: -v max="$([ "$1" = max ] && echo 1 || echo 0)" 'NF == 2 &&
    (!n++ || (max ? $2 > m : $2 < m)) { m = $2; k = $1 } END { print k, m }'
}
