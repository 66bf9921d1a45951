#!/bin/bash
# A/B of the cache's per-response write budget per event-loop turn (edgelab serve --turn-budget).
# For each run and budget: a fresh cache (memory engine, 2 GB) in front of one warm origin, then a
# 100-connection load with a 92.5 % hit-ratio target; prints req/s, TTLB/TTFB percentiles and the
# cache's phase timings (/stats phase_ms). Loopback only; ports 18480 (cache), 18481 (origin), 18489 (admin).
#
#   scripts/ab-turn-budget.sh 10MB 100 "2MiB 256KiB"      # object size, objects in the set, budgets
#   scripts/ab-turn-budget.sh 1MB 1000 "2MiB 256KiB"
set -euo pipefail
size=${1:-10MB}; objects=${2:-100}; budgets=${3:-"2MiB 256KiB"}; runs=${RUNS:-3}
cd "$(dirname "$0")/.."
./edgelab --version >/dev/null
./edgelab origin --port 18481 >/dev/null 2>&1 &
origin=$!
trap 'pkill -f "serve --turn-budget .* --port 18480" || true; kill $origin 2>/dev/null || true' EXIT
sleep 5
for run in $(seq 1 "$runs"); do
  for budget in $budgets; do
    ./edgelab serve --turn-budget "$budget" --port 18480 --origin http://127.0.0.1:18481 --memory 2g \
        --admin-port 18489 >/dev/null 2>&1 &
    cache=$!
    for _ in $(seq 1 60); do curl -sf http://127.0.0.1:18489/health >/dev/null && break; sleep 0.5; done
    out=$(./edgelab load http://127.0.0.1:18480 --sizes "$size" --objects "$objects" --hit-ratio 0.925 -c100 -t2 \
        -d30s --warmup 10s --latency --timeout 30s --seed "$run" 2>&1)
    rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
    lat=$(echo "$out" | awk '/^ +(50|90|99)%/ {printf "%s=%s/%s ", $1, $2, $3}')
    phases=$(curl -s http://127.0.0.1:18489/stats | python3 -c "import json,sys; d=json.load(sys.stdin)['phase_ms']; print(' '.join(f\"{k}:p50={v['p50_ms']:.0f},p99={v['p99_ms']:.0f}\" for k,v in d.items()))")
    echo "run=$run size=$size budget=$budget req/s=$rps ttlb/ttfb $lat| $phases"
    kill "$cache"; wait "$cache" 2>/dev/null || true
  done
done
