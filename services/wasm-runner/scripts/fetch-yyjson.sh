#!/usr/bin/env bash
# Unpacks yyjson's sources from a registry package, for CMake's FETCHCONTENT_SOURCE_DIR_YYJSON where GitHub is out of
# reach. The crates.io crate yyjson-sys 0.1.0 vendors the whole yyjson 0.10.0 tree (with its CMakeLists.txt); the
# crate is checked against the checksum crates.io's index publishes, and the header against the expected version.
# Idempotent. Usage: fetch-yyjson.sh DEST_DIR
set -euo pipefail
dest=$1
crate=yyjson-sys version=0.1.0
crate_sha256=4ed7a5810c650d227cae9d2cb1c73cf0d6d5901181cb2a53dc07007dfcead82c
yyjson_version=0.10.0

version_of() { sed -n 's/^#define YYJSON_VERSION_STRING "\(.*\)"$/\1/p' "$1/src/yyjson.h"; }

if [ -f "$dest/src/yyjson.h" ] && [ "$(version_of "$dest")" = "$yyjson_version" ]; then exit 0; fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "fetch-yyjson: yyjson $yyjson_version from crates.io $crate $version into $dest"
url="https://static.crates.io/crates/$crate/$crate-$version.crate"
# curl where there is one; else Python, which every Emscripten toolchain image carries (emcc runs on it).
if command -v curl >/dev/null; then
  curl --fail --silent --show-error --location --retry 3 --max-time 120 -o "$work/crate.tar.gz" "$url"
else
  python3 -c 'import sys, urllib.request; urllib.request.urlretrieve(sys.argv[1], sys.argv[2])' "$url" "$work/crate.tar.gz"
fi
echo "$crate_sha256  $work/crate.tar.gz" | sha256sum --check --quiet
tar -xzf "$work/crate.tar.gz" -C "$work"
found=$(version_of "$work/$crate-$version/yyjson")
if [ "$found" != "$yyjson_version" ]; then
  echo "fetch-yyjson: the crate carries yyjson $found, expected $yyjson_version" >&2
  exit 1
fi
rm -rf "$dest" && mkdir -p "$(dirname "$dest")"
mv "$work/$crate-$version/yyjson" "$dest"
