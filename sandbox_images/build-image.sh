#!/usr/bin/env bash
# Builds one sandbox image: stages a small build context (Dockerfile, the runner, a
# wheelhouse) and runs `docker build`. Quick when nothing changed (the layer cache hits).
#   build-image.sh LANG/VERSION TAG BASE [WHEELHOUSE_PIP]
# BASE "runtime" imports the debootstrap runtime ($RUNTIME_ROOT) as
# codereward/runtime-base:bookworm first (once per runtime build) and uses it: the path for
# machines without an image registry. BASE "runtime:NAME" does the same for a language root
# (build-language-root.sh NAME, at $RUNTIME_ROOT) as codereward/runtime-NAME:bookworm.
# WHEELHOUSE_PIP, when given, is a pip that downloads numpy and sortedcontainers wheels for
# the image's Python into the context.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
dir=${1:?usage: build-image.sh LANG/VERSION TAG BASE [PIP]}
tag=${2:?tag}
base=${3:?base}
pip=${4:-}
src="$here/$dir"
ctx="$repo/build/images/$dir"
runner="$repo/reward_api/sandbox/runner.py"

if ! docker info >/dev/null 2>&1; then
  echo "the Docker engine is not reachable: start dockerd (or set DOCKER_HOST)" >&2; exit 1
fi
case "$base" in
  runtime) imported=codereward/runtime-base:bookworm ;;
  runtime:*) imported="codereward/runtime-${base#runtime:}:bookworm" ;;
  *) imported= ;;
esac
if [ -n "$imported" ]; then
  root=${RUNTIME_ROOT:?RUNTIME_ROOT is not set: run via 'make images'}
  stamp="$root/.codereward-runtime"
  [ -f "$stamp" ] || { echo "no runtime at $root: run 'make runtime' (or 'make runtimes')" >&2; exit 1; }
  want="$(stat -c %Y "$stamp")-path"  # bump the suffix when the import changes
  have=$(docker image inspect -f '{{ index .Config.Labels "codereward.runtime.built" }}' \
         "$imported" 2>/dev/null || true)
  if [ "$have" != "$want" ]; then
    echo "importing $root as $imported" >&2
    tar -C "$root" --exclude=./proc/* --exclude=./sys/* -c . |
      docker import --change "LABEL codereward.runtime.built=$want" \
        --change "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" - \
        "$imported" >/dev/null
  fi
  base=$imported
fi

rm -rf "$ctx"
mkdir -p "$ctx/wheels"
cp "$src/Dockerfile" "$ctx/"
install -m 0644 "$runner" "$ctx/runner.py"
if [ -n "$pip" ]; then
  pyver=$(basename "$dir")
  "$pip" download -q --only-binary=:all: --implementation cp --python-version "$pyver" \
    --platform manylinux2014_x86_64 --platform manylinux_2_17_x86_64 \
    -d "$ctx/wheels" numpy sortedcontainers
fi
sha=$(sha256sum "$runner" | cut -d' ' -f1)
docker build -q --build-arg BASE="$base" --build-arg RUNNER_SHA256="$sha" -t "$tag" "$ctx" \
  2> >(grep -v -iE "deprecated|buildx|BuildKit|^\s*$" >&2) >/dev/null
echo "built $tag (base $base, runner $sha)" >&2
