#!/usr/bin/env bash
# across_tasks.sh MPIRUN_SH MPIEXEC NARWHAL: every policy spreads independent tasks over the
# devices of two ranks (scheduling over the ready work of every running task). 24 tasks of one
# subtask each, each writing a space of its own (apps/bag), under mpirun -np 2 with 2 CPU
# devices per rank: every device runs some, and none more than 1.5 x its fair share (9 of 24);
# every result verified. Each subtask sleeps 3 ms (sleep_us): the four devices share this
# machine's cores, and a subtask that waits keeps them at one pace, so what is measured is the
# policy's spread, not the OS's time slicing. A scheduler deciding inside one task puts all 24
# on device 0.
set -u
mpirun_sh=$1 mpiexec=$2 nw=$3
fail=0
for p in unicorn eager prio random ws lws dm dmda dmdar dmdas heft roofline; do
  out=$("$mpirun_sh" "$mpiexec" 2 --bind-to none "$nw" run --backend real --app bag --n 24 --block 1 \
    --cpu-devices 2 --app-param flops=100000 --app-param sleep_us=3000 --sched "$p" --json 2>&1)
  line=$(printf '%s\n' "$out" | tr -d '\n' | awk '{
    v = ($0 ~ /"verified":[ \t]*true/) ? "verified" : "NOT-verified"
    rest = $0; sub(/.*"devices":/, "", rest); counts = ""
    while (match(rest, /"subtasks":[ \t]*[0-9]+/)) {
      s = substr(rest, RSTART, RLENGTH); sub(/.*:[ \t]*/, "", s); counts = counts " " s
      rest = substr(rest, RSTART + RLENGTH)
    }
    print v counts }')
  if echo "$line" | awk '$1 == "verified" && NF == 5 { for (i = 2; i <= 5; i++) if ($i < 1 || $i > 9) exit 1; exit 0 } { exit 1 }'; then
    echo "ok: $p: $line"
  else
    echo "FAIL: $p: $line (wanted verified, 4 devices of 1 to 9 subtasks)"
    printf '%s\n' "$out" | tail -n 5
    fail=1
  fi
done
[ $fail -eq 0 ] && echo "across_tasks: 1 passed, 0 failed" || echo "across_tasks: 0 passed, 1 failed"
exit $fail
