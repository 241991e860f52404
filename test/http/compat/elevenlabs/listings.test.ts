import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openAiErrorType } from '../../../../src/http/openai-speech.ts';
import { allVoices } from '../../../../src/speech/voices/voices.ts';
import {
  loadLiveKitPlugin,
  loadTestClient,
  missingLiveKit,
  missingTestClient,
} from '../../../helpers/test-clients.ts';
import {
  buildTtsTestApp,
  CONTRACT_LIMITS,
  listenOnLoopback,
  type TtsFixture,
} from '../../../helpers/tts-fixture.ts';

// ElevenLabs' listings and error shape, driven by ElevenLabs' own JS SDK pointed at the service
// as a builder would point it: base URL `{base_url}/elevenlabs`, the Ijwi key as its API key.

const SDK = '@elevenlabs/elevenlabs-js';

interface SdkVoice {
  readonly voiceId: string;
  readonly name?: string;
  readonly category?: string;
  readonly labels?: Record<string, string>;
  readonly verifiedLanguages?: readonly { language: string; modelId: string; accent?: string }[];
}
interface SdkModel {
  readonly modelId: string;
  readonly canDoTextToSpeech?: boolean;
  readonly maximumTextLengthPerRequest?: number;
  readonly languages?: readonly { languageId: string; name: string }[];
}
interface SdkError extends Error {
  readonly statusCode?: number;
  readonly body?: unknown;
}
interface ElevenLabsClient {
  readonly voices: {
    getAll(): Promise<{ voices: SdkVoice[] }>;
    search(): Promise<{ voices: SdkVoice[]; hasMore: boolean; totalCount: number }>;
    get(voiceId: string): Promise<SdkVoice>;
  };
  readonly models: { list(): Promise<SdkModel[]> };
}
interface ElevenLabsModule {
  readonly ElevenLabsClient: new (options: {
    apiKey: string;
    baseUrl: string;
    maxRetries: number;
  }) => ElevenLabsClient;
  readonly ElevenLabsError: new (...args: never[]) => SdkError;
  readonly ElevenLabs: {
    readonly UnprocessableEntityError: new (...args: never[]) => SdkError;
  };
}

const ijwiVoiceIds = () => allVoices().map((voice) => voice.name.toLowerCase());

describe('ElevenLabs-compatible listings, through the official JS SDK', {
  skip: missingTestClient(SDK),
}, () => {
  let fixture: TtsFixture;
  let base: string;
  let sdk: ElevenLabsModule;
  let client: ElevenLabsClient;
  const clientWithKey = (apiKey: string) =>
    new sdk.ElevenLabsClient({ apiKey, baseUrl: `${base}/elevenlabs`, maxRetries: 0 });

  before(async () => {
    sdk = loadTestClient(SDK) as ElevenLabsModule;
    fixture = await buildTtsTestApp({ pool: () => undefined });
    base = await listenOnLoopback(fixture.app);
    const account = await fixture.newAccount();
    client = clientWithKey(account.key);
  });
  after(() => fixture.close());

  /** The error the SDK throws for `call`, which must be one. */
  const refusal = async (call: () => Promise<unknown>): Promise<SdkError> => {
    try {
      await call();
    } catch (error) {
      assert.ok(error instanceof sdk.ElevenLabsError, `expected the SDK's error, got ${String(error)}`);
      return error;
    }
    assert.fail('the call succeeded');
  };

  it('lists every Ijwi voice by its lower-case name, with its language and accent in the labels', async () => {
    const { voices } = await client.voices.getAll();
    assert.deepEqual(
      voices.map((v) => v.voiceId),
      ijwiVoiceIds(),
    );
    const keza = voices.find((v) => v.voiceId === 'keza');
    assert.equal(keza?.name, 'Keza');
    assert.equal(keza?.category, 'premade');
    assert.deepEqual(
      { language: keza?.labels?.language, accent: keza?.labels?.accent, gender: keza?.labels?.gender },
      { language: 'rw', accent: 'rwandan', gender: 'female' },
    );
    const byLanguage = new Map(voices.map((v) => [v.voiceId, v.labels?.language]));
    for (const voice of allVoices()) assert.equal(byLanguage.get(voice.name.toLowerCase()), voice.language);
    assert.ok(keza?.verifiedLanguages?.every((l) => l.language === 'rw'));
  });

  it('lists the same voices through voices.search (GET /v2/voices), in one page', async () => {
    const page = await client.voices.search();
    assert.deepEqual(
      page.voices.map((v) => v.voiceId),
      ijwiVoiceIds(),
    );
    assert.equal(page.hasMore, false);
    assert.equal(page.totalCount, allVoices().length);
  });

  it('gets one voice by its id, and answers an unknown id with 404 naming the ids', async () => {
    const aline = await client.voices.get('aline');
    assert.equal(aline.voiceId, 'aline');
    assert.equal(aline.labels?.language, 'fr');
    // An Ijwi name in another case is not an id: ids are exact, as ElevenLabs' are.
    for (const id of ['nobody', 'Aline', '21m00Tcm4TlvDq8ikWAM']) {
      const error = await refusal(() => client.voices.get(id));
      assert.equal(error.statusCode, 404);
      assert.match(error.message, /the voice ids are keza, /);
    }
  });

  it('lists models that speak Kinyarwanda, English and French, with the stream limit', async () => {
    const models = await client.models.list();
    assert.ok(models.length > 0);
    for (const model of models) {
      assert.equal(model.canDoTextToSpeech, true);
      assert.equal(model.maximumTextLengthPerRequest, CONTRACT_LIMITS.streamMaxChars);
      assert.deepEqual(
        model.languages?.map((l) => l.languageId),
        ['rw', 'en', 'fr'],
      );
    }
    assert.ok(models.some((m) => m.modelId === 'eleven_multilingual_v2'));
  });

  it("shows Ijwi's code and message in the SDK's error for a bad key, in ElevenLabs' error shape", async () => {
    for (const key of ['not-a-key', 'voice_live_0000000000000000000000000000000000000000']) {
      const error = await refusal(() => clientWithKey(key).voices.getAll());
      assert.equal(error.statusCode, 401);
      assert.deepEqual(
        {
          status: (error.body as { detail?: { status?: unknown } }).detail?.status,
          message: (error.body as { detail?: { message?: unknown } }).detail?.message,
        },
        { status: 'invalid_api_key', message: 'the API key is not valid or has been revoked' },
      );
      assert.match(error.message, /the API key is not valid or has been revoked/);
    }
  });

  it('refuses a revoked key on every listing', async () => {
    const account = await fixture.newAccount();
    const revoked = await fixture.accounts.revokeKey(account.keyIds[0] as string);
    assert.equal(revoked.ok, true);
    const stale = clientWithKey(account.key);
    for (const call of [
      () => stale.voices.getAll(),
      () => stale.voices.get('keza'),
      () => stale.models.list(),
    ]) {
      assert.equal((await refusal(call)).statusCode, 401);
    }
  });
});

describe('ElevenLabs-compatible errors over raw HTTP', () => {
  let fixture: TtsFixture;
  before(async () => {
    fixture = await buildTtsTestApp({ pool: () => undefined });
  });
  after(() => fixture.close());

  it('answers without a key, as the native listings do', async () => {
    const response = await fixture.app.inject({ method: 'GET', url: '/elevenlabs/v1/voices' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().voices.length, allVoices().length);
  });

  it("answers an unknown path and a wrong method in ElevenLabs' shape, with the request id", async () => {
    const missing = await fixture.app.inject({ method: 'GET', url: '/elevenlabs/v1/nothing-here' });
    assert.equal(missing.statusCode, 404);
    assert.deepEqual(Object.keys(missing.json()), ['detail']);
    assert.equal(missing.json().detail.status, 'not_found');
    assert.equal(missing.json().detail.request_id, missing.headers['x-request-id']);
    const wrong = await fixture.app.inject({ method: 'POST', url: '/elevenlabs/v1/models' });
    assert.equal(wrong.statusCode, 405);
    assert.equal(wrong.headers.allow, 'GET, HEAD');
    assert.equal(wrong.json().detail.status, 'method_not_allowed');
  });

  it('refuses two xi-api-key headers, even when one of them is valid', async () => {
    const { key } = await fixture.newAccount();
    const response = await fixture.app.inject({
      method: 'GET',
      url: '/elevenlabs/v1/models',
      headers: { 'xi-api-key': [key, 'other'] },
    });
    assert.equal(response.statusCode, 401);
    assert.equal(response.json().detail.status, 'invalid_api_key');
  });

  it('answers bad input with 422, the status ElevenLabs and its SDK give it', async () => {
    const response = await fixture.app.inject({
      method: 'GET',
      url: '/elevenlabs/v1/voices/%E0%A4%A',
    });
    assert.equal(response.statusCode, 422);
    assert.equal(response.json().detail.status, 'invalid_request');
  });

  it("leaves the other surfaces' error shapes as they were", async () => {
    const native = await fixture.app.inject({ method: 'GET', url: '/api/v1/nothing-here' });
    assert.equal(native.json().error.code, 'not_found');
    const openAi = await fixture.app.inject({ method: 'GET', url: '/v1/nothing-here' });
    assert.equal(openAi.json().error.type, openAiErrorType(404));
  });
});

const LIVEKIT_PLUGIN = '@livekit/agents-plugin-elevenlabs';

interface LiveKitElevenLabs {
  readonly TTS: new (options: {
    apiKey: string;
    baseURL: string;
  }) => {
    listVoices(): Promise<{ id: string; name: string; category: string }[]>;
  };
}

describe("ElevenLabs-compatible listings, through LiveKit Agents' ElevenLabs plugin", {
  skip: missingLiveKit(LIVEKIT_PLUGIN),
}, () => {
  let fixture: TtsFixture;
  let base: string;
  before(async () => {
    fixture = await buildTtsTestApp({ pool: () => undefined });
    base = await listenOnLoopback(fixture.app);
  });
  after(() => fixture.close());

  it('lists the voices from the base URL the plugin is given, {base_url}/elevenlabs/v1', async () => {
    const plugin = loadLiveKitPlugin(LIVEKIT_PLUGIN, 'warn') as LiveKitElevenLabs;
    const { key } = await fixture.newAccount();
    const tts = new plugin.TTS({ apiKey: key, baseURL: `${base}/elevenlabs/v1` });
    const voices = await tts.listVoices();
    assert.deepEqual(
      voices.map((v) => v.id),
      ijwiVoiceIds(),
    );
    assert.deepEqual(voices[0], { id: 'keza', name: 'Keza', category: 'premade' });
  });
});
