#!/usr/bin/env bash
# Measures the disk's sequential write and read bandwidth with dd, to put beside the engine
# benchmarks run the same day. Usage:
#   benchmarks/run-disk-baseline.sh [DIR] [SIZE_MIB]
# DIR: a directory on the disk under test (default: the system temporary directory).
# SIZE_MIB: bytes to write and read, in MiB (default 2048; use more than the disk's write cache).
# Prints one line per measurement (MB/s as dd reports them, 1 MB = 10^6 bytes) and the environment.
set -euo pipefail

dir="${1:-${TMPDIR:-/tmp}}"
size_mib="${2:-2048}"
if ! [[ "$size_mib" =~ ^[0-9]+$ ]] || [ "$size_mib" -lt 1 ]; then
  echo "SIZE_MIB must be a positive whole number of MiB, got '$size_mib'" >&2
  exit 2
fi
if [ ! -d "$dir" ] || [ ! -w "$dir" ]; then
  echo "'$dir' is not a writable directory" >&2
  exit 2
fi
file="$(mktemp "$dir/edgelab-dd.XXXXXX")"
trap 'rm -f "$file"' EXIT

# dd prints its summary as the last line of stderr: "..., 1.2 s, 850 MB/s".
rate() { tail -n 1 | sed -E 's/.*, ([0-9.,]+ [kMGT]?B\/s)$/\1/'; }

run() {
  local label="$1"; shift
  local out
  if out="$(dd "$@" 2>&1)"; then
    printf '%-44s %s\n' "$label" "$(printf '%s\n' "$out" | rate)"
  else
    printf '%-44s failed: %s\n' "$label" "$(printf '%s\n' "$out" | tail -n 1)"
  fi
}

echo "# disk baseline $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname), kernel $(uname -r)"
echo "# dir $dir on: $(df -hT "$dir" | tail -n 1 | awk '{print $1, $2, "size", $3}')"
echo "# $size_mib MiB per measurement, block size 1 MiB"
run "sequential write, O_DIRECT + fdatasync" if=/dev/zero of="$file" bs=1M count="$size_mib" oflag=direct conv=fdatasync
run "sequential read, O_DIRECT" if="$file" of=/dev/null bs=1M iflag=direct
run "sequential write, buffered + fdatasync" if=/dev/zero of="$file" bs=1M count="$size_mib" conv=fdatasync
run "sequential read, buffered (page cache warm)" if="$file" of=/dev/null bs=1M
