import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { voicedShare } from '../../helpers/audio-analysis.ts';
import { LiveClient } from '../../helpers/live-client.ts';
import { withTtsApp } from '../../helpers/tts-fixture.ts';

// jambonz's custom speech vendor, in the shapes its documentation gives: the HTTP form (a POST of
// {language, voice, type, text} with `Authorization: Bearer <key>`, audio back by Content-Type)
// and the streaming form (a socket that gets `connect`, then stream/flush/stop, audio as binary).

describe('jambonz custom speech vendor', () => {
  const suite = withTtsApp({ listen: true });

  const post = (key: string, body: unknown, query = '') =>
    fetch(`${suite.base}/jambonz${query}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('answers the HTTP form with MP3 by default, and with L16 or WAV when asked, billed once each', async () => {
    const account = await suite.fixture.newPayingAccount({ topUp: 300 });
    const body = {
      language: 'en-US',
      voice: 'grace',
      type: 'text',
      text: 'Thank you for calling, please hold.',
    };
    const mp3 = await post(account.key, body);
    assert.equal(mp3.status, 200);
    assert.equal(mp3.headers.get('content-type'), 'audio/mpeg');
    const mp3Bytes = Buffer.from(await mp3.arrayBuffer());
    assert.ok(mp3Bytes[0] === 0xff || mp3Bytes.subarray(0, 3).toString() === 'ID3');
    const l16 = await post(account.key, body, '?format=l16&rate=16000');
    assert.equal(l16.headers.get('content-type'), 'audio/l16;rate=16000');
    const pcm = Buffer.from(await l16.arrayBuffer());
    const samples = new Int16Array(pcm.buffer, pcm.byteOffset, pcm.byteLength / 2);
    assert.ok(samples.length / 16_000 > 1 && voicedShare(samples, 16_000) > 0.3);
    const wav = Buffer.from(await (await post(account.key, body, '?format=wav&rate=8000')).arrayBuffer());
    assert.equal(wav.subarray(0, 4).toString(), 'RIFF');
    assert.equal(wav.readUInt32LE(24), 8000);
    const ssml = await post(
      account.key,
      {
        language: 'rw-RW',
        voice: 'keza',
        type: 'ssml',
        text: '<speak>Muraho <break time="300ms"/> neza.</speak>',
      },
      '?format=l16&rate=8000',
    );
    assert.equal(ssml.status, 200);
    assert.ok((await ssml.arrayBuffer()).byteLength > 8000);
    assert.equal(
      (await suite.fixture.ledgerOf(account.accountId)).filter((e) => e.kind === 'charge').length,
      4,
    );
  });

  it('refuses with clear errors and charges nothing', async () => {
    const account = await suite.fixture.newPayingAccount({ topUp: 300 });
    const good = { language: 'fr-FR', voice: 'aline', type: 'text', text: 'Bonjour.' };
    const cases: [string, unknown, string, number, string][] = [
      ['not-a-key', good, '', 401, 'invalid_api_key'],
      [account.key, { ...good, voice: 'nobody' }, '', 404, 'not_found'],
      [account.key, { ...good, language: 'en-US' }, '', 400, 'unsupported_language'],
      [account.key, { ...good, type: 'markdown' }, '', 400, 'invalid_request'],
      [account.key, good, '?format=l16&rate=11025', 400, 'unsupported_format'],
      [account.key, { ...good, text: '<speak>unclosed', type: 'ssml' }, '', 400, 'invalid_ssml'],
    ];
    for (const [key, body, query, status, code] of cases) {
      const response = await post(key, body, query);
      assert.equal(response.status, status, code);
      assert.equal(((await response.json()) as { error: { code: string } }).error.code, code);
    }
    assert.deepEqual(await suite.fixture.balanceOf(account.accountId), {
      balance: 300,
      freeUsesRemaining: 0,
    });
  });

  it('streams over its WebSocket: connect, binary audio for streamed text, stop', async () => {
    const { key } = await suite.fixture.newAccount({ topUp: 300 });
    const client = await LiveClient.connect(
      suite.base,
      { authorization: `Bearer ${key}` },
      '/jambonz?voice=keza&language=rw-RW&sampleRate=16000',
    );
    const connect = await client.next((m) => m.type === 'connect');
    assert.deepEqual(connect.data, { sample_rate: 16000, base64_encoding: false });
    client.send({ type: 'stream', text: 'Muraho, ' });
    client.send({ type: 'keepalive' });
    client.send({ type: 'stream', text: 'murakaza neza kuri kliniki yacu.' });
    client.send({ type: 'flush' });
    await client.next((m) => m.type === 'binary');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    client.send({ type: 'stop' });
    assert.equal((await client.closed).code, 1000);
    const audio = Buffer.concat(
      client.messages.filter((m) => m.message.type === 'binary').map((m) => m.message.bytes as Buffer),
    );
    assert.ok(audio.byteLength / 32_000 > 1, `${audio.byteLength / 32_000} s`);
    assert.ok(
      voicedShare(new Int16Array(audio.buffer, audio.byteOffset, audio.byteLength / 2), 16_000) > 0.3,
    );
  });
});
