#!/usr/bin/env bash
# Builds espeak-ng.wasm from espeak-ng 1.52.0's released source, as Debian publishes it, with
# Debian's clang, lld and wasi-libc (apt-get install clang lld wasi-libc
# libclang-rt-14-dev-wasm32). The build is reproducible: the same source and toolchain give the
# same bytes, whose SHA-256 is recorded in espeak-ng.wasm.sha256.
#
#   build.sh            builds into this folder
#   build.sh --check    builds into a temporary folder and fails unless the bytes are the recorded ones
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
source_url='http://deb.debian.org/debian/pool/main/e/espeak-ng/espeak-ng_1.52.0%2bdfsg.orig.tar.gz'
source_sha256='d2a886bae3547a15c52801cb37e415230834a7ee7f9a57352b98d60454d97cea'
version='1.52.0'

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
out="$here"
if [ "${1:-}" = '--check' ]; then out="$work/out"; mkdir -p "$out"; fi

tarball="${ESPEAK_NG_SOURCE:-$work/espeak-ng.orig.tar.gz}"
if [ ! -f "$tarball" ]; then curl --fail --silent --show-error --location -o "$tarball" "$source_url"; fi
echo "$source_sha256  $tarball" | sha256sum --check --quiet

tar -xzf "$tarball" -C "$work"
src="$(echo "$work"/espeak-ng-*/src)"

# The build configuration (config.h.in's switches): synchronous output only, Klatt on, no MBROLA,
# no sonic (used only above 450 words a minute, which Ijwi never asks for), no audio device.
mkdir -p "$work/include"
cat > "$work/include/config.h" <<CONFIG
#define HAVE_MKSTEMP 1
#define USE_ASYNC 0
#define USE_KLATT 1
#define USE_LIBPCAUDIO 0
#define USE_LIBSONIC 0
#define USE_MBROLA 0
#define USE_SPEECHPLAYER 0
#define PACKAGE_VERSION "$version"
CONFIG

lib="$src/libespeak-ng"
ucd="$src/ucd-tools/src"
sources=(
  "$lib"/{common,mnemonics,error,ieee80,compiledict,dictionary,encoding,intonation,langopts,numbers,phoneme}.c
  "$lib"/{phonemelist,readclause,setlengths,soundicon,spect,ssml,synthdata,synthesize}.c
  "$lib"/{tr_languages,translate,translateword,voices,wavegen,speech,espeak_api,klatt}.c
  "$ucd"/{case,categories,ctype,proplist,scripts,tostring}.c
  "$here/glue.c"
)

clang --target=wasm32-wasi -mexec-model=reactor -O2 -fwrapv -fno-exceptions -w \
  -ffile-prefix-map="$work"=. -ffile-prefix-map="$here"=. \
  -DLIBESPEAK_NG_EXPORT=1 -DPATH_ESPEAK_DATA='"/usr/share/espeak-ng-data"' \
  -I "$work/include" -I "$src/include" -I "$ucd/include" -I "$lib" \
  "${sources[@]}" -lm \
  -Wl,--strip-all -Wl,-z,stack-size=1048576 \
  -o "$out/espeak-ng.wasm"

if [ "${1:-}" = '--check' ]; then
  (cd "$out" && sha256sum --check --quiet "$here/espeak-ng.wasm.sha256")
  echo "espeak-ng.wasm: built again, the same bytes as recorded"
else
  (cd "$out" && sha256sum espeak-ng.wasm > espeak-ng.wasm.sha256)
  cat "$out/espeak-ng.wasm.sha256"
fi
