#!/usr/bin/env bash
# Builds offline stand-ins for the lab's upstream base images from Debian's packages and registry packages (see
# README.md here), then prints the build arguments that point docker-compose.yml at them, one VAR=image a line.
# Same runtime versions as the upstream tags wherever a registry carries them. Cached: docker's layer cache and the
# Debian bases (kept once built). Needs root (debootstrap) and a running Docker engine.
# Usage: build-bases.sh   with NODE14_VERSION, NODE24_VERSION and RUNTIMES (the Node runtime folders) in the
# environment, as the top Makefile exports them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${NODE14_VERSION:?} ${NODE24_VERSION:?} ${RUNTIMES:?}"
JAVA_MAJOR=25

build() { # build TAG DOCKERFILE CONTEXT [BUILD-ARG...]
  local tag=$1 dockerfile=$2 context=$3
  shift 3
  echo "build-bases: $tag" >&2
  local log
  log=$(mktemp)
  if ! docker build --force-rm -t "$tag" -f "$here/$dockerfile" "${@/#/--build-arg=}" "$context" >"$log" 2>&1; then
    tail -n 30 "$log" >&2
    rm -f "$log"
    echo "build-bases: building $tag failed" >&2
    exit 1
  fi
  rm -f "$log"
}

"$here/debian-base.sh" bookworm lab-offline/debian:bookworm >&2
"$here/debian-base.sh" trixie lab-offline/debian:trixie >&2
# The runtime folders `make setup` installs; each is the build context of its Node image.
for runtime in "$RUNTIMES/node-$NODE14_VERSION" "$RUNTIMES/node-$NODE24_VERSION"; do
  [ -x "$runtime/bin/node" ] || { echo "build-bases: $runtime is missing: run make setup" >&2; exit 1; }
done

build "lab-offline/node:$NODE14_VERSION-bookworm" node.Dockerfile "$RUNTIMES/node-$NODE14_VERSION"
build "lab-offline/node:$NODE24_VERSION-bookworm" node.Dockerfile "$RUNTIMES/node-$NODE24_VERSION"
build lab-offline/emscripten:3.1.6-debian emscripten.Dockerfile "$here"
build "lab-offline/maven:openjdk-$JAVA_MAJOR" maven.Dockerfile "$here" "JAVA_MAJOR=$JAVA_MAJOR"
build "lab-offline/jre:openjdk-$JAVA_MAJOR" jre.Dockerfile "$here" "JAVA_MAJOR=$JAVA_MAJOR"
build lab-offline/prometheus:debian prometheus.Dockerfile "$here"

cat <<ENV
NODE14_IMAGE=lab-offline/node:$NODE14_VERSION-bookworm
NODE24_IMAGE=lab-offline/node:$NODE24_VERSION-bookworm
EMSDK_IMAGE=lab-offline/emscripten:3.1.6-debian
MAVEN_IMAGE=lab-offline/maven:openjdk-$JAVA_MAJOR
JRE_IMAGE=lab-offline/jre:openjdk-$JAVA_MAJOR
PROMETHEUS_IMAGE=lab-offline/prometheus:debian
ENV
