#!/usr/bin/env bash
# What the whole test suite needs on the host, installed and started when missing:
# bubblewrap and debootstrap (the process sandbox and its runtime), a Docker engine
# (docker.io; dockerd started in the background when none answers), docker-compose v1 (the
# compose test) and Redis (the machine's own when it answers on 127.0.0.1:6379, else one
# started here). Idempotent; `make test` and .ci/run both call it. Without root it installs
# nothing and says in one line what to run.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
SUDO=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then SUDO=sudo; else SUDO=none; fi
fi
log() { printf '== %s\n' "$*" >&2; }

need=()
command -v bwrap >/dev/null || need+=(bubblewrap)
command -v debootstrap >/dev/null || need+=(debootstrap)
command -v dockerd >/dev/null || need+=(docker.io)
command -v docker-compose >/dev/null || need+=(docker-compose)
command -v redis-server >/dev/null || need+=(redis-server)
command -v setpriv >/dev/null || need+=(util-linux)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$SUDO" = none ]; then
    echo "the test suite needs: ${need[*]}; run 'sudo make test-deps' (or: sudo apt-get install -y ${need[*]})" >&2
    exit 1
  fi
  log "apt: ${need[*]}"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi

if ! docker info >/dev/null 2>&1; then
  if [ "$SUDO" = none ]; then
    echo "the Docker engine is not reachable: run 'sudo make test-deps' (it starts dockerd), or set DOCKER_HOST" >&2
    exit 1
  fi
  log "starting dockerd (log: /tmp/codereward-dockerd.log)"
  ($SUDO nohup dockerd >/tmp/codereward-dockerd.log 2>&1 &)
  for _ in $(seq 60); do docker info >/dev/null 2>&1 && break; sleep 1; done
  docker info >/dev/null 2>&1 || { tail -20 /tmp/codereward-dockerd.log >&2; exit 1; }
fi

if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  log "starting redis on 127.0.0.1:6379"
  redis-server --port 6379 --bind 127.0.0.1 --save '' --appendonly no --daemonize yes >/dev/null
  for _ in $(seq 30); do redis-cli ping >/dev/null 2>&1 && break; sleep 0.5; done
  redis-cli ping >/dev/null 2>&1 || { echo "redis-server did not answer on 127.0.0.1:6379" >&2; exit 1; }
fi
