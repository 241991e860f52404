import assert from 'node:assert/strict';
import { type ClientRequest, type IncomingMessage, request } from 'node:http';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { decodeMulaw } from '../../src/speech/audio/g711.ts';
import { voicedShare } from '../helpers/audio-analysis.ts';
import { listenOnLoopback, textOfLength, withKey, withTtsApp } from '../helpers/tts-fixture.ts';

// A stream is billed before its audio exists, on the conservative bound; once it has ended, its
// ledger entry says how long the audio really was, and for a caller who hung up, how much of it
// the caller was given.

/** A stream request over a real socket, its response handed to `onResponse` (status 200 checked). */
function postStream(
  base: string,
  key: string,
  body: Record<string, unknown>,
  onResponse: (res: IncomingMessage) => void,
): ClientRequest {
  const req = request(`${base}/api/v1/tts-stream.php`, { method: 'POST', headers: withKey(key) }, (res) => {
    assert.equal(res.statusCode, 200);
    res.on('error', () => {});
    onResponse(res);
  });
  req.end(JSON.stringify(body));
  return req;
}

describe('the ledger entry of a stream', () => {
  const suite = withTtsApp();

  /**
   * The seconds of the account's newest entry, a charge, once under `bound` (the charge holds the
   * bound until the route records the audio handed over); asked every 20 ms, at most `polls` times.
   */
  const secondsBelow = async (accountId: string, bound: number, polls: number): Promise<number> => {
    let seconds = Number.POSITIVE_INFINITY;
    for (let i = 0; i < polls && seconds > bound; i++) {
      // Until the stream's charge is written, the newest entry is the last free generation used.
      const [entry] = await suite.fixture.ledgerOf(accountId);
      seconds =
        entry?.kind === 'charge' ? (entry.seconds ?? Number.POSITIVE_INFINITY) : Number.POSITIVE_INFINITY;
      if (seconds > bound) await sleep(20);
    }
    return seconds;
  };

  it('records the audio’s real duration once the stream has ended, not the estimate', async () => {
    const account = await suite.fixture.newPayingAccount({ topUp: 1000 });
    const input = 'Good morning, thank you for calling the clinic.';
    const response = await suite.fixture.app.inject({
      method: 'POST',
      url: '/api/v1/tts-stream.php',
      headers: withKey(account.key),
      payload: { input, language: 'en', format: 'pcm16_8k' },
    });
    assert.equal(response.statusCode, 200);
    const heard = response.rawPayload.byteLength / 16_000;
    const [entry] = await suite.fixture.ledgerOf(account.accountId);
    assert.equal(entry?.kind, 'charge');
    assert.ok(
      Math.abs((entry?.seconds ?? 0) - heard) < 0.01,
      `${entry?.seconds} s recorded, ${heard} s heard`,
    );
    assert.ok(heard < input.length * 1.0, 'well under the bound the charge was decided on');
  });

  it('records the audio a caller who hung up was given, not the estimate for the whole input', async () => {
    const account = await suite.fixture.newPayingAccount({ topUp: 1000 });
    const base = await listenOnLoopback(suite.fixture.app);
    const input = textOfLength(1359);
    // The caller hangs up once it has heard 2.4 s of mu-law at 8 kHz (8,000 bytes a second).
    const hangUpAfter = 2.4 * 8000;
    const received = await new Promise<Buffer>((resolve, reject) => {
      const parts: Buffer[] = [];
      let length = 0;
      const req = postStream(base, account.key, { input, language: 'en', format: 'mulaw_8k' }, (res) => {
        res.on('data', (chunk: Buffer) => {
          parts.push(chunk);
          length += chunk.byteLength;
          if (length >= hangUpAfter) {
            res.socket.destroy();
            resolve(Buffer.concat(parts));
          }
        });
      });
      req.on('error', reject);
    });
    const heard = received.byteLength / 8000;
    assert.ok(voicedShare(decodeMulaw(new Uint8Array(received)), 8000) > 0.3, 'the caller heard speech');
    // The entry is written with the estimate at the first audio, and corrected once the route has
    // seen the hang-up.
    const seconds = await secondsBelow(account.accountId, 120, 500);
    // What the route handed to the connection: what the caller heard, and what was still on its
    // way when it hung up (the clause being written), never the whole input's bound.
    assert.ok(seconds >= heard, `${seconds} s recorded, ${heard} s heard`);
    assert.ok(seconds < heard + 15, `${seconds} s recorded, ${heard} s heard`);
  });
  it('brings the entry up to the audio handed over while the stream is still going', async () => {
    const account = await suite.fixture.newPayingAccount({ topUp: 1000 });
    const base = await listenOnLoopback(suite.fixture.app);
    // Four minutes of speech at 24 kHz (more than the sockets' buffers hold), to a caller that
    // stops reading after its first audio (as a player that has buffered enough does): the stream
    // stays open long after the first progress record, which a process killed mid-stream would keep.
    const input = textOfLength(4000);
    let receivedBytes = 0;
    let ended = false;
    const req = postStream(base, account.key, { input, language: 'en', format: 'pcm16_24k' }, (res) => {
      res.on('data', (chunk: Buffer) => {
        receivedBytes += chunk.byteLength;
        res.pause();
      });
      res.on('end', () => {
        ended = true;
      });
    });
    req.on('error', () => {});
    try {
      // The entry is written with the bound (over 120 s for this input) at the first audio.
      const seconds = await secondsBelow(account.accountId, 120, 1000);
      assert.equal(ended, false, 'the stream is still going');
      assert.ok(receivedBytes > 0, 'the caller had its first audio');
      assert.ok(seconds > 0 && seconds <= 120, `${seconds} s recorded`);
    } finally {
      req.destroy();
    }
  });
});
