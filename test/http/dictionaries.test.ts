import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { IJWI_PLS_NAMESPACE, PLS_MEDIA_TYPE } from '../../src/accounts/pls.ts';
import type { EnginePool } from '../../src/speech/pool/engine-pool.ts';
import { describeEachDatabase } from '../helpers/databases.ts';
import { LiveClient } from '../helpers/live-client.ts';
import {
  buildTtsTestApp,
  expectError,
  listenOnLoopback,
  startTestPool,
  type TestAccount,
  type TtsFixture,
} from '../helpers/tts-fixture.ts';

// Pronunciation dictionaries through the public API, on each database: created, versioned, named
// per request on every path (file, stream, OpenAI-compatible, live context), in order, and never
// another account's. Synthesis is deterministic, so "said its way" is checked byte for byte
// against the same sentence respelled, and "unchanged" byte for byte against the plain sentence.

let pool: EnginePool;
before(async () => {
  pool = await startTestPool();
});
after(async () => {
  await pool.close();
});

const SENTENCE = 'Please ask Mugabo at the desk.';
const said = (name: string) => `Please ask ${name} at the desk.`;

describeEachDatabase('pronunciation dictionaries API', (context) => {
  let fixture: TtsFixture;
  let base: string;
  let owner: TestAccount;
  let other: TestAccount;

  before(async () => {
    fixture = await buildTtsTestApp({ pool: () => pool, database: context.source });
    base = await listenOnLoopback(fixture.app);
    owner = await fixture.newPayingAccount({ topUp: 1000, keys: 3 });
    other = await fixture.newPayingAccount({ topUp: 1000, keys: 3 });
  });
  after(async () => {
    await fixture?.close();
  });

  let turn = 0;
  // Round-robin over the account's keys: the suite makes more requests than one key's minute allows.
  const keyOf = (account: TestAccount) => account.keys[turn++ % account.keys.length] as string;

  const api = (
    account: TestAccount | undefined,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    body?: unknown,
    contentType = 'application/json',
  ): Promise<LightMyRequestResponse> =>
    fixture.app.inject({
      method,
      url,
      headers: {
        ...(account ? { authorization: `Bearer ${keyOf(account)}` } : {}),
        ...(body === undefined ? {} : { 'content-type': contentType }),
      },
      ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
    });

  const entry = (phrase: string, says: string, extra: Record<string, unknown> = {}) => ({
    language: 'en',
    phrase,
    kind: 'respelling',
    says,
    ...extra,
  });

  const create = async (account: TestAccount, name: string, entries: unknown[]) => {
    const response = await api(account, 'POST', '/api/v1/dictionaries', { name, entries });
    assert.equal(response.statusCode, 201, response.body);
    return response.json() as { id: string; version: number; entry_count: number; default: boolean };
  };

  const stream = async (account: TestAccount, input: string, dictionaries?: unknown) => {
    const response = await api(account, 'POST', '/api/v1/tts-stream.php', {
      input,
      language: 'en',
      speaker_id: 2,
      format: 'mulaw_8k',
      ...(dictionaries === undefined ? {} : { dictionaries }),
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.rawPayload;
  };

  it('creates, lists, reads, versions, renames and deletes dictionaries', async () => {
    const account = await fixture.newAccount();
    const created = await create(account, 'Clinic', [entry('Mugabo', 'moo gah boh')]);
    assert.match(created.id, /^dict_[0-9A-Za-z]{20}$/);
    assert.deepEqual([created.version, created.entry_count, created.default], [1, 1, false]);

    const listed = (await api(account, 'GET', '/api/v1/dictionaries')).json().dictionaries;
    assert.deepEqual(
      listed.map((d: { name: string; default: boolean }) => [d.name, d.default]),
      [
        ['default', true],
        ['Clinic', false],
      ],
      'the default dictionary is listed first, before its first entry',
    );

    const added = await api(account, 'POST', `/api/v1/dictionaries/${created.id}/entries`, {
      entries: [
        entry('Uwase', 'oo wah seh', { word_language: null }),
        entry('Nyanza', 'njanza', { kind: 'ipa' }),
      ],
    });
    assert.equal(added.statusCode, 200, added.body);
    assert.deepEqual([added.json().version, added.json().entry_count], [2, 3]);
    const removed = await api(account, 'POST', `/api/v1/dictionaries/${created.id}/entries/remove`, {
      entries: [{ language: 'en', phrase: 'MUGABO' }],
    });
    assert.deepEqual([removed.json().version, removed.json().entry_count], [3, 2]);

    const phrases = async (query = '') => {
      const read = await api(account, 'GET', `/api/v1/dictionaries/${created.id}${query}`);
      assert.equal(read.statusCode, 200, read.body);
      return read.json().entries.map((e: { phrase: string }) => e.phrase);
    };
    assert.deepEqual(await phrases(), ['Uwase', 'Nyanza']);
    assert.deepEqual(await phrases('?version=1'), ['Mugabo'], 'an older version stays readable');
    assert.deepEqual(await phrases('?version=2'), ['Mugabo', 'Uwase', 'Nyanza']);
    expectError(
      await api(account, 'GET', `/api/v1/dictionaries/${created.id}?version=4`),
      404,
      'not_found',
      'version',
    );

    const replaced = await api(account, 'PUT', `/api/v1/dictionaries/${created.id}`, {
      name: 'Clinic, Kigali',
      entries: [entry('Gisozi', 'ghee so zee')],
    });
    assert.deepEqual(
      [replaced.json().name, replaced.json().version, replaced.json().entry_count],
      ['Clinic, Kigali', 4, 1],
    );
    assert.deepEqual(await phrases(), ['Gisozi']);

    const deleted = await api(account, 'DELETE', `/api/v1/dictionaries/${created.id}`);
    assert.equal(deleted.statusCode, 204);
    expectError(await api(account, 'GET', `/api/v1/dictionaries/${created.id}`), 404, 'not_found');
    const defaultId = listed[0].id;
    expectError(await api(account, 'DELETE', `/api/v1/dictionaries/${defaultId}`), 400, 'invalid_request');
  });

  it('refuses entries it cannot store or say, naming the entry, and stores nothing', async () => {
    const account = await fixture.newAccount();
    const refused = async (entries: unknown[], param: string) =>
      expectError(
        await api(account, 'POST', '/api/v1/dictionaries', { name: 'Bad', entries }),
        400,
        'invalid_request',
        param,
      );
    await refused([entry('Mugabo', 'moo'), entry('Nyanza', 'ʘʘ', { kind: 'ipa' })], 'entries[1].says');
    await refused([entry('Mugabo', 'moo'), entry('mugabo', 'mo')], 'entries[1].phrase');
    await refused([entry('Mugabo', 'moo', { colour: 'red' })], 'entries[0]');
    await refused([{ ...entry('Mugabo', 'moo'), language: 'sw' }], 'entries[0].language');
    expectError(
      await api(account, 'POST', '/api/v1/dictionaries', { entries: [] }),
      400,
      'invalid_request',
      'name',
    );
    const listed = (await api(account, 'GET', '/api/v1/dictionaries')).json().dictionaries;
    assert.equal(listed.length, 1, 'only the default dictionary');
    const created = await create(account, 'Good', [entry('Mugabo', 'moo')]);
    const twice = await api(account, 'POST', `/api/v1/dictionaries/${created.id}/entries`, {
      entries: [entry('Uwase', 'oo wah seh'), entry('MUGABO', 'mo')],
    });
    expectError(twice, 400, 'invalid_request', 'entries');
    const after = (await api(account, 'GET', `/api/v1/dictionaries/${created.id}`)).json();
    assert.deepEqual([after.version, after.entry_count], [1, 1], 'a refused change makes no version');
    expectError(await api(undefined, 'GET', '/api/v1/dictionaries'), 401, 'invalid_api_key');
  });

  it('never shows, changes or speaks with another account’s dictionary, whatever id is sent', async () => {
    const theirs = await create(other, 'Theirs', [entry('Mugabo', 'moo gah boh')]);
    const url = `/api/v1/dictionaries/${theirs.id}`;
    expectError(await api(owner, 'GET', url), 404, 'not_found');
    expectError(await api(owner, 'GET', `${url}/pls`), 404, 'not_found');
    expectError(await api(owner, 'PUT', url, { entries: [] }), 404, 'not_found');
    expectError(await api(owner, 'DELETE', url), 404, 'not_found');
    expectError(await api(owner, 'POST', `${url}/entries`, { entries: [entry('A', 'b')] }), 404, 'not_found');
    expectError(
      await api(owner, 'POST', `${url}/entries/remove`, { entries: [{ language: 'en', phrase: 'Mugabo' }] }),
      404,
      'not_found',
    );
    expectError(await api(owner, 'GET', '/api/v1/dictionaries/dict_..%2F..%2Fx'), 404, 'not_found');
    // Their default dictionary's id is as foreign as any other.
    const theirDefault = (await api(other, 'GET', '/api/v1/dictionaries')).json().dictionaries[0].id;
    expectError(await api(owner, 'GET', `/api/v1/dictionaries/${theirDefault}`), 404, 'not_found');

    const balance = await fixture.balanceOf(owner.accountId);
    const ledger = (await fixture.ledgerOf(owner.accountId)).length;
    for (const [path, body] of [
      ['/api/v1/tts-stream.php', { input: SENTENCE, language: 'en', format: 'mulaw_8k' }],
      ['/api/v1/tts.php', { input: SENTENCE, language: 'en' }],
      ['/v1/audio/speech', { model: 'tts-1', input: SENTENCE, voice: 'alloy', response_format: 'pcm' }],
    ] as const) {
      const refused = await api(owner, 'POST', path, { ...body, dictionaries: [{ id: theirs.id }] });
      expectError(refused, 404, 'not_found', 'dictionaries[0].id');
    }
    assert.deepEqual(await fixture.balanceOf(owner.accountId), balance, 'nothing charged');
    assert.equal((await fixture.ledgerOf(owner.accountId)).length, ledger);
    assert.equal((await api(other, 'GET', url)).json().entry_count, 1, 'and nothing changed');
  });

  it('speaks with the dictionaries a request names, in order, at the version named', async () => {
    const a = await create(owner, 'Clinic A', [entry('Mugabo', 'moo gah boh')]);
    const b = await create(owner, 'Clinic B', [entry('Mugabo', 'mew gay bow'), entry('Uwase', 'oo wah seh')]);
    const plain = await stream(other, SENTENCE);
    assert.deepEqual(
      await stream(owner, SENTENCE),
      plain,
      'without a selection: the (empty) default, byte for byte',
    );
    assert.deepEqual(await stream(owner, SENTENCE, []), plain, 'an empty selection is none');
    const asA = await stream(other, said('moo gah boh'));
    const asB = await stream(other, said('mew gay bow'));
    assert.notDeepEqual(asA, plain);
    assert.deepEqual(await stream(owner, SENTENCE, [{ id: a.id }]), asA);
    assert.deepEqual(await stream(owner, SENTENCE, [{ id: b.id }]), asB);
    assert.deepEqual(
      await stream(owner, SENTENCE, [{ id: a.id }, { id: b.id }]),
      asA,
      'the first that holds it wins',
    );
    assert.deepEqual(await stream(owner, SENTENCE, [{ id: b.id }, { id: a.id }]), asB);
    // A phrase only the second holds is still said its way.
    assert.deepEqual(
      await stream(owner, 'Ask Mugabo and Uwase.', [{ id: a.id }, { id: b.id }]),
      await stream(other, 'Ask moo gah boh and oo wah seh.'),
    );

    const changed = await api(owner, 'PUT', `/api/v1/dictionaries/${a.id}`, {
      entries: [entry('Mugabo', 'mug a bow')],
    });
    assert.equal(changed.json().version, 2);
    assert.deepEqual(await stream(owner, SENTENCE, [{ id: a.id }]), await stream(other, said('mug a bow')));
    assert.deepEqual(await stream(owner, SENTENCE, [{ id: a.id, version: 1 }]), asA, 'version 1 as it was');
    expectError(
      await api(owner, 'POST', '/api/v1/tts-stream.php', {
        input: SENTENCE,
        language: 'en',
        dictionaries: [{ id: a.id, version: 3 }],
      }),
      404,
      'not_found',
      'dictionaries[0].version',
    );
    for (const [dictionaries, param] of [
      [[{ id: a.id }, { id: b.id }, { id: a.id }], 'dictionaries[2].id'],
      [[{ id: a.id }, { id: b.id }, { id: 'dict_x' }, { id: 'dict_y' }], 'dictionaries'],
      [[{ id: 'Mugabo' }], 'dictionaries[0].id'],
      [[{ id: a.id, version: -1 }], 'dictionaries[0].version'],
      ['dict_x', 'dictionaries'],
    ] as const) {
      const refused = await api(owner, 'POST', '/api/v1/tts-stream.php', {
        input: SENTENCE,
        language: 'en',
        dictionaries,
      });
      expectError(refused, 400, 'invalid_request', param);
    }
  });

  it('speaks the default dictionary, today’s lexicon, when a request names none, and only the named ones otherwise', async () => {
    const account = await fixture.newPayingAccount({ topUp: 1000, keys: 3 });
    assert.ok((await fixture.lexicons.add(account.accountId, entry('Mugabo', 'moo gah boh'))).ok);
    const asDefault = await stream(other, said('moo gah boh'));
    assert.deepEqual(await stream(account, SENTENCE), asDefault, 'the dashboard’s lexicon, as before');
    const listed = (await api(account, 'GET', '/api/v1/dictionaries')).json().dictionaries;
    assert.deepEqual([listed[0].default, listed[0].entry_count, listed[0].version], [true, 1, 1]);
    const named = await create(account, 'Hotel', [entry('Uwase', 'oo wah seh')]);
    assert.deepEqual(await stream(account, SENTENCE, [{ id: named.id }]), await stream(other, SENTENCE));
    assert.deepEqual(await stream(account, SENTENCE, [{ id: named.id }, { id: listed[0].id }]), asDefault);
    // The default dictionary edited through the API is the dashboard's lexicon.
    await api(account, 'POST', `/api/v1/dictionaries/${listed[0].id}/entries`, {
      entries: [entry('Gisozi', 'ghee so zee')],
    });
    assert.deepEqual(
      (await fixture.lexicons.list(account.accountId)).map((e) => e.phrase),
      ['Mugabo', 'Gisozi'],
    );
  });

  it('names dictionaries on the file endpoint, a playable URL, the OpenAI-compatible one and a live context', async () => {
    const clinic = await create(owner, 'Clinic C', [entry('Mugabo', 'moo gah boh')]);
    const selection = [{ id: clinic.id }];

    const file = async (account: TestAccount, input: string, dictionaries?: unknown) => {
      const response = await api(account, 'POST', '/api/v1/tts.php', {
        input,
        language: 'en',
        speaker_id: 2,
        dictionaries,
      });
      assert.equal(response.statusCode, 200, response.body);
      const audio = await fixture.app.inject({
        method: 'GET',
        url: new URL(response.json().output_url).pathname,
      });
      return audio.rawPayload;
    };
    assert.deepEqual(await file(owner, SENTENCE, selection), await file(other, said('moo gah boh')));
    assert.notDeepEqual(await file(owner, SENTENCE, selection), await file(owner, SENTENCE));

    // A playable URL speaks, at its first fetch, with the dictionaries its request named.
    const played = async (account: TestAccount, input: string, dictionaries?: unknown) => {
      const response = await api(account, 'POST', '/api/v1/tts-url.php', {
        input,
        language: 'en',
        speaker_id: 2,
        dictionaries,
      });
      assert.equal(response.statusCode, 200, response.body);
      const url = new URL(response.json().play_url);
      const audio = await fixture.app.inject({ method: 'GET', url: url.pathname });
      assert.equal(audio.statusCode, 200, audio.body);
      return audio.rawPayload;
    };
    assert.deepEqual(await played(owner, SENTENCE, selection), await played(other, said('moo gah boh')));
    expectError(
      await api(other, 'POST', '/api/v1/tts-url.php', {
        input: SENTENCE,
        language: 'en',
        dictionaries: selection,
      }),
      404,
      'not_found',
      'dictionaries[0].id',
    );

    const openAi = async (account: TestAccount, input: string, dictionaries?: unknown) => {
      const response = await api(account, 'POST', '/v1/audio/speech', {
        model: 'tts-1',
        input,
        voice: 'alloy',
        response_format: 'pcm',
        dictionaries,
      });
      assert.equal(response.statusCode, 200, response.body);
      return response.rawPayload;
    };
    assert.deepEqual(await openAi(owner, SENTENCE, selection), await openAi(other, said('moo gah boh')));

    const live = async (account: TestAccount, text: string, dictionaries?: unknown) => {
      const client = await LiveClient.connect(base, { authorization: `Bearer ${keyOf(account)}` });
      try {
        client.send({
          type: 'text',
          context_id: 'c',
          text,
          language: 'en',
          speaker_id: 2,
          format: 'mulaw_8k',
          dictionaries,
        });
        client.send({ type: 'end', context_id: 'c' });
        const ended = await client.ended('c');
        return { ended, audio: client.audio('c') };
      } finally {
        client.close();
      }
    };
    const mine = await live(owner, SENTENCE, selection);
    assert.equal(mine.ended.type, 'done', JSON.stringify(mine.ended));
    assert.deepEqual(mine.audio, (await live(other, said('moo gah boh'))).audio);
    const foreign = await live(other, SENTENCE, selection);
    assert.equal(foreign.ended.type, 'error');
    assert.deepEqual([foreign.ended.code, foreign.ended.param], ['not_found', 'dictionaries[0].id']);
    assert.equal(foreign.audio.length, 0);
  });

  it('imports and exports W3C PLS files, which round-trip, and replaces one language from a file', async () => {
    const account = await fixture.newAccount();
    const pls = `<?xml version="1.0" encoding="UTF-8"?>
<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon"
    xmlns:ijwi="${IJWI_PLS_NAMESPACE}" alphabet="ipa" xml:lang="en-GB">
  <lexeme ijwi:word-language="rw"><grapheme>Mugabo</grapheme><alias>Mugabo</alias></lexeme>
  <lexeme><grapheme>W3C</grapheme><alias>World Wide Web Consortium</alias></lexeme>
  <lexeme><grapheme>Nyanza</grapheme><phoneme>njanza</phoneme></lexeme>
</lexicon>`;
    const imported = await api(account, 'POST', '/api/v1/dictionaries?name=Imported', pls, PLS_MEDIA_TYPE);
    assert.equal(imported.statusCode, 201, imported.body);
    const { id } = imported.json();
    assert.deepEqual([imported.json().version, imported.json().entry_count], [1, 3]);
    const exported = await api(account, 'GET', `/api/v1/dictionaries/${id}/pls`);
    assert.equal(exported.statusCode, 200, exported.body);
    assert.match(String(exported.headers['content-type']), /^application\/pls\+xml/);
    const again = await api(
      account,
      'POST',
      '/api/v1/dictionaries?name=Again',
      exported.body,
      PLS_MEDIA_TYPE,
    );
    assert.equal(again.statusCode, 201, again.body);
    const entriesOf = async (dictionary: string) =>
      (await api(account, 'GET', `/api/v1/dictionaries/${dictionary}`))
        .json()
        .entries.map((e: Record<string, unknown>) => [e.language, e.phrase, e.kind, e.says, e.word_language]);
    const first = await entriesOf(id);
    assert.deepEqual(first, [
      ['en', 'Mugabo', 'respelling', 'Mugabo', 'rw'],
      ['en', 'W3C', 'respelling', 'World Wide Web Consortium', null],
      ['en', 'Nyanza', 'ipa', 'njanza', null],
    ]);
    assert.deepEqual(await entriesOf(again.json().id), first, 'export then import gives the same entries');

    // A French file replaces the French entries only.
    await api(account, 'POST', `/api/v1/dictionaries/${id}/entries`, {
      entries: [{ language: 'fr', phrase: 'Gisozi', kind: 'respelling', says: 'guisozi' }],
    });
    const french = `<?xml version="1.0"?>
<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa" xml:lang="fr">
  <lexeme><grapheme>Kigali</grapheme><alias>kigali</alias></lexeme>
</lexicon>`;
    const replaced = await api(account, 'PUT', `/api/v1/dictionaries/${id}`, french, PLS_MEDIA_TYPE);
    assert.equal(replaced.statusCode, 200, replaced.body);
    assert.deepEqual(
      (await entriesOf(id)).map((e: unknown[]) => e[1]),
      ['Mugabo', 'W3C', 'Nyanza', 'Kigali'],
    );
    expectError(
      await api(account, 'GET', `/api/v1/dictionaries/${id}/pls`),
      400,
      'invalid_request',
      'language',
    );
    const frenchOut = await api(account, 'GET', `/api/v1/dictionaries/${id}/pls?language=fr&version=2`);
    assert.match(frenchOut.body, /<grapheme>Gisozi<\/grapheme>/, 'version 2 still had Gisozi');
  });

  it('refuses hostile or wrong PLS files with a clear 4xx naming the line, and stores nothing', async () => {
    const account = await fixture.newAccount();
    const target = await create(account, 'Target', [entry('Mugabo', 'moo gah boh')]);
    const lexicon = (body: string, lang = 'en') =>
      `<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa" xml:lang="${lang}">\n${body}</lexicon>`;
    const laughs = `<?xml version="1.0"?>
<!DOCTYPE lexicon [
  <!ENTITY lol "lol">
  <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
  <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
  <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
  <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
  <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
  <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
  <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
${lexicon('<lexeme><grapheme>lol</grapheme><alias>&lol9;</alias></lexeme>\n')}`;
    const external = `<?xml version="1.0"?>
<!DOCTYPE lexicon [ <!ENTITY x SYSTEM "file:///etc/passwd"> ]>
${lexicon('<lexeme><grapheme>x</grapheme><alias>&x;</alias></lexeme>\n')}`;
    const lexemes = (n: number) =>
      lexicon(
        Array.from(
          { length: n },
          (_, i) => `<lexeme><grapheme>w${i}</grapheme><alias>a</alias></lexeme>\n`,
        ).join(''),
      );
    const badIpa = lexicon(
      '<lexeme><grapheme>ok</grapheme><alias>fine</alias></lexeme>\n<lexeme>\n<grapheme>Nyanza</grapheme><phoneme>ʘʘ</phoneme></lexeme>\n',
    );
    const tenMegabytes = lexicon(`<!-- ${'x'.repeat(10 * 1024 * 1024)} -->\n`);
    const cases: [string, string, number, string, RegExp][] = [
      ['billion laughs', laughs, 400, 'invalid_request', /^line 2: a DOCTYPE is not allowed/],
      ['external entity', external, 400, 'invalid_request', /^line 2: a DOCTYPE is not allowed/],
      ['bad IPA', badIpa, 400, 'invalid_request', /^line 3: the \w+ voice cannot say "ʘ"/],
      [
        '1,001 lexemes',
        lexemes(1001),
        400,
        'invalid_request',
        /^line 1002: a PLS file has at most 1000 lexemes/,
      ],
      ['100,000 lexemes', lexemes(100_000), 413, 'body_too_large', /1048576 bytes/],
      ['10 MB', tenMegabytes, 413, 'body_too_large', /1048576 bytes/],
    ];
    for (const [what, body, status, code, message] of cases) {
      for (const [method, url] of [
        ['POST', '/api/v1/dictionaries?name=Hostile'],
        ['PUT', `/api/v1/dictionaries/${target.id}`],
      ] as const) {
        const refused = expectError(await api(account, method, url, body, PLS_MEDIA_TYPE), status, code);
        assert.match(refused.message, message, `${what} on ${method}`);
      }
    }
    const listed = (await api(account, 'GET', '/api/v1/dictionaries')).json().dictionaries;
    assert.deepEqual(
      listed.map((d: { name: string; version: number }) => [d.name, d.version]),
      [
        ['default', 0],
        ['Target', 1],
      ],
      'nothing stored, no version made',
    );
    expectError(
      await api(account, 'POST', '/api/v1/dictionaries', lexemes(1), PLS_MEDIA_TYPE),
      400,
      'invalid_request',
      'name',
    );
  });
});
