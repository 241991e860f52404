import { parseWav } from '../../audio/wav.ts';
import type { ChunkSink, EngineDescriptor, EngineInput, EngineVoice, SpeechEngine } from '../engine.ts';
import { compileFlite, FliteRunner } from './wasi-runner.ts';

/** The voices compiled into Flite's module: US female and male, Scottish male, US male diphones. */
export type FliteVoiceName = 'slt' | 'rms' | 'awb' | 'kal16' | 'kal';

export interface FliteVoice extends EngineVoice {
  readonly engine: 'flite';
  readonly voice: FliteVoiceName;
  /** Mean pitch in Hz (Flite's `int_f0_target_mean`); absent: the recorded speaker's own. */
  readonly pitchHz?: number;
  /** Duration stretch (Flite's `duration_stretch`): 1 is the speaker's pace, above 1 slower. */
  readonly stretch: number;
}

/** `kal` is the 8 kHz diphone voice; every other voice speaks at 16 kHz. */
const SAMPLE_RATES: Readonly<Record<FliteVoiceName, number>> = {
  slt: 16_000,
  rms: 16_000,
  awb: 16_000,
  kal16: 16_000,
  kal: 8_000,
};
/** Samples handed to the sink at a time: a tenth of a second, as espeak-ng gives them. */
const CHUNK_SECONDS = 0.1;

function asFliteVoice(voice: EngineVoice): FliteVoice {
  if (voice.engine !== 'flite') throw new Error(`flite cannot speak a ${voice.engine} voice`);
  return voice as FliteVoice;
}

/**
 * The command line of one synthesis. Every setting is given on every call (a run is a fresh
 * instance, so nothing carries over anyway), and the text is the one argument after `-t`: Flite
 * reads it as text (no `-ssml`), whatever it holds, even when it looks like an option.
 */
export function fliteArguments(text: string, voice: FliteVoice, rate: number): string[] {
  const args = ['-voice', voice.voice, '--setf', `duration_stretch=${(voice.stretch / rate).toFixed(3)}`];
  if (voice.pitchHz !== undefined) args.push('--setf', `int_f0_target_mean=${voice.pitchHz}`);
  args.push('-t', text);
  return args;
}

class FliteEngine implements SpeechEngine {
  readonly id = 'flite' as const;
  readonly #runner: FliteRunner;

  constructor(runner: FliteRunner) {
    this.#runner = runner;
  }

  sampleRate(voice: EngineVoice): number {
    return SAMPLE_RATES[asFliteVoice(voice).voice];
  }

  /**
   * Speaks one clause: Flite renders it whole (tens of ms), then it goes to the sink in chunks
   * of a tenth of a second, stopping at the first one after a cancel.
   */
  synthesize(input: EngineInput, voice: EngineVoice, rate: number, sink: ChunkSink): void {
    if (input.kind !== 'text') throw new Error('flite reads text only, not phonemes');
    const fliteVoice = asFliteVoice(voice);
    if (sink.cancelled() || input.text.trim() === '') return;
    const { samples, sampleRate } = parseWav(this.#runner.run(fliteArguments(input.text, fliteVoice, rate)));
    const step = Math.round(sampleRate * CHUNK_SECONDS);
    for (let at = 0; at < samples.length && !sink.cancelled(); at += step) {
      sink.push(samples.slice(at, at + step));
    }
  }

  phonemes(): string {
    throw new Error('flite voices have no phoneme view');
  }
}

/** Flite (Carnegie Mellon University) compiled to WASI, with its English voices built in. */
export const fliteEngine: EngineDescriptor = {
  id: 'flite',
  name: 'Flite',
  licence: 'BSD-style (Flite licence: CMU, no advertising clause)',
  readsPhonemes: false,
  async load() {
    return new FliteEngine(new FliteRunner(await compileFlite()));
  },
};
