#!/usr/bin/env bash
# Builds a minimal Debian image from Debian's packages alone (debootstrap minbase + docker import), for base images
# that cannot be pulled. The host's CA bundle is trusted inside, so registries behind a TLS-inspecting egress work.
# Idempotent: an existing image is kept. Usage: debian-base.sh SUITE IMAGE
set -euo pipefail
suite=$1 image=$2
if docker image inspect "$image" >/dev/null 2>&1; then exit 0; fi
[ "$(id -u)" -eq 0 ] || { echo "debian-base: debootstrap needs root" >&2; exit 1; }
if ! command -v debootstrap >/dev/null; then
  command -v apt-get >/dev/null || { echo "debian-base: needs debootstrap" >&2; exit 1; }
  echo "debian-base: apt-get install debootstrap" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
fi

rootfs=$(mktemp -d)
# debootstrap mounts /proc (and more) inside the tree while it works: unmount before removing, or an interrupted run
# would have rm walk into the host's /proc.
cleanup() {
  set +e
  grep -o " $rootfs/[^ ]*" /proc/mounts | sort -r | xargs -r -n1 umount -l
  rm -rf --one-file-system "$rootfs" "$rootfs.log"
}
trap cleanup EXIT
echo "debian-base: debootstrap $suite into $image (a minute or two)"
debootstrap --variant=minbase "$suite" "$rootfs" >"$rootfs.log" 2>&1 || { tail -20 "$rootfs.log" >&2; exit 1; }
# The bundle itself, and the host's local CAs, so that installing Debian's ca-certificates later keeps them.
mkdir -p "$rootfs/etc/ssl/certs" "$rootfs/usr/local/share/ca-certificates"
cp /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt"
cp /usr/local/share/ca-certificates/*.crt "$rootfs/usr/local/share/ca-certificates/" 2>/dev/null || true
# As in the upstream Debian images: no recommends, no package caches kept.
echo 'APT::Install-Recommends "false";' >"$rootfs/etc/apt/apt.conf.d/90-lab-no-recommends"
rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
tar -C "$rootfs" -c . | docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt' \
  --change 'CMD ["bash"]' - "$image" >/dev/null
echo "debian-base: $image"
