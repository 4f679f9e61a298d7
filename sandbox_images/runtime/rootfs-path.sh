#!/usr/bin/env bash
# Prints where the sandbox runtime root filesystem lives (or will live).
# CODEREWARD_RUNTIME_ROOT wins; else a machine-wide folder when writable, else the user's cache.
set -euo pipefail
if [ -n "${CODEREWARD_RUNTIME_ROOT:-}" ]; then echo "$CODEREWARD_RUNTIME_ROOT"; exit 0; fi
if [ "$(id -u)" = 0 ] || [ -w /var/lib/codereward ]; then
  echo /var/lib/codereward/runtime/bookworm-py311
else
  echo "${XDG_CACHE_HOME:-$HOME/.cache}/codereward/runtime/bookworm-py311"
fi
