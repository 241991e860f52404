import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tokensFor } from '../../../src/accounts/billing.ts';
import { voicedShare } from '../../helpers/audio-analysis.ts';
import { withTtsApp } from '../../helpers/tts-fixture.ts';

// Vapi's custom voice, as Vapi calls it: a POST of `{"message": {"type": "voice-request", "text",
// "sampleRate", ...call metadata}}` to `{base_url}/vapi/{voice}` with the secret (an Ijwi API key)
// in X-VAPI-SECRET; the answer is 16-bit mono PCM at that rate, played as it comes.

const TEXT = 'Muraho, murakaza neza kuri kliniki yacu.';

/** A voice-request as Vapi sends it, call metadata and all. */
function voiceRequest(text: string, sampleRate: number, type = 'voice-request') {
  return {
    message: {
      type,
      text,
      sampleRate,
      timestamp: Date.now(),
      call: { id: 'call_0d3a', orgId: 'org_71', type: 'inboundPhoneCall' },
      assistant: { name: 'Reception' },
      customer: { number: '+250788000000' },
    },
  };
}

describe('Vapi custom voice', () => {
  const suite = withTtsApp({ listen: true });

  const post = (voice: string, secret: string, body: unknown) =>
    fetch(`${suite.base}/vapi/${voice}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-vapi-secret': secret },
      body: JSON.stringify(body),
    });

  const pcm = async (response: Response) => Buffer.from(await response.arrayBuffer());

  it('answers a voice-request with PCM at the rate asked for, billed once as a stream', async () => {
    const account = await suite.fixture.newPayingAccount({ topUp: 300 });
    const seconds: number[] = [];
    for (const rate of [24_000, 22_050, 8_000]) {
      const response = await post('keza', account.key, voiceRequest(TEXT, rate));
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), 'application/octet-stream');
      assert.equal(response.headers.get('x-voice-sample-rate'), String(rate));
      const audio = await pcm(response);
      assert.equal(audio.byteLength % 2, 0, 'whole 16-bit samples');
      const samples = new Int16Array(audio.buffer, audio.byteOffset, audio.byteLength / 2);
      assert.ok(voicedShare(samples, rate) > 0.3, `speech at ${rate} Hz`);
      seconds.push(samples.length / rate);
    }
    // The same text lasts the same at every rate: the rate is the samples', not the speech's.
    for (const s of seconds) assert.ok(Math.abs(s - (seconds[0] ?? 0)) < 0.1, `${seconds.join(', ')} s`);
    const charges = (await suite.fixture.ledgerOf(account.accountId)).filter((e) => e.kind === 'charge');
    assert.equal(charges.length, 3, 'one charge per voice-request');
    for (const charge of charges) assert.equal(charge.tokens, -tokensFor(TEXT.length, 100));
  });

  it('speaks in the voice the path names', async () => {
    const { key } = await suite.fixture.newAccount();
    const keza = await pcm(await post('keza', key, voiceRequest(TEXT, 16_000)));
    const ineza = await pcm(await post('ineza', key, voiceRequest(TEXT, 16_000)));
    assert.ok(keza.byteLength > 16_000 && ineza.byteLength > 16_000);
    assert.notDeepEqual(keza, ineza);
  });

  it('refuses what it cannot speak with a clear error, and charges nothing', async () => {
    const account = await suite.fixture.newPayingAccount({ topUp: 300 });
    const refusals: [string, string, unknown, number, string, string | null][] = [
      ['keza', 'not-a-key', voiceRequest(TEXT, 24_000), 401, 'invalid_api_key', null],
      ['nobody', account.key, voiceRequest(TEXT, 24_000), 404, 'not_found', 'voice'],
      ['keza', account.key, voiceRequest(TEXT, 48_000), 400, 'unsupported_format', 'message.sampleRate'],
      [
        'keza',
        account.key,
        voiceRequest(TEXT, 24_000, 'end-of-call-report'),
        400,
        'invalid_request',
        'message.type',
      ],
      ['keza', account.key, voiceRequest('  ', 24_000), 400, 'input_required', 'message.text'],
      ['keza', account.key, { text: TEXT }, 400, 'invalid_request', 'message'],
    ];
    for (const [voice, key, body, status, code, param] of refusals) {
      const response = await post(voice, key, body);
      assert.equal(response.status, status, `${code} for ${JSON.stringify(body).slice(0, 60)}`);
      const error = ((await response.json()) as { error: { code: string; param: string | null } }).error;
      assert.deepEqual([error.code, error.param], [code, param]);
    }
    assert.deepEqual(await suite.fixture.balanceOf(account.accountId), {
      balance: 300,
      freeUsesRemaining: 0,
    });
  });

  it('bills a caller who hangs up mid-answer for the audio it was given', async () => {
    const account = await suite.fixture.newPayingAccount({ topUp: 300 });
    const long = Array.from({ length: 30 }, () => TEXT).join(' ');
    const controller = new AbortController();
    const response = await fetch(`${suite.base}/vapi/keza`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-vapi-secret': account.key },
      body: JSON.stringify(voiceRequest(long, 8_000)),
      signal: controller.signal,
    });
    const reader = response.body?.getReader();
    assert.ok(reader);
    let received = 0;
    while (received < 16_000) {
      const part = await reader.read();
      if (part.done) break;
      received += part.value.byteLength;
    }
    controller.abort();
    // The stream's last record follows its end, which the hang-up brings.
    let charge: { seconds: number | null; tokens: number } | undefined;
    for (let i = 0; i < 200 && (charge?.seconds ?? 60) >= 60; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      charge = (await suite.fixture.ledgerOf(account.accountId)).find((e) => e.kind === 'charge');
    }
    assert.ok(charge, 'charged: audio was delivered');
    assert.equal(charge.tokens, -tokensFor(long.length, 100));
    const heard = received / 2 / 8_000;
    assert.ok(
      (charge.seconds ?? 0) >= heard - 0.05 && (charge.seconds ?? 0) < 60,
      `${charge.seconds} s recorded, ${heard} s read before the hang-up`,
    );
    const refunds = (await suite.fixture.ledgerOf(account.accountId)).filter((e) => e.kind === 'refund');
    assert.deepEqual(refunds, []);
  });
});
