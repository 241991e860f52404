#!/usr/bin/env bash
# Builds flite.wasm, a WASI command (`flite` as its `main` reads its command line), from Flite 2.2's
# released source as Debian publishes it, with the patches in patches/ (applied in name order)
# and Debian's clang, lld and wasi-libc (apt-get install clang lld wasi-libc
# libclang-rt-14-dev-wasm32). Only the voices Ijwi speaks are built in: slt, rms and kal.
# The build is reproducible: the same source and toolchain give the same bytes, whose SHA-256 is
# recorded in flite.wasm.sha256.
#
#   build.sh            builds into this folder
#   build.sh --check    builds into a temporary folder and fails unless the bytes are the recorded ones
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
source_url='http://deb.debian.org/debian/pool/main/f/flite/flite_2.2.orig.tar.gz'
source_sha256='ab1555fe5adc3f99f1d4a1a0eb1596d329fd6d74f1464a0097c81f53c0cf9e5c'
voices=(cmu_us_slt cmu_us_rms cmu_us_kal)

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
out="$here"
if [ "${1:-}" = '--check' ]; then out="$work/out"; mkdir -p "$out"; fi

tarball="${FLITE_SOURCE:-$work/flite.orig.tar.gz}"
if [ ! -f "$tarball" ]; then curl --fail --silent --show-error --location -o "$tarball" "$source_url"; fi
echo "$source_sha256  $tarball" | sha256sum --check --quiet

tar -xzf "$tarball" -C "$work"
top="$work/flite-2.2"
for patch in "$here"/patches/*.patch; do
  [ -e "$patch" ] && patch --quiet -p1 -d "$top" < "$patch"
done

# The lists that Flite's make files generate (tools/make_voice_list, make_lang_list): the voices
# and the one language and lexicon they speak.
{
  echo '#include "flite.h"'
  for voice in "${voices[@]}"; do echo "cst_voice *register_$voice(const char *voxdir);"; done
  echo 'cst_val *flite_set_voice_list(const char *voxdir) {'
  for voice in "${voices[@]}"; do
    echo "  flite_voice_list = cons_val(voice_val(register_$voice(voxdir)), flite_voice_list);"
  done
  echo '  flite_voice_list = val_reverse(flite_voice_list);'
  echo '  return flite_voice_list;'
  echo '}'
} > "$top/main/flite_voice_list.c"
cat > "$top/main/flite_lang_list.c" <<'LANGS'
#include "flite.h"
void usenglish_init(cst_voice *v);
cst_lexicon *cmulex_init(void);
void flite_set_lang_list(void) {
  flite_add_lang("eng", usenglish_init, cmulex_init);
  flite_add_lang("usenglish", usenglish_init, cmulex_init);
}
LANGS

library=(
  src/audio/{auclient,auserver,audio,au_streaming,au_none}.c
  src/utils/{cst_alloc,cst_error,cst_string,cst_wchar,cst_tokenstream,cst_val,cst_features}.c
  src/utils/{cst_endian,cst_socket,cst_val_const,cst_val_user,cst_args,cst_url,cst_mmap_none,cst_file_stdio}.c
  src/speech/{cst_wave,cst_wave_io,cst_track,cst_track_io,cst_wave_utils,cst_lpcres,rateconv}.c
  src/speech/{g721,g72x,g723_24,g723_40}.c
  src/synth/{cst_synth,cst_utt_utils,cst_voice,cst_phoneset,cst_ffeatures,cst_ssml,flite}.c
  src/wavesynth/{cst_units,cst_clunits,cst_diphone,cst_sigpr,cst_sts,cst_reflpc}.c
  src/cg/{cst_cg,cst_mlsa,cst_mlpg,cst_vc,cst_cg_load_voice,cst_cg_dump_voice,cst_cg_map,cst_spamf0}.c
  src/stats/{cst_cart,cst_viterbi,cst_ss}.c
  src/regex/{cst_regex,regexp,regsub}.c
  src/lexicon/{cst_lexicon,cst_lts,cst_lts_rewrites}.c
  src/hrg/{cst_utterance,cst_relation,cst_item,cst_ffeature,cst_rel_io}.c
  lang/usenglish/{us_int_accent_cart,us_int_tone_cart,us_f0_model,us_dur_stats,us_durz_cart,us_f0lr}.c
  lang/usenglish/{us_phoneset,us_ffeatures,us_phrasing_cart,us_gpos,us_text,us_expand}.c
  lang/usenglish/{us_nums_cart,us_aswd,usenglish,us_pos_cart}.c
  lang/cmulex/{cmu_lts_rules,cmu_lts_model,cmu_lex,cmu_lex_entries,cmu_lex_data,cmu_postlex}.c
  main/{flite_main,flite_voice_list,flite_lang_list}.c
)
voice_sources() {
  case "$1" in
    cmu_us_kal) echo lang/cmu_us_kal/cmu_us_kal{,_diphone,_lpc,_res,_residx,_ressize}.c ;;
    *) echo lang/"$1"/"$1"{,_cg_single_mcep_trees,_cg,_cg_single_params,_cg_durmodel,_cg_phonestate}.c \
      lang/"$1"/"$1"{_cg_f0_trees,_spamf0_accent,_spamf0_phrase,_spamf0_accent_params}.c ;;
  esac
}

# Flite's configure for a system without audio devices, sockets or mmap; -w: Flite's own warnings
# are not this build's to fix. The paths of the build are mapped away so the bytes do not depend
# on where it ran. -msimd128: the vocoder's filter stages go in two-lane vectors (patches/07);
# Node has WebAssembly SIMD, as the resampler's kernel uses. The other WebAssembly features
# Node has had since version 16: a float made a sample in one instruction (saturating, instead
# of a range check and a branch around a trapping one), memset and memcpy of known sizes as
# memory.fill and memory.copy, sign extension in one instruction. -flto: the objects are LLVM's
# bitcode and the linker optimises them as one program, so that the small accessors of one
# file (a feature's value, an item's relation) are inlined into the loops of another (the
# vocoder, the trees, the parameter generation): about 5 % of an English run (bench/README.md).
cflags=(--target=wasm32-wasi -O2 -flto -msimd128 -mnontrapping-fptoint -mbulk-memory -msign-ext -fwrapv -fno-exceptions -w
  -ffile-prefix-map="$work"=. -ffile-prefix-map="$here"=.
  -DCST_AUDIO_NONE -DCST_NO_SOCKETS -D_WASI_EMULATED_SIGNAL
  -I "$top/include" -I "$top/lang/usenglish" -I "$top/lang/cmulex")
objects=()
compile() { # compile OBJECT SOURCE [FLAGS...]
  local object="$1" source="$2"
  shift 2
  clang "${cflags[@]}" "$@" -c "$top/$source" -o "$object"
}
mkdir -p "$work/obj"
for source in "${library[@]}"; do
  object="$work/obj/$(echo "$source" | tr / _ | sed 's/\.c$/.o/')"
  compile "$object" "$source" -I "$top/src/regex" -I "$top/src/audio" -I "$top/src/cg"
  objects+=("$object")
done
# Ijwi's memset, memcpy and memmove (bulk-memory.c), linked first.
clang "${cflags[@]}" -fno-lto -fno-builtin -c "$here/bulk-memory.c" -o "$work/obj/bulk-memory.o"
objects+=("$work/obj/bulk-memory.o")
for voice in "${voices[@]}"; do
  for source in $(voice_sources "$voice"); do
    object="$work/obj/$(echo "$source" | tr / _ | sed 's/\.c$/.o/')"
    compile "$object" "$source" -I "$top/lang/$voice"
    objects+=("$object")
  done
done

# The name section stays (function and data segment names): the runner finds the streaming
# callback and the read-only data by them (wasm-binary.ts). The stack is 64 KiB, as the npm
# build's was (each worker's instance keeps, and puts back before every run, a copy of the
# memory outside the read-only data, the stack included), and comes first, below the data, so
# that an overflow traps instead of writing over the data.
clang --target=wasm32-wasi -O2 -flto "${objects[@]}" -lm -lwasi-emulated-signal \
  -Wl,--strip-debug -Wl,--stack-first -Wl,-z,stack-size=65536 \
  -o "$out/flite.wasm"

if [ "${1:-}" = '--check' ]; then
  (cd "$out" && sha256sum --check --quiet "$here/flite.wasm.sha256")
  echo "flite.wasm: built again, the same bytes as recorded"
else
  (cd "$out" && sha256sum flite.wasm > flite.wasm.sha256)
  cat "$out/flite.wasm.sha256"
fi
