#!/usr/bin/env bash
# Builds one language runtime for the process backend: a Debian bookworm minbase root with
# python3 (the runner is Python) and one toolchain, plus what that toolchain needs to work
# offline on a read-only root where only /tmp is writable. `make images` imports the same
# tree as the language's Docker base. Python's root is build-rootfs.sh's, left as it was.
#   build-language-root.sh ROOT DEST      ROOT: cpp | java | node | go | rust
# c shares cpp's root, javascript and typescript share node's (root-path.sh maps them).
# Idempotent: a finished tree carries a stamp (its recipe) and is left alone. Needs root.
# Downloaded .debs are kept in $DEBOOTSTRAP_CACHE, so a rebuild fetches nothing twice.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=${1:?usage: build-language-root.sh cpp|java|node|go|rust DEST}
dest=${2:?usage: build-language-root.sh cpp|java|node|go|rust DEST}
cache=${DEBOOTSTRAP_CACHE:-/var/cache/codereward/debootstrap}
# Pinned outside Debian: bump a version here and the stamp changes, so the root is rebuilt.
typescript=typescript@5.9.3
# what MBXP's TypeScript problems import (besides Node's own modules), and Node's types
node_modules="@types/node@18.19.130 mathjs@15.2.0 heap-js@2.7.1"  # Debian bookworm's node is 18
# our own testlib.h (sandbox_images/cpp/testlib/): its hash is in the stamp, so editing it rebuilds
testlib="$here/../cpp/testlib/testlib.h"
testlib_sha256=$(sha256sum "$testlib" | cut -d' ' -f1)
# the node startup snapshot's boot file (warm/node-boot.js): its hash is in the stamp too
node_boot="$here/warm/node-boot.js"
node_boot_sha256=$(sha256sum "$node_boot" | cut -d' ' -f1)

case "$root" in
  # tcc: the compiler of lifted C tests' judges (reward_api/verify/lifted.py), the test's
  # own code and no program's: 3 ms a judge against 38 for gcc -O0
  cpp) packages=python3,g++,gcc,tcc
       recipe="pch:gnu++17-O2+header,testlib:$testlib_sha256,library-symbols" ;;
  java) packages=python3,openjdk-17-jdk-headless
        recipe=cds:javac ;;
  node) packages=python3,nodejs,node-lodash
        recipe="$typescript,${node_modules// /,},root-node_modules,snapshot:$node_boot_sha256" ;;
  go) packages=python3,golang-go,golang-github-stretchr-testify-dev
      recipe=nocgo-std,gopath-installed,gocache-seed ;;
  # libc6-dev named: rustc depends on the virtual libc-dev, which debootstrap cannot resolve
  rust) packages=python3,rustc,libc6-dev
        recipe=none ;;
  *) echo "unknown root '$root' (cpp, java, node, go or rust)" >&2; exit 2 ;;
esac
stamp_text="$packages $recipe"
stamp="$dest/.codereward-runtime"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$stamp_text" ]; then exit 0; fi
if ! command -v debootstrap >/dev/null || ! command -v bwrap >/dev/null; then
  echo "debootstrap or bwrap is missing: run 'make system-deps' as root" >&2; exit 1
fi
if [ "$(id -u)" != 0 ]; then
  echo "building $dest needs root (debootstrap)" >&2; exit 1
fi
if [ "$root" = node ] && ! command -v npm >/dev/null; then
  echo "npm is missing on the host: it installs TypeScript into the node root (apt-get install npm)" >&2
  exit 1
fi

mkdir -p "$(dirname "$dest")" "$cache"
tmp="$dest.partial.$$"
rm -rf "$dest".partial.*  # what an interrupted build left
log="$tmp.log"
trap 'echo "building $dest failed; log: $log" >&2; rm -rf "$tmp"' ERR
start=$(date +%s)
echo "building the $root runtime in $dest (a few minutes)" >&2
debootstrap --variant=minbase --include="$packages" --cache-dir="$cache" bookworm "$tmp" \
  "${DEBIAN_MIRROR:-http://deb.debian.org/debian}" >"$log" 2>&1 || {
  echo "debootstrap failed; log: $log" >&2; exit 1; }
mkdir -p "$tmp/opt/codereward" "$tmp/usr/lib/codereward"

# Runs a command inside the new tree, writable, with a private /proc, /dev and /tmp.
in_root() {
  bwrap --bind "$tmp" / --proc /proc --dev /dev --tmpfs /tmp --unshare-net --clearenv \
    --setenv PATH /usr/local/bin:/usr/bin:/bin --setenv HOME /tmp --chdir /tmp "$@"
}

case "$root" in
  cpp)
    # testlib.h goes where both gcc and g++ look without a flag (/usr/local/include).
    install -m 0644 "$testlib" "$tmp/usr/local/include/testlib.h"
    # The precompiled <bits/stdc++.h>: gcc looks for NAME.gch in each include directory
    # before NAME, so `-I/usr/lib/codereward/pch` placed first picks it up; built with the
    # recommended flags (a .gch is used only when the flags that matter match, else gcc
    # falls back to the real header, so a mismatch costs time, never correctness).
    mkdir -p "$tmp/usr/lib/codereward/pch/bits"
    in_root /usr/bin/g++ -std=gnu++17 -O2 -pipe -x c++-header \
      /usr/include/x86_64-linux-gnu/c++/12/bits/stdc++.h \
      -o /usr/lib/codereward/pch/bits/stdc++.h.gch
    # and the header beside it (GCC's own layout): a second `#include <bits/stdc++.h>` finds
    # the header where it found the .gch, and opened a file that was not there (an honest
    # program that includes it twice, or whose test includes it again, did not compile)
    install -m 0644 "$tmp/usr/include/x86_64-linux-gnu/c++/12/bits/stdc++.h" \
      "$tmp/usr/lib/codereward/pch/bits/stdc++.h"
    # The functions these libraries export, which a C/C++ assert program may not define
    # (languages.py: C_LIBRARIES, C_LIBRARY_SYMBOLS, _C_DEFINES_CHECK reads the list).
    # shellcheck disable=SC2016
    in_root /bin/sh -c 'for l in libc.so.6 libm.so.6 libstdc++.so.6 libgcc_s.so.1; do
        f=$(gcc -print-file-name=$l); [ "$f" != "$l" ] && nm -D --defined-only "$f"
      done | awk '"'"'NF == 3 && $2 ~ /^[TtWwi]$/ { sub(/@.*/, "", $3); print $3 }'"'"' |
      LC_ALL=C sort -u' >"$tmp/usr/lib/codereward/c-library-symbols"
    [ -s "$tmp/usr/lib/codereward/c-library-symbols" ]
    chmod 0644 "$tmp/usr/lib/codereward/c-library-symbols"
    ;;
  java)
    # An application class-data archive of javac itself: its classes load mapped from the
    # archive instead of parsed and verified (javac -J-XX:SharedArchiveFile=...).
    printf 'class Main { public static void main(String[] a) { System.out.println(java.util.List.of(1, 2)); } }\n' \
      >"$tmp/usr/lib/codereward/Warm.java"
    in_root /usr/bin/javac -J-XX:ArchiveClassesAtExit=/usr/lib/codereward/javac.jsa \
      -d /tmp /usr/lib/codereward/Warm.java >>"$log" 2>&1
    rm -f "$tmp/usr/lib/codereward/Warm.java"
    ;;
  node)
    # TypeScript from npm into the root's global prefix (tsc lands in /usr/local/bin).
    # The libraries go to /node_modules: Node's require and tsc's module resolution both
    # walk up from the program's folder to /node_modules, and tsc includes every package
    # in /node_modules/@types, so neither needs a flag. lodash comes from Debian
    # (/usr/share/nodejs, on Debian's node's own search path).
    npm install -g --no-fund --no-audit --loglevel=error --prefix "$tmp/usr/local" \
      "$typescript" >>"$log" 2>&1
    # shellcheck disable=SC2086
    npm install --no-fund --no-audit --no-save --loglevel=error --prefix "$tmp" \
      $node_modules >>"$log" 2>&1
    rm -f "$tmp/package-lock.json" "$tmp/package.json" "$tmp/node_modules/.package-lock.json"
    # The startup snapshot every JavaScript and TypeScript test starts from: Debian's node
    # has neither Node's own snapshot nor its code cache, so a plain start runs the whole
    # bootstrap (node-boot.js says what the snapshot holds and why a test cannot tell).
    install -m 0644 "$node_boot" "$tmp/usr/lib/codereward/node-boot.js"
    in_root /usr/bin/node --snapshot-blob /usr/lib/codereward/node.blob \
      --build-snapshot /usr/lib/codereward/node-boot.js >>"$log" 2>&1
    chmod 0644 "$tmp/usr/lib/codereward/node.blob"
    ;;
  go)
    # Cells build with CGO_ENABLED=0 (no C compiler in this root). Debian's precompiled
    # standard library was built with cgo, so it is stale for them and a cold build would
    # recompile it (about 30 s): reinstall it without cgo. testify comes from Debian as
    # GOPATH source (/usr/share/gocode); installing it and every package it imports writes
    # their archives beside it, so a cold GOCACHE links them instead of compiling them.
    go_env=(--setenv GO111MODULE off --setenv GOPATH /usr/share/gocode --setenv CGO_ENABLED 0
            --setenv GOCACHE /tmp/gocache --setenv GOPROXY off --setenv GOTELEMETRY off)
    in_root "${go_env[@]}" /bin/sh -c 'set -e; go install std
      go install $(go list -deps -f "{{if not .Standard}}{{.ImportPath}}{{end}}" \
        github.com/stretchr/testify/...)' >>"$log" 2>&1
    # `go test` vets the package first, and vet needs facts about every imported package,
    # which live only in GOCACHE: about 10 s on an empty cache. This seed cache holds them
    # for the standard library and testify; a cell copies it to /tmp/.gocache (a few MB).
    seed=/usr/lib/codereward/gocache
    cat >"$tmp/usr/lib/codereward/seed_test.go" <<'GO'
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func seed() string {
	b, _ := json.Marshal(map[string]float64{"pi": math.Pi})
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	xs := []int{3, 1, 2}
	sort.Ints(xs)
	return fmt.Sprint(string(b), strings.Repeat(strconv.Itoa(xs[0]), 2), reflect.DeepEqual(xs, xs))
}

func TestSeed(t *testing.T) {
	assert.NotEmpty(t, seed())
	require.True(t, true)
}
GO
    in_root "${go_env[@]}" --setenv GOCACHE "$seed" /bin/sh -c 'set -e; cd /usr/lib/codereward
      go vet seed_test.go; go test -c -o /tmp/seed.test seed_test.go' >>"$log" 2>&1
    rm -f "$tmp/usr/lib/codereward/seed_test.go"
    chmod -R a+rX "$tmp$seed"
    ;;
esac

rm -rf "$tmp/var/cache/apt/archives/"*.deb "$tmp/var/lib/apt/lists/"*
echo "$stamp_text" >"$tmp/.codereward-runtime"
rm -rf "$dest"
mv "$tmp" "$dest"
echo "built $dest in $(( $(date +%s) - start )) s ($(du -sh "$dest" | cut -f1))" >&2
rm -f "$log"
