#!/usr/bin/env bash
# Builds codereward/service from the local runtime base: stages a context with a wheelhouse
# of the project's dependencies (built on the host with PIP, only when pyproject.toml
# changes), the project's own wheel (every time: seconds) and Redis's Debian packages.
#   build-image.sh PIP          (FORCE=1 rebuilds an up-to-date image)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
pip=${1:?usage: build-image.sh PIP}
ctx="$repo/build/images/service"
quiet() { grep -vE 'Warning|WARNING|^\s*(\*|!!|See|License|By|Please|\[|corresp|return|or your)|^\s*$' >&2 || true; }

# up to date when the image carries the hash of everything that goes into it
src=$(cd "$repo" && find reward_api trainer pyproject.toml services/Dockerfile services/build-image.sh \
        -type f ! -path '*/__pycache__/*' ! -name '*.pyc' | sort | xargs sha256sum | sha256sum | cut -c1-64)
have=$(docker image inspect -f '{{ index .Config.Labels "codereward.source.sha256" }}' \
       codereward/service:latest 2>/dev/null || true)
if [ "$have" = "$src" ] && [ -z "${FORCE:-}" ]; then
  echo "codereward/service is up to date" >&2; exit 0
fi
mkdir -p "$ctx/deps" "$ctx/project" "$ctx/debs"
cp "$here/Dockerfile" "$ctx/"

# dependencies (with the static extra: default rewards scan programs with semgrep; flower
# for the monitoring profile; async-timeout: redis needs it below Python 3.11.3, which
# bookworm's 3.11.2 is and the host's Python may not be)
deps_key=$(cat "$repo/pyproject.toml" "$here/build-image.sh" | sha256sum | cut -c1-64)
if [ "$(cat "$ctx/deps/.key" 2>/dev/null)" != "$deps_key" ]; then
  rm -rf "$ctx/deps" && mkdir -p "$ctx/deps"
  "$pip" wheel -q --disable-pip-version-check -w "$ctx/deps" "$repo[static]" flower pip \
    async-timeout 2>&1 | quiet
  rm -f "$ctx"/deps/codereward-*.whl
  echo "$deps_key" >"$ctx/deps/.key"
fi
rm -f "$ctx"/project/*.whl
"$pip" wheel -q --disable-pip-version-check --no-deps -w "$ctx/project" "$repo" 2>&1 | quiet
ls "$ctx"/project/codereward-*.whl >/dev/null

# Redis for the broker; ca-certificates because semgrep-core insists on a trust-anchor file
for deb in redis-server redis-tools libjemalloc2 liblzf1 libatomic1 ca-certificates; do
  if ! ls "$ctx/debs/${deb}"_*.deb >/dev/null 2>&1; then
    (cd "$ctx/debs" && apt-get download -q "$deb" >/dev/null 2>&1)
  fi
done
docker build -q --label codereward.source.sha256="$src" -t codereward/service "$ctx" \
  2> >(grep -v -iE 'deprecated|buildx|BuildKit|^\s*$' >&2) >/dev/null
echo "built codereward/service" >&2
