#!/usr/bin/env bash
# Data larger than memory (issue 14): each server alone in a cgroup v1 memory limit (its page cache
# counts against it), a set of objects at least 3x the limit, every request a hit, 100 connections.
# Per server: req/s, TTFB p50/p99/max, TTLB p99, and device bytes read per byte served, from the
# server's /proc/<pid>/io (read_bytes, its whole process tree) and from /proc/diskstats (sectors
# read of the device holding the store, the whole machine) over the measured run.
#
#   sudo scripts/bench-larger-than-memory.sh                          # raw-log raw-files lmdb varnish-file
#   sudo SERVERS="raw-log varnish-file" DURATION=15s scripts/bench-larger-than-memory.sh
#
# Settings (environment): SERVERS, LIMIT (1536M), OBJECTS (5000), SIZE (1MB), CONNECTIONS (100),
# DURATION (30s), DIR (store directory, default /var/tmp/edgelab-ltm; its file system's device is
# the one read in /proc/diskstats), OUT (results folder, default results/larger-than-memory/<time>).
# Needs root and cgroup v1's memory controller at /sys/fs/cgroup/memory; without them it says why and
# exits 2 (1 with EDGELAB_REQUIRE_ROOT=1, as CI sets). The cgroup is created per server and always
# removed, also after a failure or Ctrl-C. Each server's store is deleted before and after its run.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SERVERS="${SERVERS:-raw-log raw-files lmdb varnish-file}"
LIMIT="${LIMIT:-1536M}"; OBJECTS="${OBJECTS:-5000}"; SIZE="${SIZE:-1MB}"
CONNECTIONS="${CONNECTIONS:-100}"; DURATION="${DURATION:-30s}"
DIR="${DIR:-/var/tmp/edgelab-ltm}"; OUT="${OUT:-$root/results/larger-than-memory/$(date +%Y%m%d-%H%M%S)}"
CG_ROOT=/sys/fs/cgroup/memory
origin_port=18581; cache_port=18580; admin_port=18589

skip() {
  echo "bench-larger-than-memory: $1" >&2
  if [[ "${EDGELAB_REQUIRE_ROOT:-}" == 1 ]]; then exit 1; fi
  exit 2
}
[[ $(id -u) -eq 0 ]] || skip "needs root (a cgroup v1 memory limit); run it with sudo"
[[ -w $CG_ROOT ]] || skip "needs cgroup v1's memory controller at $CG_ROOT"
limit_bytes=$(numfmt --from=iec "${LIMIT%B}")
set_bytes=$(( OBJECTS * $(numfmt --from=si "${SIZE%B}") ))
(( set_bytes >= 3 * limit_bytes )) || skip "the set ($set_bytes bytes) must be at least 3x the limit ($limit_bytes)"
store_bytes=$(( set_bytes * 3 / 2 ))
"$root/edgelab" --version >/dev/null
mkdir -p "$OUT" "$DIR"
device=$(basename "$(df --output=source "$DIR" | tail -1)")

cg=""; origin=""; server=""
cleanup() {
  [[ -n "$server" ]] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true
  server=""
  if [[ -n "$cg" && -d "$cg" ]]; then
    for p in $(cat "$cg/cgroup.procs" 2>/dev/null); do kill -9 "$p" 2>/dev/null || true; done
    for _ in $(seq 1 50); do [[ -z "$(cat "$cg/cgroup.procs" 2>/dev/null)" ]] && break; sleep 0.1; done
    rmdir "$cg" 2>/dev/null || echo "warning: could not remove $cg" >&2
  fi
  cg=""
  rm -rf "${DIR:?}"/store
}
finish() { cleanup; [[ -n "$origin" ]] && kill "$origin" 2>/dev/null; wait 2>/dev/null || true; }
trap finish EXIT
trap 'exit 130' INT TERM

"$root/edgelab" origin --port "$origin_port" >"$OUT/origin.log" 2>&1 & origin=$!
wait_for() { for _ in $(seq 1 300); do curl -sf -o /dev/null "$1" && return 0; sleep 0.2; done; echo "no answer from $1" >&2; return 1; }
wait_for "http://127.0.0.1:$origin_port/objects/1/probe"

vcl() {
  cat <<EOF
vcl 4.1;
backend origin { .host = "127.0.0.1"; .port = "$origin_port"; .first_byte_timeout = 60s; .between_bytes_timeout = 60s; }
sub vcl_deliver { if (obj.hits > 0) { set resp.http.X-Cache = "HIT"; } else { set resp.http.X-Cache = "MISS"; } }
EOF
}

# Starts $1 inside the cgroup (its children stay there), leaving its pid in $server.
start_server() {
  local name=$1 store="$DIR/store"
  rm -rf "$store"; mkdir -p "$store"
  cg="$CG_ROOT/edgelab-ltm-$$-$name"
  mkdir "$cg"
  echo "$limit_bytes" >"$cg/memory.limit_in_bytes"
  local cmd
  case "$name" in
    raw-log) cmd=("$root/edgelab" serve --engine raw-log -o "disks=$store" -o "capacity=$store_bytes") ;;
    raw-files) cmd=("$root/edgelab" serve --engine raw-files -o "dir=$store" -o "capacity=$store_bytes") ;;
    lmdb) cmd=("$root/edgelab" serve --engine lmdb -o "path=$store" -o "capacity=$store_bytes"
               -o "map-size=$(( store_bytes * 2 ))" -o sync=nosync) ;;
    varnish-file)
      vcl >"$OUT/varnish.vcl"
      cmd=(varnishd -F -j none -n "$store/instance" -T none -p auto_restart=off -f "$OUT/varnish.vcl"
           -s "file,$store/varnish.bin,$store_bytes" -a "127.0.0.1:$cache_port") ;;
    *) echo "unknown server $name (raw-log, raw-files, lmdb, tiered is not a disk-only engine, varnish-file)" >&2; exit 64 ;;
  esac
  if [[ $name != varnish-file ]]; then
    cmd+=(--port "$cache_port" --admin-port "$admin_port" --origin "http://127.0.0.1:$origin_port")
  fi
  # The subshell joins the cgroup, then becomes the server: every process it starts is limited too.
  ( echo $BASHPID >"$cg/cgroup.procs"; exec env EDGELAB_JAVA_OPTS="${EDGELAB_JAVA_OPTS:--Xmx512m}" "${cmd[@]}" ) \
    >"$OUT/$name.log" 2>&1 &
  server=$!
  wait_for "http://127.0.0.1:$cache_port/objects/1/probe"
}

# Sums read_bytes of every process in the cgroup (a JVM launcher, varnishd's manager and child).
cg_read_bytes() { local s=0 p; for p in $(cat "$cg/cgroup.procs"); do s=$(( s + $(awk '/^read_bytes/{print $2}' /proc/$p/io 2>/dev/null || echo 0) )); done; echo $s; }
disk_read_bytes() { echo $(( $(awk -v d="$device" '$3==d{print $6}' /proc/diskstats) * 512 )); }

summary="$OUT/summary.tsv"
printf 'server\treq_per_s\tttfb_p50_ms\tttfb_p99_ms\tttfb_max_ms\tttlb_p99_ms\thit_ratio\tbytes_served\tproc_read_bytes\tdevice_read_bytes\tproc_read_per_served\tdevice_read_per_served\tlimit\tset_bytes\n' >"$summary"
load=("$root/edgelab" load "http://127.0.0.1:$cache_port" --sizes "$SIZE" --objects "$OBJECTS" --popularity uniform
      --seed 14 -c "$CONNECTIONS" --timeout 60s)
for name in $SERVERS; do
  echo "== $name: limit $LIMIT, $OBJECTS x $SIZE, $CONNECTIONS connections"
  start_server "$name"
  # Fill: the warm-up fetch of the set (one miss per object; bounded by -d, so a long one), then a few hits.
  "${load[@]}" --hit-ratio 1.0 -d 1800s --requests "$CONNECTIONS" --out "$OUT/$name-fill" >"$OUT/$name-fill.txt"
  proc0=$(cg_read_bytes); disk0=$(disk_read_bytes)
  "${load[@]}" -d "$DURATION" --latency --out "$OUT/$name" >"$OUT/$name.txt"
  proc1=$(cg_read_bytes); disk1=$(disk_read_bytes)
  python3 - "$OUT/$name/result.json" "$name" $(( proc1 - proc0 )) $(( disk1 - disk0 )) "$LIMIT" "$set_bytes" >>"$summary" <<'PY'
import json, sys
path, name, proc, disk, limit, set_bytes = sys.argv[1:]
f = json.load(open(path))["figures"]
def ms(name):
    v = f.get(name)
    return "" if v is None else f"{v / 1e6:.1f}"
served = f.get("body_bytes") or f.get("bytes_read") or 0
proc, disk = int(proc), int(disk)
row = [name, f.get("requests_per_s", ""), ms("ttfb_p50_ns"), ms("ttfb_p99_ns"), ms("ttfb_max_ns"),
       ms("ttlb_p99_ns"), f.get("hit_ratio", ""), served, proc, disk,
       f"{proc / served:.3f}" if served else "", f"{disk / served:.3f}" if served else "", limit, set_bytes]
print("\t".join(str(x) for x in row))
PY
  tail -1 "$summary"
  cleanup
done
echo "results in $OUT (summary.tsv; per server: <name>.txt, <name>/result.json, logs)"
column -t -s $'\t' "$summary"
