#!/usr/bin/env bash
# Makes sure a Docker engine answers and `docker compose` (v2) works, installing and starting what is missing where
# that is possible: as root on Debian, `docker.io` from Debian's packages, dockerd started in the background (its
# log in /var/log/lab-dockerd.log), and the compose plugin built from the Go module proxy into
# ~/.docker/cli-plugins (kept there: later runs reuse it).
# `ensure-engine.sh compose` sees to the compose plugin only (enough for `docker compose config`).
# Exit status: 0 ready; 3 no engine here and none can be started (callers may skip, saying why); 1 a real failure.
set -euo pipefail

COMPOSE_MODULE=github.com/docker/compose/v2
COMPOSE_VERSION=v2.29.7
ENGINE_START_TIMEOUT_S=60

say() { echo "ensure-engine: $*" >&2; }
unavailable() { say "$*"; exit 3; }
is_debian_root() { [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null && grep -qi debian /etc/os-release; }

apt_install() {
  say "apt-get install $*"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

ensure_engine() {
  if docker info >/dev/null 2>&1; then return; fi
  if ! command -v dockerd >/dev/null; then
    is_debian_root || unavailable "no Docker engine answers and none can be installed here (needs root on Debian)"
    apt_install docker.io iptables
  fi
  [ "$(id -u)" -eq 0 ] || unavailable "dockerd is installed but not running, and starting it needs root"
  say "starting dockerd (log: /var/log/lab-dockerd.log)"
  # Detached from this shell's output so that nothing waiting on it (make, CI) waits on the daemon too.
  setsid dockerd >>/var/log/lab-dockerd.log 2>&1 </dev/null &
  local waited=0
  until docker info >/dev/null 2>&1; do
    if [ "$waited" -ge "$ENGINE_START_TIMEOUT_S" ]; then
      tail -n 20 /var/log/lab-dockerd.log >&2
      say "dockerd did not answer within ${ENGINE_START_TIMEOUT_S} s"
      exit 1
    fi
    sleep 1
    waited=$((waited + 1))
  done
}

ensure_compose() {
  if docker compose version >/dev/null 2>&1; then return; fi
  command -v go >/dev/null || unavailable "docker compose v2 is missing and Go is not here to build it (install the compose plugin)"
  say "building docker compose $COMPOSE_VERSION from the Go module proxy (about 3 minutes, once)"
  local bin
  bin=$(mktemp -d)
  GOBIN=$bin go install -ldflags "-X $COMPOSE_MODULE/internal.Version=$COMPOSE_VERSION" "$COMPOSE_MODULE/cmd@$COMPOSE_VERSION"
  mkdir -p "$HOME/.docker/cli-plugins"
  mv "$bin/cmd" "$HOME/.docker/cli-plugins/docker-compose"
  rm -rf "$bin"
  docker compose version >&2
}

if ! command -v docker >/dev/null; then
  is_debian_root || unavailable "no docker client here (install Docker)"
  apt_install docker.io iptables
fi
[ "${1:-}" = compose ] || ensure_engine
ensure_compose
