#!/usr/bin/env bash
# Builds the one sandbox runtime both backends use: a Debian bookworm minbase root
# filesystem with python3 (3.11), numpy and sortedcontainers. The process backend binds
# it read-only as /; `make images` imports the same tree as the Docker base image.
# Idempotent: a finished tree carries a stamp and is left alone.
set -euo pipefail
dest=${1:?usage: build-rootfs.sh DEST}
packages=python3,python3-numpy,python3-sortedcontainers
stamp="$dest/.codereward-runtime"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$packages" ]; then exit 0; fi
if ! command -v debootstrap >/dev/null; then
  echo "debootstrap is missing: run 'make system-deps' as root or install it" >&2; exit 1
fi
if [ "$(id -u)" != 0 ]; then
  echo "building $dest needs root (debootstrap); set CODEREWARD_RUNTIME_ROOT to an existing tree" >&2; exit 1
fi
mkdir -p "$(dirname "$dest")"
tmp="$dest.partial.$$"
rm -rf "$tmp"
echo "building the sandbox runtime in $dest (about a minute)" >&2
debootstrap --variant=minbase --include="$packages" bookworm "$tmp" \
  "${DEBIAN_MIRROR:-http://deb.debian.org/debian}" >"$tmp.log" 2>&1 || {
  echo "debootstrap failed; log: $tmp.log" >&2; exit 1; }
mkdir -p "$tmp/opt/codereward"  # where the runner is bound
rm -rf "$tmp/var/cache/apt/archives/"*.deb "$tmp/var/lib/apt/lists/"*
echo "$packages" >"$tmp/.codereward-runtime"
rm -rf "$dest"
mv "$tmp" "$dest"
rm -f "$tmp.log"
