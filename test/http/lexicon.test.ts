import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { EnginePool } from '../../src/speech/pool/engine-pool.ts';
import { LiveClient } from '../helpers/live-client.ts';
import {
  buildTtsTestApp,
  listenOnLoopback,
  startTestPool,
  type TestAccount,
  type TtsFixture,
  withKey,
} from '../helpers/tts-fixture.ts';

// An account's pronunciation lexicon on every path that speaks, and on no other account's requests.
// Synthesis is deterministic, so "said its way" is checked byte for byte against the respelling.

describe('pronunciation lexicons in requests', () => {
  let pool: EnginePool;
  let fixture: TtsFixture;
  let base: string;
  let owner: TestAccount;
  let other: TestAccount;

  before(async () => {
    pool = await startTestPool();
    fixture = await buildTtsTestApp({ pool: () => pool });
    base = await listenOnLoopback(fixture.app);
    owner = await fixture.newPayingAccount({ topUp: 1000 });
    other = await fixture.newPayingAccount({ topUp: 1000 });
    const added = await fixture.lexicons.add(owner.accountId, {
      language: 'en',
      phrase: 'Uwase',
      kind: 'respelling',
      says: 'oo wah seh',
    });
    assert.ok(added.ok);
  });
  after(async () => {
    await fixture.close();
    await pool.close();
  });

  const stream = async (key: string, input: string, textType = 'text') => {
    const response = await fixture.app.inject({
      method: 'POST',
      url: '/api/v1/tts-stream.php',
      headers: withKey(key),
      payload: JSON.stringify({
        input,
        language: 'en',
        speaker_id: 2,
        format: 'mulaw_8k',
        text_type: textType,
      }),
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.rawPayload;
  };

  it('says the phrase its way on the stream endpoint, for its account only', async () => {
    const asWritten = 'Please ask for Uwase at the desk.';
    const respelled = 'Please ask for oo wah seh at the desk.';
    const mine = await stream(owner.key, asWritten);
    assert.deepEqual(mine, await stream(other.key, respelled));
    assert.notDeepEqual(
      mine,
      await stream(other.key, asWritten),
      'another account hears the word as written',
    );
  });

  it('says it its way in a live context too', async () => {
    const client = await LiveClient.connect(base, { authorization: `Bearer ${owner.key}` });
    client.send({
      type: 'text',
      context_id: 'l',
      text: 'Please ask for Uwase at the desk.',
      language: 'en',
      speaker_id: 2,
      format: 'mulaw_8k',
    });
    client.send({ type: 'end', context_id: 'l' });
    assert.equal((await client.ended('l')).type, 'done');
    const words = client.of('l', 'words').flatMap((m) => (m.words as { text: string }[]).map((w) => w.text));
    assert.ok(words.includes('wah') && !words.includes('Uwase'), words.join(' '));
    client.close();
  });

  it('says the word of an entry with a word language in that language’s sounds, for its account only', async () => {
    // "bite": the English verb to the detector; the account's entry makes it the Kinyarwanda greeting.
    const added = await fixture.lexicons.add(owner.accountId, {
      language: 'en',
      phrase: 'bite',
      kind: 'respelling',
      says: 'bite',
      wordLanguage: 'rw',
    });
    assert.ok(added.ok);
    const sentence = 'Please say bite to the nurse.';
    const mine = await stream(owner.key, sentence);
    assert.deepEqual(
      mine,
      await stream(
        other.key,
        '<speak>Please say <lang xml:lang="rw">bite</lang> to the nurse.</speak>',
        'ssml',
      ),
      'as SSML lang says it',
    );
    assert.notDeepEqual(mine, await stream(other.key, sentence), 'another account hears the English verb');
  });

  it('bills the text as written', async () => {
    const before = await fixture.balanceOf(owner.accountId);
    await stream(owner.key, `${'Uwase '.repeat(16)}.`);
    const after = await fixture.balanceOf(owner.accountId);
    assert.equal(
      before.balance - after.balance,
      1,
      '97 characters as written: 1 token, whatever the respelling adds',
    );
  });
});
