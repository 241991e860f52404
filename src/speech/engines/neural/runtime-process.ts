import { createRequire } from 'node:module';
import type { RuntimeReply, RuntimeRequest } from './runtime-protocol.ts';

// The neural runtime's own process (`neural-engine.ts` starts one per pool worker): the runtime
// can end or crash the process it runs in, so it never runs in the service's. It keeps the packs
// it has loaded, speaks one clause at a time and sends its samples as the runtime gives them.

interface Tts {
  readonly sampleRate: number;
  generateAsync(request: {
    text: string;
    sid: number;
    speed: number;
    onProgress: (info: { samples: Float32Array }) => number;
  }): Promise<unknown>;
}

const { OfflineTts } = createRequire(import.meta.url)('sherpa-onnx-node') as {
  OfflineTts: new (config: unknown) => Tts;
};
/** Packs kept loaded, the most recently used last; a few, as each holds its model in memory. */
const MAX_LOADED = 4;
const loaded = new Map<string, Tts>();
const stopped = new Set<number>();

function send(reply: RuntimeReply): void {
  process.send?.(reply);
}

function ttsFor(request: Extract<RuntimeRequest, { type: 'speak' }>): Tts {
  const key = request.pack.model;
  const found = loaded.get(key);
  if (found) {
    loaded.delete(key);
    loaded.set(key, found);
    return found;
  }
  const tts = new OfflineTts({
    model: {
      vits: {
        model: request.pack.model,
        tokens: request.pack.tokens,
        ...(request.pack.espeakData ? { dataDir: request.pack.espeakData } : {}),
      },
      numThreads: 1,
      provider: 'cpu',
      debug: false,
    },
    maxNumSentences: 1,
  });
  loaded.set(key, tts);
  if (loaded.size > MAX_LOADED) loaded.delete(loaded.keys().next().value as string);
  return tts;
}

/** 16-bit samples from the runtime's floats in [-1, 1]. */
function toInt16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    out[i] = Math.max(-32768, Math.min(32767, Math.round((samples[i] as number) * 32767)));
  }
  return out;
}

async function speak(request: Extract<RuntimeRequest, { type: 'speak' }>): Promise<void> {
  const { id } = request;
  try {
    const tts = ttsFor(request);
    await tts.generateAsync({
      text: request.text,
      sid: request.speaker,
      speed: request.speed,
      onProgress: ({ samples }) => {
        if (stopped.has(id)) return 0;
        send({ type: 'samples', id, samples: toInt16(samples) });
        return 1;
      },
    });
    send({ type: 'done', id });
  } catch (error) {
    send({ type: 'failed', id, message: error instanceof Error ? error.message : String(error) });
  } finally {
    stopped.delete(id);
  }
}

process.on('message', (request: RuntimeRequest) => {
  if (request.type === 'stop') stopped.add(request.id);
  else void speak(request);
});
send({ type: 'ready' });
