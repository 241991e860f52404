/**
 * The voices of Flite's module that Ijwi speaks with: `slt` (Grace, Olivia, Amani), `rms` (James,
 * Baraka) and `kal` (8 kHz diphones, its lexicon lookups). The module also holds `awb`,
 * `awb_time` and `kal16`, whose data (8.6 MB of the 17 MB of read-only data) no instance reads.
 */
export const SPOKEN_FLITE_VOICES = ['slt', 'rms', 'kal'] as const;

/**
 * Where the other voices' data lies in the memory of the module of this SHA-256 (the package's
 * `flite.wasm`): every variable of their compile units, and only zero bytes between them, as
 * `scripts/flite-unused-voice-data.ts` finds them in the binary's DWARF. An instance leaves these
 * bytes unread, and so never touches their pages; a binary of any other hash is read whole.
 */
export const UNUSED_VOICE_DATA = {
  sha256: 'f975276f4f2a6de78613f197533aac2167d181b77020866d142d594bcc2a0e80',
  start: 1_554_656,
  end: 10_551_148,
} as const;
