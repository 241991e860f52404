import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTtsTestApp, CONTRACT_LIMITS, type TtsFixture } from '../../helpers/tts-fixture.ts';

// Every compatible protocol counts its requests in the key's rolling window, before the body is
// read (a refused body counts as the native endpoints' do), and answers a full window with 429,
// Retry-After and the RateLimit headers, in its own error shape with Ijwi's code.

interface Surface {
  readonly name: string;
  readonly url: string;
  readonly headers: (key: string) => Record<string, string>;
  /** Ijwi's code, as this protocol's error body carries it. */
  readonly code: (body: Record<string, unknown>) => unknown;
}

const surfaces: readonly Surface[] = [
  {
    name: 'ElevenLabs',
    url: '/elevenlabs/v1/text-to-speech/keza/stream',
    headers: (key) => ({ 'xi-api-key': key }),
    code: (body) => (body.detail as { status?: string }).status,
  },
  {
    name: 'Deepgram',
    url: '/deepgram/v1/speak?model=keza',
    headers: (key) => ({ authorization: `Token ${key}` }),
    code: (body) => body.err_code,
  },
  {
    name: 'Cartesia',
    url: '/cartesia/tts/bytes',
    headers: (key) => ({ 'x-api-key': key }),
    code: (body) => body.error_code,
  },
  {
    name: 'Vapi',
    url: '/vapi/keza',
    headers: (key) => ({ 'x-vapi-secret': key }),
    code: (body) => (body.error as { code?: string }).code,
  },
  {
    name: 'jambonz',
    url: '/jambonz',
    headers: (key) => ({ authorization: `Bearer ${key}` }),
    code: (body) => (body.error as { code?: string }).code,
  },
];

describe('the rate limit on the compatible protocols', () => {
  let fixture: TtsFixture;
  before(async () => {
    fixture = await buildTtsTestApp({ pool: () => undefined });
  });
  after(() => fixture.close());

  for (const surface of surfaces) {
    it(`${surface.name}: the request past the key's limit is a 429 in its shape, with Retry-After`, async () => {
      const account = await fixture.newAccount();
      const send = () =>
        fixture.app.inject({
          method: 'POST',
          url: surface.url,
          headers: { ...surface.headers(account.key), 'content-type': 'application/json' },
          payload: {},
        });
      for (let i = 0; i < CONTRACT_LIMITS.requestsPerMinute; i++) {
        const refused = await send();
        assert.ok(refused.statusCode === 400 || refused.statusCode === 422, `${refused.statusCode}`);
        assert.equal(
          refused.headers['ratelimit-remaining'],
          String(CONTRACT_LIMITS.requestsPerMinute - i - 1),
        );
      }
      const limited = await send();
      assert.equal(limited.statusCode, 429);
      assert.ok(Number(limited.headers['retry-after']) > 0);
      assert.equal(surface.code(limited.json()), 'rate_limited');
      assert.deepEqual(await fixture.balanceOf(account.accountId), { balance: 0, freeUsesRemaining: 5 });
    });
  }
});
