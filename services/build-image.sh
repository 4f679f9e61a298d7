#!/usr/bin/env bash
# Builds codereward/service from the local runtime base: stages a context with this
# project's wheelhouse (built on the host with PIP) and Redis's Debian packages.
#   build-image.sh PIP
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
pip=${1:?usage: build-image.sh PIP}
ctx="$repo/build/images/service"
mkdir -p "$ctx/wheels" "$ctx/debs"
cp "$here/Dockerfile" "$ctx/"
# the project's own wheel is rebuilt every time (cheap); dependencies come from the cache.
# async-timeout: redis needs it below Python 3.11.3 (bookworm has 3.11.2, the host may not)
rm -f "$ctx"/wheels/codereward-*.whl
"$pip" wheel -q --disable-pip-version-check -w "$ctx/wheels" "$repo" flower pip \
  async-timeout 2>&1 |
  grep -vE 'SetuptoolsDeprecationWarning|^\s*(\*|!!|See|License|By|Please|\[|corresp)|^\s*$' >&2 || true
ls "$ctx"/wheels/codereward-*.whl >/dev/null
if ! ls "$ctx"/debs/redis-server_*.deb >/dev/null 2>&1; then
  (cd "$ctx/debs" && apt-get download -q redis-server redis-tools libjemalloc2 liblzf1 libatomic1 >/dev/null)
fi
docker build -q -t codereward/service "$ctx" 2> >(grep -v -iE 'deprecated|buildx|BuildKit|^\s*$' >&2) >/dev/null
echo "built codereward/service" >&2
