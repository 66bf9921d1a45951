#!/usr/bin/env bash
# Docker in CI for the container target: installs Debian's Docker engine if missing, starts dockerd
# without bridge networking (the container target uses the host network, loopback only; no registry is
# needed: images are built FROM scratch from this machine's JDK and EdgeLab's jars), then runs a quick
# experiment on the container target with EDGELAB_REQUIRE_DOCKER=1, so that a missing Docker fails
# instead of skipping:
#   1. the container target's tests through Maven (ContainerTargetTest: an ExperimentRunner run of
#      container/src/test/resources/container-quick.yaml --quick, limits, cleanup);
#   2. ./edgelab run container/src/test/resources/container-quick.yaml --quick.
# Run from a clone after `mvn -B verify`.
#   scripts/ci-docker.sh              setup, then both runs
#   scripts/ci-docker.sh setup        only install and start Docker (.ci/run: before mvn -B verify, which
#                                     then runs the container tests with EDGELAB_REQUIRE_DOCKER=1)
#   scripts/ci-docker.sh experiment   setup, then only the edgelab run (2.)
# Environment: DOCKERD_LOG (default /tmp/edgelab-dockerd.log); EDGELAB_CMD replaces ./edgelab (e.g. to run
# a launcher jar directly); CI_DOCKER_MVN_PROJECTS replaces "-pl container -am" (e.g. "-pl container"
# where the sibling modules are installed in ~/.m2).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

log() { printf '\n=== %s ===\n' "$*"; }
sudo_if_needed() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi; }

setup_docker() {
  if ! command -v dockerd >/dev/null 2>&1 && [[ ! -x /usr/sbin/dockerd ]]; then
    log "installing docker.io"
    export DEBIAN_FRONTEND=noninteractive
    sudo_if_needed apt-get update -qq
    sudo_if_needed apt-get install -y -qq --no-install-recommends docker.io
  fi
  if docker info >/dev/null 2>&1; then
    log "Docker is running: $(docker version --format 'engine {{.Server.Version}}, API {{.Server.APIVersion}}')"
    return
  fi
  local dockerd_log=${DOCKERD_LOG:-/tmp/edgelab-dockerd.log}
  # A dockerd that was killed leaves the pid file of its containerd behind; once that pid is reused,
  # the next dockerd waits for a containerd that is not there and gives up after a minute.
  local containerd_pid=/var/run/docker/containerd/containerd.pid
  if ! pgrep -x dockerd >/dev/null 2>&1 && ! pgrep -x containerd >/dev/null 2>&1 && [[ -e $containerd_pid ]]; then
    log "removing the stale $containerd_pid of a dockerd that is gone"
    sudo_if_needed rm -f "$containerd_pid"
  fi
  log "starting dockerd without bridge networking (log: $dockerd_log)"
  # No bridge and no iptables: containers use the host network only (the container target runs so).
  sudo_if_needed sh -c "nohup dockerd --bridge=none --iptables=false --ip6tables=false >'$dockerd_log' 2>&1 &"
  for _ in $(seq 1 60); do
    if docker info >/dev/null 2>&1; then
      log "Docker is running: $(docker version --format 'engine {{.Server.Version}}, API {{.Server.APIVersion}}')"
      return
    fi
    sleep 1
  done
  echo "ci-docker: dockerd did not answer within 60 s; last lines of $dockerd_log:" >&2
  tail -n 30 "$dockerd_log" >&2 || true
  exit 1
}

setup_docker
[[ "${1:-}" == "setup" ]] && exit 0

# What Testcontainers needs here: no Ryuk reaper (its image cannot be pulled; the container target
# removes its own containers), and the Docker host's address given, because without a bridge network
# Testcontainers cannot work it out when it runs inside a container. Testcontainers 2.0.5's docker-java
# talks to Debian's engine 20.10 (API 1.41) as it is: no API version needs setting.
export TESTCONTAINERS_RYUK_DISABLED=true
export TESTCONTAINERS_HOST_OVERRIDE=localhost
export EDGELAB_REQUIRE_DOCKER=1

descriptor=container/src/test/resources/container-quick.yaml
read -r -a projects <<< "${CI_DOCKER_MVN_PROJECTS:--pl container -am}"

if [[ "${1:-}" != "experiment" ]]; then
  log "container target tests: mvn -B -o ${projects[*]} -Dtest=ContainerTargetTest test"
  start=$SECONDS
  mvn -B -o "${projects[@]}" -Dtest=ContainerTargetTest -Dsurefire.failIfNoSpecifiedTests=false test
  echo "ci-docker: container target tests took $((SECONDS - start)) s"
fi

log "quick experiment on the container target: edgelab run $descriptor --quick"
start=$SECONDS
out=$(mktemp -d)
read -r -a edgelab <<< "${EDGELAB_CMD:-./edgelab}"
"${edgelab[@]}" run "$descriptor" --quick --out "$out"
results=$(find "$out" -name results.csv | head -n 1)
[[ -n "$results" ]] || { echo "ci-docker: no results.csv under $out" >&2; exit 1; }
rows=$(($(wc -l < "$results") - 1))
[[ $rows -eq 2 ]] || { echo "ci-docker: expected 2 result rows in $results, got $rows" >&2; exit 1; }
if grep -q 'container: State.Pid not visible' "$results"; then
  echo "ci-docker: CPU of the containers was not measured (see cpu_method in $results)" >&2; exit 1
fi
rm -rf "$out"
echo "ci-docker: edgelab run on the container target took $((SECONDS - start)) s"
