#!/usr/bin/env bash
# bad_input.sh NARWHAL SRC_DIR CASE: one bad-input case of the narwhal tool. Each must exit
# with its status and print exactly one line on stderr, naming what was wrong; none may
# crash, hang or print anything on stdout.
set -u
nw=$1 src=$2 case=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
small=$src/platforms/small.xml
printf '{"nodes": 2, "bogus": 1}\n' >"$tmp/unknown-key.json"
printf '{"nodse": 2}\n' >"$tmp/key-typo.json"
printf '{"nodes": "two"}\n' >"$tmp/wrong-type.json"
printf '{"prefetch-priority": 1}\n' >"$tmp/prefetch-number.json"
printf '{"app-param": 3}\n' >"$tmp/app-param-number.json"
printf '{"trace-format": 1}\n' >"$tmp/trace-format-number.json"
printf '{"fault": 0.5}\n' >"$tmp/fault-number.json"
printf '{"seed": 9007199254740993}\n' >"$tmp/seed-ambiguous.json"
printf '{"platform": "x.xml\\u0000y"}\n' >"$tmp/nul-string.json"
printf '{"base": {"n": 64}, "vary": {"nodes": [1]}}\0{"x": 1}\n' >"$tmp/nul-byte-sweep.json"
printf '{"narwhal-perfmodel": 1, "platform": "small.xml", "models": []}\0\n' >"$tmp/nul-byte-model.json"
printf '{"traceEvents": []}\0\n' >"$tmp/nul-byte-trace.json"
printf '{"nodes": 1}\0{"nodes": 2}\n' >"$tmp/nul-byte-run.json"
printf '{"base": {}, "vary": {"nodes": [1]}, "bogus": 1}\n' >"$tmp/sweep-unknown-key.json"
printf '{"base": {"n": {}}, "vary": {"n": [64, 128]}}\n' >"$tmp/sweep-base-overridden.json"
printf '{"base": {}, "vary": {"nodes": [1]}, "columns": ["nope"]}\n' >"$tmp/sweep-unknown-column.json"
printf '{"base": {"dry-run": true}, "vary": {"nodes": [1]}}\n' >"$tmp/sweep-dry-run.json"
printf '{"base": {}, "vary": {"nodes": [1]}, "csv": 3}\n' >"$tmp/sweep-csv-number.json"
printf '{"base": {}, "vary": {"nodes": [1]}, "mpirun": "mpirun -np 2"}\n' >"$tmp/sweep-mpirun-string.json"
printf '{"base": {}, "vary": {"nodes": [1]}}\n' >"$tmp/sweep-no-csv.json"
printf '{"base": {}, "vary": {"nodes": [1], "nodes": [2]}}\n' >"$tmp/sweep-vary-twice.json"
printf '{"base": {}, "vary": {"nodes": [1], "sched": []}}\n' >"$tmp/sweep-vary-empty.json"
printf '{"base": {}, "vary": {"options": [{"sched": "dmda"}, 2]}}\n' >"$tmp/sweep-options-number.json"
printf '{"base": {}, "vary": {"options": [{"sched": "dmda", "json": true}]}}\n' >"$tmp/sweep-options-json.json"
printf '{"base": {}, "vary": {"sched": ["eager"], "options": [{"sched": "dmda"}]}}\n' >"$tmp/sweep-options-twice.json"
# SimGrid loads these and aborts once the simulation runs ("The Impossible Did Happen").
sed 's/bandwidth="100MBps"/bandwidth="0Bps"/' "$small" >"$tmp/bandwidth-zero.xml"
sed 's/latency="50us"/latency="infus"/' "$small" >"$tmp/latency-inf.xml"
sed 's/latency="50us"/latency="-1ms"/' "$small" >"$tmp/latency-negative.xml"
sed 's/latency="50us"/latency="1e300s"/' "$small" >"$tmp/latency-huge.xml"
sed 's/speed="1Gf"/speed="0Gf"/' "$small" >"$tmp/speed-zero.xml"
sed 's/<host id="n1-cpu" speed="1Gf"/<host id="n1-cpu" speed="1e300Gf"/' "$small" >"$tmp/speed-overflow.xml"
sed 's/latency="50us"/latency="1e8w"/' "$small" >"$tmp/latency-weeks.xml"
sed 's/bandwidth="100MBps"/bandwidth="4bps"/' "$small" >"$tmp/bandwidth-bits.xml"
sed 's/"n2-cpu"/"n5-cpu"/' "$small" >"$tmp/node-gap.xml"
printf '{"base": {"platform": "%s", "n": 256, "block": 32, "data": "phantom"}, "vary": {"nodes": [1, 2, 9]}, "csv": "%s"}\n' \
  "$small" "$tmp/later.csv" >"$tmp/sweep-bad-later-point.json"
printf '{\n  "nodes": 2,\n  "n": 256\n  "block": 32\n}\n' >"$tmp/malformed.json"
printf '<?xml version="1.0"?>\n<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n<platform version="4.1">\n  <zone id="z" routing="Full">\n    <host id="n0-cpu" speed="1Gf"\n  </zone>\n</platform>\n' >"$tmp/malformed.xml"
printf '<?xml version="1.0"?>\n<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n<platform version="4.1">\n  <zone id="z" routing="Full">\n    <host id="x" speed="1Gf"/>\n  </zone>\n</platform>\n' >"$tmp/no-nodes.xml"

printf '<?xml version="1.0"?>\n<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n<platform version="4.1">\n  <zone id="z" routing="Full">\n    <host id="n0-cpu" speed="1Gf" core="2"/>\n  </zone>\n</platform>\n' >"$tmp/no-gpu.xml"

printf '{"narwhal-perfmodel": 1, "platform": "small.xml", "models": [' >"$tmp/corrupt-model.json"
"$src/platforms/gen-platform.sh" --nodes 1 --cores 2 --cpu-prop rt_exec_done=-1 >"$tmp/bad-cost.xml"
"$src/platforms/gen-platform.sh" --nodes 1 --cores 2 --gpus 1 --gpu-prop rle_per_byte=-1e-9 >"$tmp/bad-gpu-rle.xml"
printf '{"narwhal-perfmodel": 1, "platform": "paper-cluster.xml", "models": []}\n' >"$tmp/other-platform.json"
"$src/platforms/gen-platform.sh" --nodes 1 --cores 2 --cpu-prop dram_bw=-5 >"$tmp/bad-dram.xml"
"$src/platforms/gen-platform.sh" --nodes 1 --cores 2 --gpus 1 --gpu-prop fill_flops=-1 >"$tmp/bad-fill.xml"
"$src/platforms/gen-platform.sh" --nodes 1 --cores 2 --gpus 1 --gpu-prop fill_threads=-32 >"$tmp/bad-threads.xml"
"$src/platforms/gen-platform.sh" --nodes 1 --cores 2 --gpus 1 --gpu-prop mem_bw=-1 >"$tmp/bad-gpu-mem-bw.xml"
"$src/platforms/gen-platform.sh" --nodes 1 --cores 2 --gpus 1 --gpu-prop mtc_workers=1.5 >"$tmp/bad-mtc-workers.xml"
"$src/platforms/gen-platform.sh" --nodes 1 --cores 2 --gpus 1 --gpu-prop mtc_bundle_cost=-1 >"$tmp/bad-mtc-cost.xml"
"$src/platforms/gen-platform.sh" --nodes 1 --cores 2 --gpus 17 >"$tmp/gpus-17.xml"

want_status=2
case $case in
unknown_option) args=(run --bogus 1) want="--bogus" ;;
option_typo) args=(run --pipline on) want="--pipline: unknown option; did you mean --pipeline?" ;;
key_typo) args=(run --config "$tmp/key-typo.json") want="unknown key 'nodse'; did you mean 'nodes'?" ;;
negated_with_value) args=(run --no-verify=1) want="--no-verify: takes no value" ;;
equals_bad_value) args=(run --nodes=two) want="--nodes: 'two' is not a whole number" ;;
nodes_not_number) args=(run --nodes abc) want="--nodes: 'abc'" ;;
nodes_negative) args=(run --nodes -3) want="--nodes" ;;
n_trailing_garbage) args=(run --n 12x) want="--n: '12x'" ;;
missing_value) args=(run --block) want="--block: missing value" ;;
unknown_key) args=(run --config "$tmp/unknown-key.json") want="unknown key 'bogus'" ;;
wrong_type) args=(run --config "$tmp/wrong-type.json") want="key 'nodes' must be a number" ;;
malformed_json) args=(run --config "$tmp/malformed.json") want="malformed.json: malformed JSON at line 4" ;;
missing_config) args=(run --config "$tmp/nope.json") want="nope.json: No such file" ;;
missing_platform) args=(run --platform "$tmp/nope.xml" --n 64 --block 16) want="platform $tmp/nope.xml: No such file" ;;
malformed_platform) args=(run --platform "$tmp/malformed.xml" --n 64 --block 16) want="platform $tmp/malformed.xml: cannot be loaded" ;;
platform_without_nodes) args=(run --platform "$tmp/no-nodes.xml" --n 64 --block 16) want="has no nodes" ;;
too_many_nodes) args=(run --platform "$small" --nodes 9 --n 64 --block 16) want="has 4 nodes, 9 requested" ;;
unknown_data) args=(run --data quantum) want="--data: unknown value 'quantum'" ;;
unknown_app) args=(run --app fft9) want="unknown application 'fft9'" ;;
block_not_dividing) args=(run --platform "$small" --n 100 --block 32) want="does not divide" ;;
verify_phantom) args=(run --data phantom --verify) want="--verify needs --data functional" ;;
unknown_command) args=(frobnicate) want="unknown command 'frobnicate'" ;;
unknown_gpu_cache) args=(run --gpu-cache fifo) want="--gpu-cache: unknown value 'fifo' (one of: lru, mru, lfu, mfu, random, none)" ;;
gpu_streams_zero) args=(run --gpu-streams 0) want="--gpu-streams: must be from 1 to 512 (above 32 only with --gpu-mode many-task)" ;;
gpu_streams_over_launch) args=(run --platform "$small" --devices gpu --gpu-streams 33) want="--gpu-streams 33: at most 32 with one launch per subtask" ;;
gpu_streams_over_many_task) args=(run --gpu-mode many-task --gpu-streams 513) want="--gpu-streams: must be from 1 to 512" ;;
mtc_bundle_zero) args=(run --gpu-mode many-task --mtc-bundle 0) want="--mtc-bundle: must be from 1 to 65536" ;;
many_task_agglomerate) args=(run --platform "$small" --devices gpu --gpu-mode many-task --agglomerate 4) want="--gpu-mode many-task with --agglomerate 4: a many-task GPU has no launches to agglomerate" ;;
many_task_cpu) args=(run --platform "$small" --devices cpu --gpu-mode many-task) want="--gpu-mode many-task: no GPU runs (--devices cpu)" ;;
many_task_real) args=(run --backend real --devices gpu --gpu-mode many-task) want="--gpu-mode many-task: task kind 'matmul' has no worker-kernel operation (mtc_task); on hardware the mode runs kinds that have one (adder, mdlite)" ;;
many_task_compression_real) args=(run --backend real --app adder --devices gpu --gpu-mode many-task --compression gpu) want="--gpu-mode many-task with --compression gpu: the worker kernel fills the GPU" ;;
pack_copies_cpu) args=(run --platform "$small" --devices cpu --pack-copies on) want="--pack-copies on: no GPU runs (--devices cpu)" ;;
sweep_mpirun_not_list) args=(sweep "$tmp/sweep-mpirun-string.json") want="\"mpirun\" must be a list of 1 to 32 strings" ;;
simgrid_cfg_unknown_key) args=(run --platform "$small" --n 64 --block 16 --cfg=network/nosuch:1) want="SimGrid refused the --cfg/--log settings (--cfg=network/nosuch:1): Bad config key: network/nosuch" ;;
simgrid_cfg_not_pair) args=(run --cfg help) want="--cfg: 'help' is not KEY:VALUE" ;;
simgrid_log_invalid) args=(run --platform "$small" --n 64 --block 16 --log=garbage) want="SimGrid refused the --cfg/--log settings (--log=garbage): Invalid control string 'garbage'" ;;
fail_unknown_node) args=(run --platform "$small" --n 64 --block 16 --fail 4@0.1) want="--fail: node 4 does not exist (this run has 4 nodes, 0 to 3)" ;;
fail_negative_time) args=(run --fail 1@-1) want="--fail: '1@-1' is not NODE@SECONDS" ;;
fail_inf_time) args=(run --fail 1@inf) want="--fail: '1@inf' is not NODE@SECONDS" ;;
fail_node_overflow) args=(run --fail 99999999999999999999@1) want="--fail: '99999999999999999999@1' is not NODE@SECONDS" ;;
fail_twice) args=(run --fail 1@1,1@2) want="names node 1 twice" ;;
fail_no_time) args=(run --fail 2) want="--fail: '2' is not NODE@SECONDS" ;;
fault_drop_one) args=(run --fault drop:1) want="drop:P needs a probability P from 0 to below 1" ;;
fault_unknown_item) args=(run --fault lose:0.1) want="--fault: item 'lose:0.1': the items are" ;;
fault_trailing_comma) args=(run --fault drop:0.1,) want="ends with a comma" ;;
fault_link_unknown) args=(run --platform "$small" --n 64 --block 16 --fault link:n9-nic:2) want="--fault link:n9-nic: platform $small has no link of that name" ;;
fault_link_factor_below_one) args=(run --fault link:n1-nic:0.5) want="FACTOR from 1 to 1e6" ;;
fault_link_lazy) args=(run --platform "$small" --n 64 --block 16 --fault link:n1-nic:2@0.001 --cfg network/optim:Lazy) want="--cfg=network/optim:Lazy: a link fault after the start" ;;
fault_real) args=(run --backend real --fault drop:0.1) want="--fault is for the simulator (--backend sim)" ;;
fault_json_number) args=(run "$tmp/fault-number.json") want="fault" ;;
simgrid_cfg_real) args=(run --backend real --cfg=network/model:LV08) want="--cfg=network/model:LV08: SimGrid's setting, for the simulator (--backend sim)" ;;
pack_copies_real) args=(run --backend real --devices gpu --pack-copies on) want="--pack-copies on: the real backend copies each subscription on its own" ;;
bad_mtc_workers) args=(run --platform "$tmp/bad-mtc-workers.xml" --devices gpu --gpu-mode many-task --n 64 --block 16) want="property mtc_workers='1.5' is not a whole number of workers" ;;
bad_mtc_cost) args=(run --platform "$tmp/bad-mtc-cost.xml" --devices gpu --gpu-mode many-task --n 64 --block 16) want="property mtc_bundle_cost='-1' is not a number >= 0" ;;
gpu_mem_over_device) args=(run --platform "$small" --devices gpu --gpu-mem 99999999999) want="--gpu-mem 99999999999: GPU n0-gpu0 has only 1073741824 bytes" ;;
speed_overflow) args=(run --platform "$tmp/speed-overflow.xml" --n 64 --block 16) want="platform $tmp/speed-overflow.xml: host n1-cpu: speed '1e300Gf' must be a number > 0 of flop/s, at most 1e30 (e.g. 1Gf)" ;;
latency_in_weeks) args=(run --platform "$tmp/latency-weeks.xml" --n 64 --block 16) want="link n0-nic: latency '1e8w' must be a number of seconds from 0 to 1e9" ;;
bandwidth_in_bits) args=(run --platform "$tmp/bandwidth-bits.xml" --n 64 --block 16) want="link n0-nic: bandwidth '4bps' must be a number >= 1 of bytes/s" ;;
too_many_gpus) args=(run --platform "$tmp/gpus-17.xml" --devices gpu --n 64 --block 16) want="platform $tmp/gpus-17.xml: node 0 has 17 GPUs, at most 16" ;;
platform_without_gpus) args=(run --platform "$tmp/no-gpu.xml" --devices cpu+gpu --n 64 --block 16) want="node 0 of platform $tmp/no-gpu.xml has no GPU" ;;
unknown_locality) args=(run --locality maybe) want="--locality: unknown value 'maybe' (one of: on, off)" ;;
conv2d_block_not_dividing) args=(run --app conv2d --n 100 --block 32) want="conv2d: --block 32 does not divide --n 100" ;;
conv2d_radius_zero) args=(run --app conv2d --app-param radius=0) want="conv2d: --app-param radius=0: not a whole number from 1 to 64" ;;
conv2d_channels_five) args=(run --app conv2d --app-param channels=5) want="conv2d: --app-param channels=5: not a whole number from 1 to 4" ;;
conv2d_unknown_param) args=(run --app conv2d --app-param sigma=2) want="conv2d: --app-param sigma: unknown key (radius, channels, channel_bytes, bottom_block)" ;;
conv2d_channel_bytes_two) args=(run --app conv2d --app-param channel_bytes=2) want="conv2d: channel_bytes 2: 1 (a byte a channel) or 4 (a float)" ;;
chain_no_subtasks) args=(run --app chain --n 10 --block 0) want="chain: --n (steps) and --block (subtasks per step) must be positive" ;;
unknown_prefetch_priority) args=(run --prefetch-priority high) want="--prefetch-priority: unknown value 'high' (one of: low, same)" ;;
prefetch_priority_not_string) args=(run --config "$tmp/prefetch-number.json") want="key 'prefetch-priority' must be a string" ;;
unknown_trace_format) args=(run --trace x.json --trace-format vite) want="--trace-format: unknown value 'vite' (one of: chrome, paje)" ;;
trace_format_not_string) args=(run --config "$tmp/trace-format-number.json") want="key 'trace-format' must be a string" ;;
plot_missing_file) args=(plot "$tmp/none.json") want="plot $tmp/none.json: No such file or directory" ;;
plot_not_a_trace) args=(plot "$tmp/unknown-key.json") want="plot $tmp/unknown-key.json: not a Chrome trace" ;;
plot_bad_size) args=(plot "$tmp/unknown-key.json" --size 640by360) want="plot: --size '640by360': not WxH in pixels" ;;
gpu_mem_below_subtask)
  args=(run --platform "$small" --devices gpu --gpu-mem 300000 --n 1024 --block 128)
  want="needs 1114880 bytes of GPU memory; the budget is 300000" ;;
unknown_work_groups) args=(run --work-groups maybe) want="--work-groups: unknown value 'maybe' (one of: on, off)" ;;
work_groups_with_cpu_devices) args=(run --work-groups on --cpu-devices 2) want="--cpu-devices 2: with --work-groups on" ;;
reserved_all_cores) args=(run --platform "$small" --reserved-cores 4 --n 64 --block 16) want="--reserved-cores 4 leaves none of the node's 4 cores for subtasks (node 0 of platform $small)" ;;
unknown_sched) args=(run --sched fifo) want="--sched: unknown policy 'fifo' (one of: unicorn, eager" ;;
perfmodel_missing) args=(run --platform "$small" --perfmodel "$tmp/none.json") want="$tmp/none.json: cannot read it" ;;
perfmodel_corrupt) args=(run --platform "$small" --perfmodel "$tmp/corrupt-model.json") want="$tmp/corrupt-model.json" ;;
perfmodel_other_platform) args=(run --platform "$small" --perfmodel "$tmp/other-platform.json") want="$tmp/other-platform.json: measured on platform paper-cluster.xml, this run uses small.xml" ;;
calibrate_without_perfmodel) args=(run --calibrate on) want="--calibrate on: needs --perfmodel FILE" ;;
seed_json_ambiguous) args=(run --config "$tmp/seed-ambiguous.json") want="key 'seed': 9007199254740992 is not below 2^53" ;;
nul_byte_run) args=(run --config "$tmp/nul-byte-run.json") want="config $tmp/nul-byte-run.json: a NUL byte at offset 12, not a text file" ;;
nul_byte_sweep) args=(sweep "$tmp/nul-byte-sweep.json") want="sweep $tmp/nul-byte-sweep.json: a NUL byte at offset 43, not a text file" ;;
nul_byte_model) args=(run --platform "$small" --perfmodel "$tmp/nul-byte-model.json" --sched dmda --n 64 --block 16) want="$tmp/nul-byte-model.json: a NUL byte at offset 63, not a text file" ;;
nul_byte_trace) args=(plot "$tmp/nul-byte-trace.json") want="plot $tmp/nul-byte-trace.json: a NUL byte at offset 19, not a text file" ;;
json_nul_string) args=(run --config "$tmp/nul-string.json") want="a string holds a NUL character" ;;
platform_path_too_long) args=(run --platform "$(printf 'p%.0s' $(seq 1100))") want="--platform: 1100 characters, at most 1023" ;;
sweep_unknown_key) args=(sweep "$tmp/sweep-unknown-key.json") want="unknown key 'bogus'" ;;
sweep_base_overridden) args=(sweep "$tmp/sweep-base-overridden.json") want="base: key 'n' must be a number" ;;
sweep_unknown_column) args=(sweep "$tmp/sweep-unknown-column.json") want="'nope' is not a key of \`narwhal run --json\`" ;;
sweep_dry_run) args=(sweep "$tmp/sweep-dry-run.json") want="\"dry-run\" has no place in a sweep" ;;
sweep_jobs_zero) args=(sweep "$tmp/sweep-unknown-key.json" -j 0) want="sweep: -j '0': not a number of jobs from 1 to 256" ;;
sweep_resume_without_csv) args=(sweep "$tmp/sweep-no-csv.json" --resume) want="--resume needs the CSV of the earlier run" ;;
sweep_vary_twice) args=(sweep "$tmp/sweep-vary-twice.json") want="\"vary\" names 'nodes' twice" ;;
sweep_vary_empty) args=(sweep "$tmp/sweep-vary-empty.json") want="\"vary\": 'sched' needs a non-empty list of values" ;;
sweep_options_number) args=(sweep "$tmp/sweep-options-number.json") want="each value of 'options' must be an object of run keys set together" ;;
sweep_options_json) args=(sweep "$tmp/sweep-options-json.json") want="\"json\" has no place in a sweep" ;;
sweep_options_twice) args=(sweep "$tmp/sweep-options-twice.json") want="\"vary\": 'sched' is varied and set by 'options' too" ;;
sweep_csv_number) args=(sweep "$tmp/sweep-csv-number.json") want="\"csv\" must be a string" ;;
newline_in_path) args=(run --platform "$tmp/a
b.xml" --n 64 --block 16) want="a\\nb.xml: No such file" ;;
sweep_bad_later_point) args=(sweep "$tmp/sweep-bad-later-point.json") want="the point nodes = 9: platform $small has 4 nodes, 9 requested" ;;
check_too_many_nodes) args=(run --check --platform "$small" --nodes 9 --n 64 --block 16) want="has 4 nodes, 9 requested" ;;
platform_bandwidth_zero) args=(run --platform "$tmp/bandwidth-zero.xml" --n 64 --block 16) want="link n0-nic: bandwidth '0Bps' must be a number >= 1 of bytes/s" ;;
platform_latency_infinite) args=(run --platform "$tmp/latency-inf.xml" --n 64 --block 16) want="link n0-nic: latency 'infus' must be a number of seconds from 0 to 1e9" ;;
platform_latency_negative) args=(run --platform "$tmp/latency-negative.xml" --n 64 --block 16) want="link n0-nic: latency '-1ms' must be a number of seconds from 0 to 1e9" ;;
platform_latency_huge) args=(run --platform "$tmp/latency-huge.xml" --n 64 --block 16) want="link n0-nic: latency '1e300s' must be a number of seconds from 0 to 1e9" ;;
platform_speed_zero) args=(run --platform "$tmp/speed-zero.xml" --n 64 --block 16) want="host n0-cpu: speed '0Gf' must be a number > 0" ;;
platform_node_gap) args=(run --platform "$tmp/node-gap.xml" --n 64 --block 16) want="but no n2-cpu: nodes are numbered from n0 without gaps" ;;
slow_node_missing) args=(run --platform "$small" --n 64 --block 16 --slow 7:2) want="--slow: node 7 does not exist (this run has 4 nodes, 0 to 3)" ;;
slow_node_overflow) args=(run --slow 99999999999:2) want="--slow: '99999999999:2' is not NODE:FACTOR" ;;
slow_from_infinite) args=(run --slow 1:2@inf) want="--slow: '1:2@inf' is not NODE:FACTOR" ;;
runtime_cost_negative) args=(run --platform "$tmp/bad-cost.xml" --n 64 --block 16) want="host n0-cpu: property rt_exec_done='-1' is not a number of seconds >= 0" ;;
calibrate_bad_workload) args=(calibrate --platform-out "$tmp/p.xml" --perfmodel "$tmp/m.json" --workload matmul:12x:4) want="--workload 'matmul:12x:4': N and BLOCK must be positive whole numbers" ;;
calibrate_bad_settle) args=(calibrate --platform-out "$tmp/p.xml" --perfmodel "$tmp/m.json" --workload matmul:64:32 --settle 0) want="--settle '0': MiB, a whole number from 1 to 1048576" ;;
calibrate_without_workload) args=(calibrate --platform-out "$tmp/p.xml" --perfmodel "$tmp/m.json") want="calibrate needs --platform-out FILE, --perfmodel FILE and at least one --workload" ;;
matmul_unknown_param) args=(run --app matmul --n 64 --block 16 --app-param foo=1) want="matmul: --app-param foo: unknown key (copies)" ;;
matmul_copies_zero) args=(run --app matmul --n 64 --block 16 --app-param copies=0) want="matmul: --app-param copies=0: not a whole number from 1 to 16" ;;
lu_block_not_dividing) args=(run --app lu --n 100 --block 32) want="lu: --block 32 does not divide --n 100" ;;
lu_app_param) args=(run --app lu --n 64 --block 16 --app-param iterations=3) want="lu: --app-param iterations: unknown key (nested)" ;;
lu_nested_bad) args=(run --app lu --n 64 --block 16 --app-param nested=2) want="lu: --app-param nested=2: not a whole number from 0 to 1" ;;
fft2d_block_not_dividing) args=(run --app fft2d --n 100 --block 32) want="fft2d: --block 32 does not divide --n 100" ;;
fft2d_block_zero) args=(run --app fft2d --n 64 --block 0) want="fft2d: --n and --block must be positive" ;;
fft2d_n_too_large) args=(run --app fft2d --n 2097152 --block 512) want="fft2d: --n 2097152 is larger than 1048576" ;;
fft2d_app_param) args=(run --app fft2d --n 64 --block 16 --app-param iterations=3) want="fft2d: --app-param iterations: fft2d takes no app parameters" ;;
app_param_malformed) args=(run --app taskbench --app-param iterations) want="--app-param: 'iterations' is not KEY=VALUE" ;;
app_param_not_object) args=(run --config "$tmp/app-param-number.json") want="key 'app-param' must be an object of KEY: VALUE" ;;
taskbench_unknown_pattern) args=(run --app taskbench --app-param pattern=ring) want="taskbench: --app-param pattern=ring: unknown pattern" ;;
too_many_bound_spaces) args=(run --platform "$small" --nodes 2 --app bag --n 2 --block 2 --app-param inputs=1024) want="nw_task_bind: task 'bag-task' binds 1024 spaces already, the most one task may bind (NW_MAX_BOUND_SPACES)" ;;
bag_unknown_param) args=(run --app bag --app-param spaces=3) want="bag: --app-param spaces: unknown key" ;;
taskbench_unknown_param) args=(run --app taskbench --app-param radix=3) want="taskbench: --app-param radix: unknown key" ;;
compression_network_phantom) args=(run --compression network --data phantom) want="--compression network needs --data functional (phantom data has no bytes to encode)" ;;
compression_gpu_phantom) args=(run --compression gpu --data phantom) want="--compression gpu needs --data functional (phantom data has no bytes to encode)" ;;
compression_both_phantom) args=(run --compression both --data phantom) want="--compression both needs --data functional (phantom data has no bytes to encode)" ;;
unknown_compression) args=(run --compression zip) want="--compression: unknown value 'zip' (one of: off, network, gpu, both)" ;;
gpu_rle_cost_negative) args=(run --platform "$tmp/bad-gpu-rle.xml" --devices gpu --n 64 --block 16) want="host n0-gpu0: property rle_per_byte='-1e-9' is not a number of seconds >= 0" ;;
pagerank_block_not_dividing) args=(run --app pagerank --n 1000 --block 512) want="pagerank: --block 512 does not divide --n 1000" ;;
pagerank_iterations_zero) args=(run --app pagerank --app-param iterations=0) want="pagerank: --app-param iterations=0: not a whole number from 1 to 1000" ;;
unknown_placement) args=(run --placement diagonal) want="--placement: unknown value 'diagonal' (one of: spread, node0, blocks, rows, columns, rows-columns, local)" ;;
conv2d_placement_rows_columns) args=(run --app conv2d --n 64 --block 16 --placement rows-columns) want="--placement rows-columns: conv2d cannot place its inputs that way (it takes spread, blocks, node0, rows, columns)" ;;
pagerank_placement_rows) args=(run --app pagerank --placement rows) want="--placement rows: pagerank cannot place its inputs that way (it takes spread, blocks, node0)" ;;
pagerank_iterations_fraction) args=(run --app pagerank --app-param iterations=2.5) want="pagerank: --app-param iterations=2.5: not a whole number from 1 to 1000" ;;
agglomerate_without_gpu) args=(run --platform "$small" --agglomerate 8 --n 64 --block 16) want="--agglomerate 8: node 0 runs no GPU (--devices cpu); agglomeration is a GPU mode" ;;
agglomerate_too_large) args=(run --agglomerate 2000) want="--agglomerate: must be from 0 (off) to 1024" ;;
agglomerate_real) args=(run --backend real --agglomerate 4 --n 64 --block 16) want="--agglomerate 4: no rank runs a GPU (--devices cpu); agglomeration is a GPU mode" ;;
agglomerate_mode_unknown) args=(run --agglomerate 4 --agglomerate-mode sometimes) want="--agglomerate-mode: unknown value 'sometimes' (one of: dynamic, static)" ;;
agglomerate_mode_static_off) args=(run --platform "$small" --devices gpu --agglomerate-mode static --n 64 --block 16) want="--agglomerate-mode static: needs --agglomerate N (1 to 1024)" ;;
agglomerate_mode_static_real) args=(run --backend real --devices gpu --agglomerate 4 --agglomerate-mode static --n 64 --block 16) want="--agglomerate-mode static: the real backend agglomerates dynamically only" ;;
platform_fill_flops_negative) args=(run --platform "$tmp/bad-fill.xml" --devices gpu --n 64 --block 16) want="host n0-gpu0: property fill_flops='-1' is not a number of flops >= 0" ;;
platform_fill_threads_negative) args=(run --platform "$tmp/bad-threads.xml" --devices gpu --app adder --n 64 --block 16) want="host n0-gpu0: property fill_threads='-32' is not a number of threads >= 0" ;;
roofline_p_above_one) args=(run --sched roofline --roofline-p 1.5) want="--roofline-p: '1.5' is neither auto nor a fraction from 0 to 1" ;;
roofline_resident_bad) args=(run --roofline-resident maybe) want="--roofline-resident: unknown value 'maybe' (one of: on, off)" ;;
platform_dram_bw_negative) args=(run --platform "$tmp/bad-dram.xml" --n 64 --block 16) want="host n0-cpu: property dram_bw='-5' is not a number of bytes/s >= 0" ;;
platform_mem_bw_negative) args=(run --platform "$tmp/bad-gpu-mem-bw.xml" --devices gpu --n 64 --block 16) want="host n0-gpu0: property mem_bw='-1' is not a number of bytes/s >= 0" ;;
gemv_block_not_dividing) args=(run --app gemv --n 100 --block 32) want="gemv: --block 32 does not divide --n 100" ;;
gemv_unknown_param) args=(run --app gemv --n 64 --block 16 --app-param rows=3) want="gemv: --app-param rows: unknown key (cols)" ;;
gemv_cols_too_large) args=(run --app gemv --n 64 --block 16 --app-param cols=300000) want="gemv: 300000 columns (--app-param cols, default --n) is more than 262143" ;;
gemv_default_cols_too_large) args=(run --app gemv --n 300000 --block 1000) want="gemv: 300000 columns (--app-param cols, default --n) is more than 262143" ;;
cmeans_block_not_dividing) args=(run --app cmeans --n 100 --block 32) want="cmeans: --block 32 does not divide --n 100" ;;
cmeans_unknown_param) args=(run --app cmeans --n 64 --block 16 --app-param k=3) want="cmeans: --app-param k: unknown key (clusters, dims, iterations)" ;;
cmeans_clusters_zero) args=(run --app cmeans --n 64 --block 16 --app-param clusters=0) want="cmeans: --app-param clusters=0: not a whole number from 1 to 1024" ;;
cmeans_fewer_points_than_clusters) args=(run --app cmeans --n 8 --block 4) want="cmeans: --n 8 is fewer points than the 10 clusters" ;;
gmm_unknown_param) args=(run --app gmm --n 64 --block 16 --app-param k=3) want="gmm: --app-param k: unknown key (clusters, dims, iterations)" ;;
gmm_dims_zero) args=(run --app gmm --n 64 --block 16 --app-param dims=0) want="gmm: --app-param dims=0: not a whole number from 1 to 256" ;;
gmm_too_many_sums) args=(run --app gmm --n 2048 --block 16 --app-param clusters=1024 --app-param dims=100) want="gmm: 1024 clusters of 100 dimensions give 5274624 sums per subtask; at most 4194304" ;;
molecular2d_cells_not_square) args=(run --app molecular2d --n 4096 --block 512) want="molecular2d: --n 4096 / --block 512 gives 8 cells, not a square number (the cells form a G x G grid)" ;;
molecular2d_block_not_dividing) args=(run --app molecular2d --n 1000 --block 64) want="molecular2d: --block 64 does not divide --n 1000" ;;
molecular2d_steps_zero) args=(run --app molecular2d --n 4096 --block 256 --app-param steps=0) want="molecular2d: --app-param steps=0: not a whole number from 1 to 100000" ;;
molecular2d_unknown_param) args=(run --app molecular2d --n 4096 --block 256 --app-param cutoff=2) want="molecular2d: --app-param cutoff: unknown key (steps)" ;;
molecular2d_too_many_cells) args=(run --app molecular2d --n 263169 --block 1) want="molecular2d: --n 263169 / --block 1 gives 263169 cells; at most 65536 (256 x 256)" ;;
adder_block_not_dividing) args=(run --app adder --n 100 --block 32) want="adder: --block 32 does not divide --n 100" ;;
adder_unknown_param) args=(run --app adder --n 64 --block 16 --app-param steps=3) want="adder: --app-param steps: unknown key (flops)" ;;
adder_flops_zero) args=(run --app adder --n 64 --block 16 --app-param flops=0) want="adder: --app-param flops=0: not a whole number from 1 to 9007199254740992" ;;
adder_too_many_subtasks) args=(run --app adder --n 33554432 --block 1) want="adder: --n 33554432 / --block 1 gives 33554432 subtasks; at most 2^24" ;;
adder_n_too_large) args=(run --app adder --n 268435456 --block 1024) want="adder: --n 268435456 is more than 2^27 elements" ;;
mdlite_block_not_dividing) args=(run --app mdlite --n 100 --block 32) want="mdlite: --block 32 does not divide --n 100" ;;
mdlite_block_above_warp) args=(run --app mdlite --n 128 --block 64) want="mdlite: --block 64 is more than 32 particles per group" ;;
mdlite_steps_zero) args=(run --app mdlite --n 128 --block 32 --app-param steps=0) want="mdlite: --app-param steps=0: not a whole number from 1 to 100000" ;;
mdlite_steps_too_many) args=(run --app mdlite --n 128 --block 32 --app-param steps=100001) want="mdlite: --app-param steps=100001: not a whole number from 1 to 100000" ;;
mdlite_unknown_param) args=(run --app mdlite --n 128 --block 32 --app-param flops=3) want="mdlite: --app-param flops: unknown key (steps)" ;;
mdlite_n_too_large) args=(run --app mdlite --n 33554432 --block 32) want="mdlite: --n 33554432 is more than 2^24 particles" ;;
# Found by tests/fuzz/fuzz.sh, each input made minimal.
fuzz_route_missing) # SimGrid aborted at the first copy back: "no connecting path"
  sed '/<route src="n0-gpu0" dst="n0-cpu"/d' "$small" >"$tmp/route-missing.xml"
  args=(run --platform "$tmp/route-missing.xml" --n 64 --block 16)
  want="platform $tmp/route-missing.xml: a route SimGrid cannot take: no route from n0-gpu0 to n0-cpu" ;;
fuzz_zone_route_missing) # SimGrid threw at the first transfer: "Bad gateways"
  sed '/<zoneRoute src="n0" dst="n1"/d' "$small" >"$tmp/zone-route-missing.xml"
  args=(run --platform "$tmp/zone-route-missing.xml" --n 64 --block 16)
  want="a route SimGrid cannot take: Bad gateways for route from 'n0-cpu' to 'n1-cpu'" ;;
fuzz_sweep_trailing_text) # the first object was swept, the rest ignored
  printf '{"base": {}, "vary": {"nodes": [1]}} {}\n' >"$tmp/sweep-trailing.json"
  args=(sweep "$tmp/sweep-trailing.json") want="sweep $tmp/sweep-trailing.json: malformed JSON" ;;
fuzz_plot_trailing_text) # the first object was drawn, the rest ignored
  printf '{"traceEvents": []} x\n' >"$tmp/trace-trailing.json"
  args=(plot "$tmp/trace-trailing.json") want="plot $tmp/trace-trailing.json: not a Chrome trace" ;;
fuzz_seed_leading_space) # strtoull read " -1" as 2^64 - 1: a seed nobody gave
  args=(run --seed " -1" --dry-run) want="--seed: ' -1' is not a whole number" ;;
fuzz_app_param_leading_space)
  args=(run --app adder --n 64 --block 16 --app-param "flops= -1")
  want="adder: --app-param flops= -1: not a whole number from 1 to 9007199254740992" ;;
fuzz_json_number_beyond_u64) # cast to unsigned long long first: undefined from 2^64 on
  printf '{"n": 1e300}\n' >"$tmp/n-1e300.json"
  args=(run --config "$tmp/n-1e300.json") want="key 'n' must be a whole number >= 0" ;;
fuzz_sweep_csv_empty) # exit 1, "cannot write : No such file or directory"
  args=(sweep "$tmp/sweep-no-csv.json" --csv "") want="sweep: --csv: the value is empty" ;;
fuzz_plot_out_empty) # exit 1 after gnuplot failed on ".gp"
  args=(plot "$tmp/unknown-key.json" --out "") want="plot: --out: the value is empty" ;;
fuzz_cfg_bandwidth_factor_zero) # SimGrid took it, then aborted at the first transfer
  args=(run --platform "$small" --n 64 --block 16 --cfg network/bandwidth-factor:0)
  want="SimGrid cannot simulate with the --cfg/--log settings (--cfg=network/bandwidth-factor:0): Invalid param for comm" ;;
fuzz_cfg_maxmin_precision_one) # "The Impossible Did Happen" in the run
  args=(run --platform "$small" --n 64 --block 16 --cfg maxmin/precision:1)
  want="SimGrid cannot simulate with the --cfg/--log settings (--cfg=maxmin/precision:1)" ;;
fuzz_cfg_precision_zero) # the run never ended (10 s of probing)
  args=(run --platform "$small" --n 64 --block 16 --cfg surf/precision:0)
  want="SimGrid did not simulate a first transfer in 10 s with the --cfg/--log settings (--cfg=surf/precision:0)" ;;
fuzz_bandwidth_below_one) # SimGrid aborted in the run: "The Impossible Did Happen"
  sed 's/bw="[^"]*"/bw="1e-3Bps"/' "$src/platforms/cluster-cpu.xml" >"$tmp/bw-tiny.xml"
  args=(run --platform "$tmp/bw-tiny.xml" --app conv2d --n 64 --block 16 --data phantom)
  want="bw '1e-3Bps' must be a number >= 1 of bytes/s" ;;
fuzz_route_names_zone) # SimGrid died with a SIGSEGV loading it (the checking child's ASan report)
  sed 's/<route src="n0-cpu" dst="n0-gpu0"/<route src="cluster" dst="n0-gpu0"/' \
    "$src/platforms/hetero-node.xml" >"$tmp/route-names-zone.xml"
  args=(run --platform "$tmp/route-names-zone.xml" --n 64 --block 16)
  want="platform $tmp/route-names-zone.xml: route src 'cluster' is a zone; a <route> joins hosts or routers" ;;
*) echo "bad_input: unknown case $case"; exit 2 ;;
esac

timeout 60 "$nw" "${args[@]}" >"$tmp/out" 2>"$tmp/err"
status=$?
echo "narwhal ${args[*]} -> status $status"
cat "$tmp/err"
fail() { echo "bad_input $case: 0 passed, 1 failed: $*"; exit 1; }
[ "$status" -eq "$want_status" ] || fail "status $status, wanted $want_status"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "stderr has $(wc -l <"$tmp/err") lines, wanted 1"
grep -q '^narwhal: ' "$tmp/err" || fail "stderr does not start with 'narwhal: '"
grep -qF -- "$want" "$tmp/err" || fail "stderr does not contain '$want'"
[ ! -s "$tmp/out" ] || fail "stdout is not empty"
[ ! -e "$tmp/later.csv" ] || fail "the sweep ran a point before refusing a later one"
echo "bad_input $case: 1 passed, 0 failed"
