import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LiveClient, type LiveMessage } from '../../../helpers/live-client.ts';
import { collect } from '../../../helpers/streams.ts';
import { loadTestClient, missingTestClient } from '../../../helpers/test-clients.ts';
import { type TestAccount, withTtsApp } from '../../../helpers/tts-fixture.ts';

// ElevenLabs' pronunciation dictionaries, driven by ElevenLabs' own JS SDK: made from rules and
// from a PLS file, listed, read, downloaded, and named by `pronunciation_dictionary_locators` on
// text-to-speech (the audio byte for byte as the respelling says it) and on a WebSocket's first
// message; another account's dictionary is not found, and nothing is charged for it.

const SDK = '@elevenlabs/elevenlabs-js';
const SENTENCE = 'Please ask Mugabo at the desk.';
const RESPELLED = 'Please ask moo gah boh at the desk.';

interface SdkError extends Error {
  readonly statusCode?: number;
}
interface Locator {
  pronunciationDictionaryId: string;
  versionId?: string;
}
interface Added {
  id: string;
  name: string;
  versionId: string;
  versionRulesNum: number;
  createdBy: string;
  creationTimeUnix: number;
}
interface Metadata {
  id: string;
  name: string;
  latestVersionId: string;
  latestVersionRulesNum: number;
}
interface Rule {
  type: 'alias' | 'phoneme';
  stringToReplace: string;
  alias?: string;
  phoneme?: string;
  alphabet?: string;
}
interface ElevenLabsClient {
  readonly textToSpeech: {
    convert(
      voiceId: string,
      request: { text: string; outputFormat?: string; pronunciationDictionaryLocators?: Locator[] },
    ): Promise<ReadableStream<Uint8Array>>;
  };
  readonly pronunciationDictionaries: {
    createFromRules(request: { name: string; rules: Rule[] }): Promise<Added>;
    createFromFile(request: { name: string; file: Blob }): Promise<Added>;
    get(id: string): Promise<Metadata & { rules: Rule[] }>;
    list(request?: { pageSize?: number; cursor?: string }): Promise<{
      pronunciationDictionaries: Metadata[];
      hasMore: boolean;
      nextCursor?: string;
    }>;
    download(id: string, versionId: string): Promise<ReadableStream<Uint8Array>>;
    readonly rules: {
      add(
        id: string,
        request: { rules: Rule[] },
      ): Promise<{ id: string; versionId: string; versionRulesNum: number }>;
      remove(
        id: string,
        request: { ruleStrings: string[] },
      ): Promise<{ id: string; versionId: string; versionRulesNum: number }>;
    };
  };
}
interface ElevenLabsModule {
  readonly ElevenLabsClient: new (options: {
    apiKey: string;
    baseUrl: string;
    maxRetries: number;
  }) => ElevenLabsClient;
  readonly ElevenLabsError: new (...args: never[]) => SdkError;
}

describe('ElevenLabs-compatible pronunciation dictionaries, through the official JS SDK', {
  skip: missingTestClient(SDK),
}, () => {
  const suite = withTtsApp({ listen: true });
  const client = (account: TestAccount) => {
    const sdk = loadTestClient(SDK) as ElevenLabsModule;
    return new sdk.ElevenLabsClient({
      apiKey: account.key,
      baseUrl: `${suite.base}/elevenlabs`,
      maxRetries: 0,
    });
  };
  const refusal = async (call: () => Promise<unknown>): Promise<SdkError> => {
    const sdk = loadTestClient(SDK) as ElevenLabsModule;
    try {
      await call();
    } catch (error) {
      assert.ok(error instanceof sdk.ElevenLabsError, `expected the SDK's error, got ${String(error)}`);
      return error;
    }
    assert.fail('the call succeeded');
  };
  const speak = async (account: TestAccount, text: string, locators?: Locator[]) =>
    collect(
      await client(account).textToSpeech.convert('grace', {
        text,
        outputFormat: 'pcm_16000',
        ...(locators ? { pronunciationDictionaryLocators: locators } : {}),
      }),
    );

  it('makes a dictionary from rules and speaks it where a request locates it, at the version located', async () => {
    const owner = await suite.fixture.newPayingAccount({ topUp: 1000 });
    const other = await suite.fixture.newPayingAccount({ topUp: 1000 });
    const dictionaries = client(owner).pronunciationDictionaries;
    const added = await dictionaries.createFromRules({
      name: 'Clinic',
      rules: [{ type: 'alias', stringToReplace: 'Mugabo', alias: 'moo gah boh' }],
    });
    assert.match(added.id, /^dict_/);
    assert.deepEqual([added.name, added.versionId, added.versionRulesNum], ['Clinic', '1', 1]);
    const locator = { pronunciationDictionaryId: added.id, versionId: added.versionId };
    const plain = await speak(other, SENTENCE);
    assert.deepEqual(await speak(owner, SENTENCE), plain, 'no locator: unchanged, byte for byte');
    assert.deepEqual(await speak(owner, SENTENCE, [locator]), await speak(other, RESPELLED));

    const changed = await dictionaries.rules.add(added.id, {
      rules: [{ type: 'phoneme', stringToReplace: 'Nyanza', phoneme: 'njanza', alphabet: 'ipa' }],
    });
    assert.deepEqual([changed.versionId, changed.versionRulesNum], ['2', 2]);
    const removed = await dictionaries.rules.remove(added.id, { ruleStrings: ['Mugabo'] });
    assert.deepEqual([removed.versionId, removed.versionRulesNum], ['3', 1]);
    assert.deepEqual(
      await speak(owner, SENTENCE, [{ pronunciationDictionaryId: added.id }]),
      plain,
      'latest',
    );
    assert.deepEqual(await speak(owner, SENTENCE, [locator]), await speak(other, RESPELLED), 'version 1');

    const read = await dictionaries.get(added.id);
    assert.equal(read.latestVersionId, '3');
    assert.deepEqual(
      read.rules.map((r) => [r.type, r.stringToReplace, r.phoneme, r.alphabet]),
      [['phoneme', 'Nyanza', 'njanza', 'ipa']],
      'a rule kept for several languages is listed once',
    );
    const pls = (await collect(await dictionaries.download(added.id, '1'))).toString('utf8');
    assert.match(pls, /<grapheme>Mugabo<\/grapheme>\s*<alias>moo gah boh<\/alias>/);

    const refused = await refusal(() =>
      dictionaries.createFromRules({
        name: 'Bad',
        rules: [{ type: 'phoneme', stringToReplace: 'x', phoneme: 'HH AH', alphabet: 'cmu-arpabet' }],
      }),
    );
    assert.equal(refused.statusCode, 422);
  });

  it('makes a dictionary from a PLS file, lists it, and refuses another account’s on every request', async () => {
    const owner = await suite.fixture.newPayingAccount({ topUp: 1000 });
    const other = await suite.fixture.newPayingAccount({ topUp: 1000 });
    const pls = `<?xml version="1.0" encoding="UTF-8"?>
<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa" xml:lang="en-US">
  <lexeme><grapheme>Mugabo</grapheme><alias>moo gah boh</alias></lexeme>
</lexicon>`;
    const added = await client(owner).pronunciationDictionaries.createFromFile({
      name: 'From file',
      file: new Blob([pls], { type: 'application/pls+xml' }),
    });
    assert.deepEqual([added.versionId, added.versionRulesNum], ['1', 1]);
    const listed = await client(owner).pronunciationDictionaries.list();
    assert.deepEqual(
      listed.pronunciationDictionaries.map((d) => d.name),
      ['default', 'From file'],
    );
    assert.equal(listed.hasMore, false);
    const firstPage = await client(owner).pronunciationDictionaries.list({ pageSize: 1 });
    assert.deepEqual([firstPage.pronunciationDictionaries.length, firstPage.hasMore], [1, true]);
    const next = await client(owner).pronunciationDictionaries.list({
      pageSize: 1,
      cursor: firstPage.nextCursor,
    });
    assert.deepEqual(
      next.pronunciationDictionaries.map((d) => d.id),
      [added.id],
    );
    assert.deepEqual(
      await speak(owner, SENTENCE, [{ pronunciationDictionaryId: added.id }]),
      await speak(other, RESPELLED),
    );

    const bad = `<?xml version="1.0"?>\n<!DOCTYPE lexicon [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<lexicon/>`;
    const hostile = await refusal(() =>
      client(owner).pronunciationDictionaries.createFromFile({ name: 'Hostile', file: new Blob([bad]) }),
    );
    assert.equal(hostile.statusCode, 422);
    assert.match(hostile.message, /line 2: a DOCTYPE is not allowed/);

    const balance = await suite.fixture.balanceOf(other.accountId);
    assert.equal(
      (await refusal(() => client(other).pronunciationDictionaries.get(added.id))).statusCode,
      404,
    );
    assert.equal(
      (await refusal(() => client(other).pronunciationDictionaries.download(added.id, '1'))).statusCode,
      404,
    );
    assert.equal(
      (await refusal(() => speak(other, SENTENCE, [{ pronunciationDictionaryId: added.id }]))).statusCode,
      404,
    );
    assert.deepEqual(await suite.fixture.balanceOf(other.accountId), balance, 'nothing charged');
  });

  it('speaks the dictionaries located in a WebSocket’s first message', async () => {
    const owner = await suite.fixture.newPayingAccount({ topUp: 1000 });
    const other = await suite.fixture.newPayingAccount({ topUp: 1000 });
    const added = await client(owner).pronunciationDictionaries.createFromRules({
      name: 'Socket',
      rules: [{ type: 'alias', stringToReplace: 'Mugabo', alias: 'moo gah boh' }],
    });
    const socket = async (account: TestAccount, text: string, locators?: unknown) => {
      const live = await LiveClient.connect(
        suite.base,
        { 'xi-api-key': account.key },
        '/elevenlabs/v1/text-to-speech/grace/stream-input?output_format=pcm_16000',
      );
      live.send({ text: ' ', ...(locators ? { pronunciation_dictionary_locators: locators } : {}) });
      live.send({ text, flush: true });
      live.send({ text: '' });
      await live.closed;
      return Buffer.concat(
        live.messages
          .map((m) => m.message as LiveMessage & { audio?: string })
          .filter((m) => typeof m.audio === 'string')
          .map((m) => Buffer.from(m.audio as string, 'base64')),
      );
    };
    const mine = await socket(owner, SENTENCE, [{ pronunciation_dictionary_id: added.id, version_id: '1' }]);
    assert.ok(mine.byteLength > 16_000);
    assert.deepEqual(mine, await socket(other, RESPELLED));
  });
});
