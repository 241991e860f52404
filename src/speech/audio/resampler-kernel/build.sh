#!/usr/bin/env bash
# Builds kernel.wasm, the resampler's filter loop in WebAssembly SIMD, from kernel.c with Debian's
# clang and lld (apt-get install clang lld). No C library: the module imports nothing and exports
# its memory and `drain`. The build is reproducible: the same source and toolchain give the same
# bytes, whose SHA-256 is recorded in kernel.wasm.sha256.
#
#   build.sh            builds into this folder
#   build.sh --check    builds into a temporary folder and fails unless the bytes are the recorded ones
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
out="$here"
if [ "${1:-}" = '--check' ]; then out="$work"; fi

clang --target=wasm32 -msimd128 -O3 -nostdlib -fno-builtin -ffile-prefix-map="$here"=. \
  -Wl,--no-entry -Wl,--strip-all -Wl,--initial-memory=131072 -Wl,-z,stack-size=4096 -Wl,--stack-first \
  -o "$out/kernel.wasm" "$here/kernel.c"

if [ "${1:-}" = '--check' ]; then
  (cd "$out" && sha256sum --check --quiet "$here/kernel.wasm.sha256")
  echo "kernel.wasm: built again, the same bytes as recorded"
else
  (cd "$out" && sha256sum kernel.wasm > kernel.wasm.sha256)
  cat "$out/kernel.wasm.sha256"
fi
