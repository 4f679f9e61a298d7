#!/usr/bin/env bash
# Installs the host tools the sandbox needs (bubblewrap; debootstrap to build the runtime)
# with apt when they are missing. Without root it only reports what is missing.
set -euo pipefail
missing=()
command -v bwrap >/dev/null || missing+=(bubblewrap)
command -v debootstrap >/dev/null || missing+=(debootstrap)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "missing: ${missing[*]} (install them, e.g. sudo apt-get install -y ${missing[*]})" >&2; exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${missing[@]}" >/dev/null
