#!/usr/bin/env bash
# Builds codereward/service from the local runtime base: stages a context with this
# project's wheelhouse (built on the host with PIP) and Redis's Debian packages.
#   build-image.sh PIP
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
pip=${1:?usage: build-image.sh PIP}
ctx="$repo/build/images/service"
# up to date when the image carries the hash of everything that goes into it
src=$(cd "$repo" && find reward_api trainer pyproject.toml services/Dockerfile services/build-image.sh \
        -type f ! -path '*/__pycache__/*' ! -name '*.pyc' | sort | xargs sha256sum | sha256sum | cut -c1-64)
have=$(docker image inspect -f '{{ index .Config.Labels "codereward.source.sha256" }}' \
       codereward/service:latest 2>/dev/null || true)
if [ "$have" = "$src" ] && [ -z "${FORCE:-}" ]; then
  echo "codereward/service is up to date" >&2; exit 0
fi
mkdir -p "$ctx/wheels" "$ctx/debs"
cp "$here/Dockerfile" "$ctx/"
# the project's own wheel (with the static extra: default rewards scan programs with
# semgrep) is rebuilt every time (cheap); dependencies come from the cache.
# async-timeout: redis needs it below Python 3.11.3 (bookworm has 3.11.2, the host may not)
rm -f "$ctx"/wheels/codereward-*.whl
"$pip" wheel -q --disable-pip-version-check -w "$ctx/wheels" "$repo[static]" flower pip \
  async-timeout 2>&1 |
  grep -vE 'SetuptoolsDeprecationWarning|^\s*(\*|!!|See|License|By|Please|\[|corresp)|^\s*$' >&2 || true
ls "$ctx"/wheels/codereward-*.whl >/dev/null
# Redis for the broker; ca-certificates because semgrep-core insists on a trust-anchor file
debs="redis-server redis-tools libjemalloc2 liblzf1 libatomic1 ca-certificates"
for deb in $debs; do
  if ! ls "$ctx/debs/${deb}"_*.deb >/dev/null 2>&1; then
    (cd "$ctx/debs" && apt-get download -q "$deb" >/dev/null 2>&1)
  fi
done
docker build -q --label codereward.source.sha256="$src" -t codereward/service "$ctx" 2> >(grep -v -iE 'deprecated|buildx|BuildKit|^\s*$' >&2) >/dev/null
echo "built codereward/service" >&2
