#!/usr/bin/env bash
# Prints where a language's runtime root filesystem lives (or will live):
#   root-path.sh LANGUAGE      python c cpp java javascript typescript go rust (or a root: node)
#   root-path.sh --name LANGUAGE   the root it shares (python cpp java node go rust)
#   root-path.sh --all         "LANGUAGE ROOT PATH" for every language
# python is rootfs-path.sh's tree, unchanged. For the others CODEREWARD_RUNTIME_ROOT_<ROOT>
# (e.g. CODEREWARD_RUNTIME_ROOT_CPP) wins; else a machine-wide folder when writable, else
# the user's cache, as for python.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
languages="python c cpp java javascript typescript go rust"

name_of() {
  case "$1" in
    python) echo python ;; c|cpp) echo cpp ;; java) echo java ;;
    javascript|typescript|node) echo node ;; go) echo go ;; rust) echo rust ;;
    *) echo "unknown language '$1' (one of: $languages)" >&2; return 2 ;;
  esac
}

path_of() {
  local root; root=$(name_of "$1")
  if [ "$root" = python ]; then "$here/rootfs-path.sh"; return; fi
  local var="CODEREWARD_RUNTIME_ROOT_${root^^}"
  if [ -n "${!var:-}" ]; then echo "${!var}"; return; fi
  local dir
  case "$root" in
    cpp) dir=bookworm-gcc12 ;; java) dir=bookworm-jdk17 ;; node) dir=bookworm-node18 ;;
    go) dir=bookworm-go119 ;; rust) dir=bookworm-rust163 ;;
  esac
  if [ "$(id -u)" = 0 ] || [ -w /var/lib/codereward ]; then
    echo "/var/lib/codereward/runtime/$dir"
  else
    echo "${XDG_CACHE_HOME:-$HOME/.cache}/codereward/runtime/$dir"
  fi
}

case "${1:-}" in
  --name) name_of "${2:?usage: root-path.sh --name LANGUAGE}" ;;
  --all) for l in $languages; do echo "$l $(name_of "$l") $(path_of "$l")"; done ;;
  "") echo "usage: root-path.sh LANGUAGE | --name LANGUAGE | --all" >&2; exit 2 ;;
  *) path_of "$1" ;;
esac
