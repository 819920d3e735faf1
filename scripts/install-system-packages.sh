#!/usr/bin/env bash
# What native runs need from the system, beside the Node runtimes that mk/runtimes.mk installs from npm:
# Debian's emscripten 3.1.6 (and node-acorn, which it needs under a non-Debian node), Prometheus with promtool, a JDK
# 17+ with Maven, cmake, an npm to bootstrap, shellcheck for `make lint`, and chromium for load/'s headless check of
# report.html. As root on Debian it installs what is missing with apt; elsewhere it prints exactly what to install and
# fails.
set -euo pipefail

missing=()
need() { # need COMMAND-OR-PATH DEBIAN-PACKAGE
  if [[ $1 == /* ]]; then [ -e "$1" ] || missing+=("$2"); else command -v "$1" >/dev/null || missing+=("$2"); fi
}
need emcc emscripten
need /usr/share/nodejs/acorn node-acorn
need prometheus prometheus
need promtool prometheus
need cmake cmake
need mvn maven
need javac openjdk-17-jdk-headless
need npm npm
need shellcheck shellcheck
need chromium chromium
[ ${#missing[@]} -eq 0 ] && exit 0
read -r -a packages <<<"$(printf '%s\n' "${missing[@]}" | sort -u | tr '\n' ' ')"

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null && grep -qi debian /etc/os-release; then
  echo "install-system-packages: apt-get install ${packages[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # --no-install-recommends: prometheus would otherwise pull node-exporter and a web UI stack the lab does not use.
  apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
  exit 0
fi
cat >&2 <<MSG
The lab's native mode needs these Debian packages (or their equivalents on your system):
  sudo apt-get install --no-install-recommends ${packages[*]}
(emscripten 3.1.6 as in Debian 12, Prometheus 2.x with promtool, a JDK 17 or newer, Maven 3.8+, cmake 3.14+)
MSG
exit 1
