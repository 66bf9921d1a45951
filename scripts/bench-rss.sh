#!/usr/bin/env bash
# Peak resident memory of the cache server while 100 clients read one large object at once:
# first a cold miss (all clients arrive together, so they coalesce on one origin fetch that is
# stored while it streams), then 100 hits. Peak RSS is the kernel's high-water mark (VmHWM in
# /proc/PID/status) of the server JVM over the whole test.
#   scripts/bench-rss.sh [object-size=1GiB] [clients=100] [memory-budget=1280m]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
size="${1:-1GiB}"; clients="${2:-100}"; budget="${3:-1280m}"
origin_port=18281; cache_port=18280
"$root/edgelab" --version >/dev/null

"$root/edgelab" origin --port "$origin_port" >/dev/null 2>&1 & origin=$!
EDGELAB_JAVA_OPTS="${EDGELAB_JAVA_OPTS:-}" "$root/edgelab" serve --port "$cache_port" \
  --origin "http://127.0.0.1:$origin_port" --memory "$budget" >/dev/null 2>&1 & cache=$!
trap 'kill $origin $cache 2>/dev/null; wait 2>/dev/null || true' EXIT
for _ in $(seq 1 150); do curl -sf -o /dev/null "http://127.0.0.1:$cache_port/objects/1/probe" && break; sleep 0.2; done

url="http://127.0.0.1:$cache_port/objects/$size/rss"
round() {
  local label=$1 start; start=$(date +%s.%N)
  local pids=()
  for _ in $(seq 1 "$clients"); do curl -s -o /dev/null -w '%{http_code} %{size_download}\n' "$url" >>"$tmp" & pids+=($!); done
  wait "${pids[@]}"
  echo "$label: $clients clients done in $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}') s; $(sort "$tmp" | uniq -c | tr '\n' ';')"
  : >"$tmp"
}
tmp="$(mktemp)"
echo "server RSS before: $(awk '/VmRSS/{print $2/1024 " MiB"}' /proc/$cache/status)"
round "cold miss (coalesced)"
round "hits"
echo "budget: $budget; peak RSS (VmHWM): $(awk '/VmHWM/{print $2/1024 " MiB"}' /proc/$cache/status); RSS now: $(awk '/VmRSS/{print $2/1024 " MiB"}' /proc/$cache/status)"
curl -s "http://127.0.0.1:$cache_port/objects/1/probe" -o /dev/null
rm -f "$tmp"
