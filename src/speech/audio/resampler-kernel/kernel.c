#include <wasm_simd128.h>

/*
 * The resampler's filter loop (`../resampler.ts`): `count` output samples, each the
 * dot product of `taps` window samples with one of the filter's phases, four products at a time.
 * `taps` is a multiple of 8 (the phases are padded with zero coefficients). Positions are in
 * 1/up input samples; the first output sits at `position`, each next one `down` further on.
 */
__attribute__((export_name("drain"))) void drain(const float *window, const float *phases, int taps, int up,
                                                int down, int position, int count, short *out) {
  for (int n = 0; n < count; n++) {
    int first = position / up;
    int phase = position - first * up;
    const float *w = window + first;
    const float *p = phases + phase * taps;
    v128_t even = wasm_f32x4_splat(0.0f);
    v128_t odd = even;
    for (int k = 0; k < taps; k += 8) {
      even = wasm_f32x4_add(even, wasm_f32x4_mul(wasm_v128_load(p + k), wasm_v128_load(w + k)));
      odd = wasm_f32x4_add(odd, wasm_f32x4_mul(wasm_v128_load(p + k + 4), wasm_v128_load(w + k + 4)));
    }
    v128_t sum4 = wasm_f32x4_add(even, odd);
    float sum = (wasm_f32x4_extract_lane(sum4, 0) + wasm_f32x4_extract_lane(sum4, 1)) +
                (wasm_f32x4_extract_lane(sum4, 2) + wasm_f32x4_extract_lane(sum4, 3));
    /* Rounded half up, as Math.round, and clipped: an overshoot past full scale must not wrap. */
    float rounded = __builtin_floorf(sum + 0.5f);
    out[n] = rounded > 32767.0f ? 32767 : rounded < -32768.0f ? -32768 : (short)rounded;
    position += down;
  }
}
