import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { medianPitch, voicedShare } from '../../helpers/audio-analysis.ts';
import {
  type LiveKitSynthesizeStream,
  loadLiveKitPlugin,
  missingLiveKit,
} from '../../helpers/test-clients.ts';
import { withTtsApp } from '../../helpers/tts-fixture.ts';

// Deepgram's `/v1/speak` socket driven by LiveKit Agents' Deepgram plugin, as a builder configures
// it: its TTS pointed at `{base_url}/deepgram` with an Ijwi key and an Ijwi voice as its model. Its
// streaming path is the one an agent uses (the plugin's one-shot `synthesize` dials port 443 over
// TLS whatever its base URL says, so it cannot reach a plain-HTTP test server).

const LIVEKIT_PLUGIN = '@livekit/agents-plugin-deepgram';

interface LiveKitDeepgram {
  readonly TTS: new (options: {
    apiKey: string;
    baseUrl: string;
    model: string;
    encoding: string;
    sampleRate: number;
  }) => {
    stream(): LiveKitSynthesizeStream;
    on(event: 'error', listener: (error: unknown) => void): void;
    close(): Promise<void>;
  };
}

const TURNS = [
  {
    voice: 'keza',
    language: 'rw',
    pieces: ['Muraho, ', 'murakaza neza ', 'kuri kliniki yacu. ', 'Mbese nabafasha iki?'],
  },
  {
    voice: 'grace',
    language: 'en',
    pieces: ['Good morning, ', 'thank you for calling ', 'the clinic. ', 'How can I help?'],
  },
  {
    voice: 'claire',
    language: 'fr',
    pieces: ['Bonjour, ', 'merci de votre appel. ', 'Comment puis-je ', 'vous aider?'],
  },
] as const;

describe("Deepgram-compatible speak through LiveKit Agents' Deepgram plugin", () => {
  const suite = withTtsApp({ listen: true });

  it('speaks a streamed reply in rw, en and fr at the asked rate, each billed in its language', {
    skip: missingLiveKit(LIVEKIT_PLUGIN),
  }, async () => {
    const plugin = loadLiveKitPlugin(LIVEKIT_PLUGIN, 'warn') as LiveKitDeepgram;
    const account = await suite.fixture.newPayingAccount({ topUp: 300 });
    const pitches: number[] = [];
    for (const turn of TURNS) {
      const tts = new plugin.TTS({
        apiKey: account.key,
        baseUrl: `${suite.base}/deepgram`,
        model: turn.voice,
        encoding: 'linear16',
        sampleRate: 16_000,
      });
      const errors: unknown[] = [];
      tts.on('error', (error) => errors.push(error));
      const stream = tts.stream();
      for (const piece of turn.pieces) stream.pushText(piece);
      stream.flush();
      stream.endInput();
      const parts: Int16Array[] = [];
      for await (const event of stream) {
        if (typeof event === 'symbol') break;
        assert.equal(event.frame.sampleRate, 16_000);
        parts.push(event.frame.data);
      }
      await tts.close();
      assert.deepEqual(errors, [], `${turn.language}: no error events`);
      const samples = Int16Array.from(parts.flatMap((part) => Array.from(part)));
      const seconds = samples.length / 16_000;
      assert.ok(seconds > 1.5 && seconds < 8, `${turn.language}: ${seconds} s of audio`);
      assert.ok(voicedShare(samples, 16_000) > 0.3, `${turn.language}: speech, not silence`);
      pitches.push(medianPitch(samples, 16_000));
    }
    assert.equal(
      new Set(pitches.map((p) => Math.round(p / 5))).size,
      3,
      `three voices: ${pitches.join(', ')} Hz`,
    );
    const charges = (await suite.fixture.ledgerOf(account.accountId)).filter((e) => e.kind === 'charge');
    assert.deepEqual([...new Set(charges.map((c) => c.language))].sort(), ['en', 'fr', 'rw']);
    const balance = (await suite.fixture.balanceOf(account.accountId)).balance;
    assert.equal(
      balance,
      300 + charges.reduce((sum, c) => sum + c.tokens, 0),
      'the balance is what the charges say',
    );
  });
});
