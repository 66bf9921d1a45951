#!/usr/bin/env bash
# Smoke test of the launcher: starts `edgelab serve` with its embedded origin on a free loopback
# port, fetches an object twice (MISS then HIT), checks the bytes are the same, stops the server,
# then runs the README's main command (a quick experiment) and checks it wrote its results.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

./edgelab --version
./edgelab engines

# A source moved or deleted since the last build must not live on in target/ (a stale service file
# once broke the lmdb tests after the memory engine moved modules): the launcher then builds clean.
stale="common/src/main/resources/edgelab-smoke-stale.txt"
trap 'rm -f "$root/$stale"' EXIT
mkdir -p "$(dirname "$stale")"
echo "deleted before the next build" > "$stale"
./edgelab --version >/dev/null
test -f common/target/classes/edgelab-smoke-stale.txt || { echo "smoke: the launcher did not rebuild a new source" >&2; exit 1; }
rm -f "$stale"; rmdir --ignore-fail-on-non-empty "$(dirname "$stale")"
./edgelab --version >/dev/null
test ! -e common/target/classes/edgelab-smoke-stale.txt || { echo "smoke: a deleted source's build output is still in target/" >&2; exit 1; }
echo "smoke: launcher rebuilds clean after a deletion"

log="$(mktemp)"
./edgelab serve --port 0 --admin-port 0 --memory 64m >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -f "$log" "$log".body*' EXIT

for _ in $(seq 1 100); do
  grep -q '^edgelab cache on' "$log" && break
  kill -0 "$pid" 2>/dev/null || { cat "$log"; echo "smoke: server exited" >&2; exit 1; }
  sleep 0.2
done
cat "$log"
base="$(sed -n 's/^edgelab cache on \(http:\/\/[^ ]*\).*/\1/p' "$log")"
admin="$(sed -n 's/^admin on \(http:\/\/[^ ]*\)\/stats.*/\1/p' "$log")"
[[ -n "$base" ]] || { echo "smoke: no listening address printed" >&2; exit 1; }

first="$(curl -s -D - -o "$log.body1" "$base/objects/1MiB/smoke" | tr -d '\r' | sed -n 's/^[Xx]-[Cc]ache: //p')"
second="$(curl -s -D - -o "$log.body2" "$base/objects/1MiB/smoke" | tr -d '\r' | sed -n 's/^[Xx]-[Cc]ache: //p')"
echo "first: X-Cache $first, second: X-Cache $second"
[[ "$first" == MISS && "$second" == HIT ]] || { echo "smoke: expected MISS then HIT" >&2; exit 1; }
[[ "$(stat -c %s "$log.body1")" == 1048576 ]] || { echo "smoke: wrong body length" >&2; exit 1; }
cmp "$log.body1" "$log.body2" || { echo "smoke: the hit differs from the miss" >&2; exit 1; }
if [[ -n "$admin" ]]; then
  curl -sf "$admin/stats"; echo
fi
echo "smoke: serve ok"
kill "$pid"; wait "$pid" 2>/dev/null || true

# The README's main command: the built-in default experiment's quick variant.
out="$(mktemp -d)"
./edgelab run varnish-edge --quick --out "$out"
run_dir="$(ls -d "$out"/varnish-edge/*/ | sed -n 1p)"
test -s "$run_dir/results.csv" && test -s "$run_dir/manifest.json" || { echo "smoke: the quick run wrote no results" >&2; exit 1; }
echo "smoke: quick experiment wrote $(($(wc -l < "$run_dir/results.csv") - 1)) result rows to $run_dir"
rm -rf "$out"
echo "smoke: ok"
