#!/usr/bin/env bash
# Cube and conquer on a real Slurm: starts a one-node cluster on this machine (munged,
# slurmctld and slurmd on localhost, from Debian's `slurm-wlm` and `munge`, with a generated
# slurm.conf), splits knight domination of 16x16 into a few dozen cubes, submits the job
# array that `knights-sat split` wrote, kills one array task while its cube is being searched,
# merges (the killed cube must be missing), resubmits only the missing cubes, merges again
# and checks the optimum: 40 knights (OEIS A006075), with the certificate the merge writes
# from the split's tree and the cubes' (the split is certified). Then the same for a tour, split into the
# paths of its first moves: the knight from h8 around the queen on d5, 46 moves (the published
# optimum). Stops the daemons it started, by their process ids, however it ends.
#
#   scripts/slurm-cluster-test.sh [KNIGHTS_SAT_BINARY]     (run as root; default target/debug/knights-sat)
set -euo pipefail
cd "$(dirname "$0")/.."

binary=$(realpath "${1:-target/debug/knights-sat}")
puzzle=puzzles/bench-domination/knights-16x16.toml
expected="optimal: 40 pieces"
for tool in munged slurmctld slurmd sbatch squeue scancel; do
    command -v "$tool" >/dev/null || { echo "slurm test: $tool is missing (apt-get install slurm-wlm munge)" >&2; exit 2; }
done
[ -x "$binary" ] || { echo "slurm test: no binary at $binary (cargo build first)" >&2; exit 2; }

work=$(mktemp -d /tmp/knights-sat-slurm.XXXXXX)
chmod 755 "$work"
pids=()
stop_daemons() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
    done
}
show_logs() {
    echo "slurm test failed; daemon logs:" >&2
    tail -n 20 "$work"/*.log >&2 2>/dev/null || true
}
trap 'status=$?; [ $status -ne 0 ] && show_logs; stop_daemons; [ $status -eq 0 ] && rm -rf "$work"; exit $status' EXIT
say() { printf 'slurm test (%ss): %s\n' "$SECONDS" "$*"; }

# munge: a fresh key and its own socket, so no system daemon is touched.
mkdir -p "$work/munge"
chmod 700 "$work/munge"
head -c 1024 /dev/urandom >"$work/munge/munge.key"
chmod 400 "$work/munge/munge.key"
socket="$work/munge/munge.socket"
munged --foreground --force --key-file="$work/munge/munge.key" --socket="$socket" \
    --pid-file="$work/munge/munged.pid" --log-file="$work/munged.log" --seed-file="$work/munge/seed" 2>>"$work/munged.log" &
pids+=($!)

# slurm.conf for one node with this machine's cores, on ports of their own.
node=$(hostname -s)
cpus=$(nproc)
port=$((17000 + RANDOM % 20000))
mkdir -p "$work/state" "$work/spool"
# batch_sched_delay=0: a finished task's CPU goes to the next one at the scheduler's next
# pass (about a second) instead of after the default delay of three seconds; the cubes here
# take a tenth of a second, so the test took 117 s with the default and 45 s without.
cat >"$work/slurm.conf" <<EOF
ClusterName=knights-sat-test
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$work/slurm.conf"
for _ in $(seq 50); do [ -S "$socket" ] && break; sleep 0.1; done
slurmctld -D -f "$SLURM_CONF" 2>>"$work/slurmctld.log" &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N "$node" 2>>"$work/slurmd.log" &
pids+=($!)
for _ in $(seq 100); do
    sinfo -h -o '%T' 2>/dev/null | grep -qx idle && break
    sleep 0.2
done
sinfo -h -o '%T' | grep -qx idle || { echo "slurm test: the node did not come up" >&2; exit 1; }
say "one-node cluster up: $node, $cpus CPUs"

# The job directory.
jobs="$work/jobs"
"$binary" split "$puzzle" --out "$jobs" --cubes 40 --certify --quiet
cubes=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cubes"])' "$jobs/job.json")
[ "$cubes" -ge 24 ] || { echo "slurm test: only $cubes cubes" >&2; exit 1; }

wait_for() {
    for _ in $(seq 1200); do
        [ -z "$(squeue -h -j "$1" 2>/dev/null)" ] && return 0
        sleep 0.25
    done
    echo "slurm test: job $1 did not end" >&2
    return 1
}

# Submit the array, and kill a task whose cube is being searched: a running task with no
# result yet. A cube can take well under a tenth of a second, so the task is first frozen
# (SIGSTOP to its process, which cannot then write its result) and only then killed through
# Slurm; a task caught after its result was written is let go on. Slurm wakes a frozen
# process (SIGCONT) on its way to killing it, and a cube of hundredths of a second can then
# still write its result (CI saw it once): a kill that leaves a result did not land. If every
# cube finished before one was caught, or the kill did not land, the array is submitted again
# (after the results are cleared).
killed=""
for attempt in 1 2 3 4 5; do
    rm -f "$jobs"/results/*
    job=$(sbatch --parsable "$jobs/run.sbatch")
    say "submitted job array $job ($cubes cubes, attempt $attempt)"
    while [ -n "$(squeue -h -j "$job" 2>/dev/null)" ]; do
        for pid in $(pgrep -f "cube $jobs [0-9]+( |\$)" || true); do
            task=$(tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline" | awk -v dir="$jobs" '{ for (i = 1; i < NF; i++) if ($i == dir) { print $(i + 1); exit } }' || true)
            [ -n "$task" ] || continue
            kill -STOP "$pid" 2>/dev/null || continue
            if [ -e "$jobs/results/cube-$task.json" ]; then
                kill -CONT "$pid" 2>/dev/null || true
                continue
            fi
            scancel --signal=KILL "${job}_${task}"
            killed=$task
            break 2
        done
        sleep 0.02
    done
    wait_for "$job"
    if [ -n "$killed" ] && [ -e "$jobs/results/cube-$killed.json" ]; then
        say "the kill of array task $killed did not land before its cube's result was written"
        killed=""
    fi
    [ -n "$killed" ] && break
done
[ -n "$killed" ] || { echo "slurm test: no kill landed while a cube was searched" >&2; exit 1; }
wait_for "$job"
say "killed array task $killed mid-run; the others ran to the end"

set +e
"$binary" merge "$jobs" >"$work/merge1.out" 2>&1
status=$?
set -e
missing=$("$binary" merge "$jobs" --missing)
[ "$status" -eq 4 ] || { cat "$work/merge1.out"; echo "slurm test: merge with a killed cube exited $status, not 4" >&2; exit 1; }
case ",$missing," in
*",$killed,"*) ;;
*) echo "slurm test: the killed cube $killed is not among the missing: $missing" >&2; exit 1 ;;
esac
say "merge names the cubes to search again: $missing"

job=$(sbatch --parsable --array="$missing" "$jobs/run.sbatch")
wait_for "$job"
"$binary" merge "$jobs" >"$work/merge2.out"
head -n 4 "$work/merge2.out"
grep -q "$expected" "$work/merge2.out" || { echo "slurm test: the merge does not say '$expected'" >&2; exit 1; }
grep -q "verified: 40 is optimal" "$work/merge2.out" || { cat "$work/merge2.out"; echo "slurm test: the job's certificate was not verified" >&2; exit 1; }
"$binary" verify "$jobs/certificate" >/dev/null || { echo "slurm test: verify rejects the job's certificate" >&2; exit 1; }
[ -z "$("$binary" merge "$jobs" --missing)" ] || { echo "slurm test: cubes still missing" >&2; exit 1; }
say "resubmitted $missing; merged: $expected"

# A tour, split into the paths of its first moves up to the published optimum.
tours="$work/tour"
"$binary" split puzzles/queen-d5-tour.toml --out "$tours" --horizon 46 --cubes 24 --quiet
cubes=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cubes"])' "$tours/job.json")
[ "$cubes" -ge 24 ] || { echo "slurm test: only $cubes cubes for the tour" >&2; exit 1; }
job=$(sbatch --parsable "$tours/run.sbatch")
say "submitted job array $job (the tour, $cubes cubes)"
wait_for "$job"
"$binary" merge "$tours" >"$work/merge3.out"
head -n 4 "$work/merge3.out"
grep -q "optimal: 46 moves" "$work/merge3.out" || { echo "slurm test: the tour's merge does not say 46 moves" >&2; exit 1; }
say "the tour merged: optimal: 46 moves"
