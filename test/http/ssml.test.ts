import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { FREE_MAX_SECONDS } from '../../src/accounts/billing.ts';
import { SSML_EXAMPLE } from '../../src/http/schemas/speech-body.ts';
import { MAX_SECONDS_PER_CHARACTER } from '../../src/speech/audio-bound.ts';
import type { EnginePool } from '../../src/speech/pool/engine-pool.ts';
import { codePointCount } from '../../src/unicode.ts';
import {
  buildTtsTestApp,
  expectError,
  rotate,
  startTestPool,
  type TtsFixture,
  withKey,
} from '../helpers/tts-fixture.ts';

const FILE = '/api/v1/tts.php';
const STREAM = '/api/v1/tts-stream.php';

// SSML through the public endpoints: every element of the spec's table changes the audio as it
// says, billing counts the spoken text, and every kind of error is a 400 `invalid_ssml` naming
// the element, line and column.

describe('SSML on the TTS endpoints', () => {
  let pool: EnginePool;
  let fixture: TtsFixture;
  let key: () => string;

  before(async () => {
    pool = await startTestPool();
    fixture = await buildTtsTestApp({ pool: () => pool });
    // Many keys: the tests make more requests than one key may in a minute.
    key = rotate((await fixture.newPayingAccount({ keys: 10, topUp: 10_000 })).keys);
  });
  after(async () => {
    await fixture.close();
    await pool.close();
  });

  const post = (url: string, payload: Record<string, unknown>) =>
    fixture.app.inject({ method: 'POST', url, headers: withKey(key()), payload });
  const ssml = (input: string, language = 'en', url = FILE, speakerId?: number) =>
    post(url, {
      input,
      language,
      text_type: 'ssml',
      ...(speakerId === undefined ? {} : { speaker_id: speakerId }),
    });
  const file = (response: LightMyRequestResponse): { seconds: number; tokens: number } => {
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json();
    return { seconds: body.seconds, tokens: body.billing.tokens_charged };
  };

  describe('happy', () => {
    it('speaks the telephony example of the docs: a number by digits, a pause, a name by sub', async () => {
      const { seconds } = file(await ssml(SSML_EXAMPLE));
      assert.ok(seconds > 5 && seconds < 20, `${seconds} s`);
      const stream = await ssml(SSML_EXAMPLE, 'en', STREAM);
      assert.equal(stream.statusCode, 200);
      assert.ok(stream.rawPayload.byteLength > 0);
    });

    it('pauses for a break as long as written, and for each strength', async () => {
      const plain = file(await ssml('<speak>Please hold. Thank you.</speak>')).seconds;
      const paused = file(await ssml('<speak>Please hold.<break time="1500ms"/>Thank you.</speak>')).seconds;
      assert.ok(Math.abs(paused - plain - 1.5) < 0.25, `${paused} s against ${plain} s`);
      const seconds = async (strength: string) =>
        file(await ssml(`<speak>Please hold.<break strength="${strength}"/>Thank you.</speak>`)).seconds;
      assert.ok((await seconds('x-strong')) > (await seconds('weak')) + 0.5);
    });

    it('reads say-as digits, characters, cardinal, ordinal, date, time and currency in every language', async () => {
      const cases = [
        ['digits', '1984'],
        ['characters', 'ABC'],
        ['cardinal', '1984'],
        ['ordinal', '3'],
        ['telephone', '0788 123 456'],
        ['time', '14:30'],
        ['currency', '1500 RWF'],
      ] as const;
      for (const language of ['en', 'fr', 'rw']) {
        for (const [as, text] of cases) {
          const { seconds } = file(
            await ssml(`<speak><say-as interpret-as="${as}">${text}</say-as></speak>`, language),
          );
          assert.ok(seconds > 0.2, `${language} ${as}: ${seconds} s`);
        }
        const date = file(
          await ssml('<speak><say-as interpret-as="date" format="mdy">05/12/2026</say-as></speak>', language),
        );
        assert.ok(date.seconds > 0.5, `${language} date`);
      }
      // Digit by digit takes longer than the number read as one.
      const digits = file(await ssml('<speak><say-as interpret-as="digits">1984</say-as></speak>')).seconds;
      const cardinal = file(
        await ssml('<speak><say-as interpret-as="cardinal">1984</say-as></speak>'),
      ).seconds;
      assert.notEqual(digits, cardinal);
    });

    it('speaks prosody rates slower and faster than the voice', async () => {
      const text = 'Your appointment is confirmed for tomorrow morning at the clinic.';
      const at = async (rate: string) =>
        file(await ssml(`<speak><prosody rate="${rate}">${text}</prosody></speak>`)).seconds;
      const [slow, own, fast] = [await at('x-slow'), await at('medium'), await at('150%')];
      assert.ok(slow > own * 1.5 && fast < own * 0.8, `${slow} / ${own} / ${fast}`);
    });

    it('speaks IPA given in phoneme, and refuses a symbol the voice cannot say', async () => {
      // Amani: an espeak-ng voice, which speaks IPA.
      const { seconds } = file(
        await ssml('<speak><phoneme alphabet="ipa" ph="həˈloʊ">hello</phoneme></speak>', 'en', FILE, 3),
      );
      assert.ok(seconds > 0.2 && seconds < 2, `${seconds} s`);
      const error = expectError(
        await ssml('<speak><phoneme alphabet="ipa" ph="ʕaʕa">x</phoneme></speak>', 'en', FILE, 3),
        400,
        'invalid_ssml',
        'input',
      );
      assert.equal(error.element, 'phoneme');
    });

    it('speaks phoneme in the English voices, and refuses a symbol they cannot say', async () => {
      const plain = file(await ssml('<speak>Hi there.</speak>', 'en', FILE, 0));
      const spoken = file(
        await ssml('<speak>Hi <phoneme alphabet="ipa" ph="ˈθɪŋk ðeɪ">x</phoneme>.</speak>', 'en', FILE, 0),
      );
      assert.ok(
        spoken.seconds > plain.seconds + 0.3,
        `the IPA is spoken: ${spoken.seconds} s against ${plain.seconds} s`,
      );
      const error = expectError(
        await ssml('<speak>Hi <phoneme alphabet="ipa" ph="bɔ̃ʒuʁ">x</phoneme></speak>', 'en', FILE, 0),
        400,
        'invalid_ssml',
        'input',
      );
      assert.equal(error.element, 'phoneme');
      assert.match(error.message, /"ɔ̃"/);
    });

    it('bills the characters spoken: text and aliases, not markup', async () => {
      const text = 'a'.repeat(150);
      const { tokens } = file(await ssml(`<speak><p><s>${text}</s></p><break time="1s"/></speak>`));
      assert.equal(tokens, 2);
      const alias = 'b'.repeat(120);
      const sub = file(await ssml(`<speak><sub alias="${alias}">IHC</sub></speak>`));
      assert.equal(sub.tokens, 2, 'the alias is what is spoken');
    });

    it('says the words of a lang element as that language in the sentence, one utterance, billed as written', async () => {
      // "bite" is an English word to the detector; marked Kinyarwanda it is the greeting, [bite].
      const sentence = (word: string) => `<speak>Please say ${word} to the nurse.</speak>`;
      const marked = '<lang xml:lang="rw-RW">bite</lang>';
      const plain = file(await ssml(sentence('bite')));
      const inRwanda = file(await ssml(sentence(marked)));
      assert.notEqual(inRwanda.seconds, plain.seconds, 'the word is said another way');
      // The word's own difference, each said alone: a sentence cut in two at the lang element
      // would add a pause and the silences around an utterance on top of it.
      const alone = file(await ssml(`<speak>${marked}</speak>`)).seconds;
      const aloneAsEnglish = file(await ssml('<speak>bite</speak>')).seconds;
      const extra = inRwanda.seconds - plain.seconds - (alone - aloneAsEnglish);
      // Measured: -0.08 s; with the word cut into a sentence of its own (<s>), +0.32 s.
      assert.ok(extra < 0.1, `${extra.toFixed(2)} s beyond the word's own difference`);
      // 100 characters of 22 words: one token as written, two if the marks of its words counted.
      const words = `${'bite '.repeat(16)}nurse ok ok ok ok ok`;
      assert.equal(codePointCount(words), 100);
      assert.equal(file(await ssml(`<speak><lang xml:lang="rw">${words}</lang></speak>`)).tokens, 1);
    });

    it('says a lang element of the request language exactly as the text without it', async () => {
      const audio = async (input: string, language: string) => {
        const response = await ssml(input, language, STREAM);
        assert.equal(response.statusCode, 200, response.body);
        return response.rawPayload;
      };
      assert.deepEqual(
        await audio('<speak>Murakoze <lang xml:lang="rw">cyane</lang>, mwiriwe.</speak>', 'rw'),
        await audio('<speak>Murakoze cyane, mwiriwe.</speak>', 'rw'),
      );
      assert.deepEqual(
        await audio('<speak>Welcome to <lang xml:lang="en-GB">the clinic</lang>.</speak>', 'en'),
        await audio('<speak>Welcome to the clinic.</speak>', 'en'),
      );
    });

    it('accepts well-formed tags of the languages Ijwi says, in any case', async () => {
      for (const tag of ['en', 'en-US', 'fr-FR', 'rw-RW', 'EN-gb']) {
        file(await ssml(`<speak xml:lang="en">Hello <lang xml:lang="${tag}">there</lang>.</speak>`));
      }
    });

    it("decides a stream's free use on twice the plain-text bound per character of the document", async () => {
      const account = await fixture.newAccount({ topUp: 289 });
      const perCharacter = 2 * MAX_SECONDS_PER_CHARACTER.en;
      const body = (n: number) => `<speak>${'a '.repeat(n)}</speak>`;
      let n = 1;
      while (codePointCount(body(n + 1)) * perCharacter < FREE_MAX_SECONDS) n++;
      const under = await fixture.app.inject({
        method: 'POST',
        url: STREAM,
        headers: withKey(account.key),
        payload: { input: body(n), language: 'en', text_type: 'ssml' },
      });
      assert.equal(under.headers['x-voice-tokens-charged'], '0', under.body.slice(0, 200));
      const over = await fixture.app.inject({
        method: 'POST',
        url: STREAM,
        headers: withKey(account.key),
        payload: { input: body(n + 1), language: 'en', text_type: 'ssml' },
      });
      assert.notEqual(over.headers['x-voice-tokens-charged'], '0');
    });
  });

  describe('error', () => {
    const cases: readonly (readonly [string, string, string | null])[] = [
      ['malformed XML', '<speak>Hello <break time="1s"></speak>', null],
      ['an unclosed document', '<speak>Hello', null],
      ['a root other than speak', '<p>Hello</p>', 'p'],
      ['an unknown element', '<speak>Hello <voice name="x">there</voice></speak>', 'voice'],
      ['an unknown attribute', '<speak>Hello <break time="1s" volume="9"/></speak>', 'break'],
      ['a break over 5 s', '<speak>Hello <break time="6s"/></speak>', 'break'],
      ['breaks over 10 s in all', `<speak>${'Hi <break time="4s"/>'.repeat(3)}</speak>`, 'break'],
      ['an unknown strength', '<speak>Hello <break strength="huge"/></speak>', 'break'],
      ['a rate out of range', '<speak><prosody rate="300%">Hello</prosody></speak>', 'prosody'],
      ['a pitch', '<speak><prosody pitch="high">Hello</prosody></speak>', 'prosody'],
      ['an unknown say-as', '<speak><say-as interpret-as="bleep">x</say-as></speak>', 'say-as'],
      [
        'a cardinal that is no number',
        '<speak><say-as interpret-as="cardinal">abc</say-as></speak>',
        'say-as',
      ],
      [
        'an impossible date',
        '<speak><say-as interpret-as="date" format="dmy">31/02/2026</say-as></speak>',
        'say-as',
      ],
      ['a sub without alias', '<speak><sub>IHC</sub></speak>', 'sub'],
      [
        'a phoneme in another alphabet',
        '<speak><phoneme alphabet="x-sampa" ph="h@l">x</phoneme></speak>',
        'phoneme',
      ],
      ['a language other than the request', '<speak xml:lang="fr-FR">Bonjour</speak>', 'speak'],
      ['a lang without xml:lang', '<speak>Hello <lang>Muraho</lang></speak>', 'lang'],
      [
        'a lang of a language Ijwi does not say',
        '<speak>Hello <lang xml:lang="de-DE">Hallo</lang></speak>',
        'lang',
      ],
      // An xml:lang must be a well-formed BCP 47 tag, not merely start like one.
      [
        'a right-to-left override in a lang tag',
        '<speak>Hi <lang xml:lang="fr-\u202Ert">Salut</lang></speak>',
        'lang',
      ],
      ['a right-to-left override in a speak tag', '<speak xml:lang="en-\u202Eus">Hello</speak>', 'speak'],
      ['an underscore in a tag', '<speak xml:lang="en_US">Hello</speak>', 'speak'],
      ['an empty subtag', '<speak><s xml:lang="en--US">Hello</s></speak>', 's'],
      ['a tag ending in a hyphen', '<speak>Hi <lang xml:lang="rw-">Muraho</lang></speak>', 'lang'],
      ['an over-long subtag', '<speak xml:lang="en-abcdefghi">Hello</speak>', 'speak'],
      ['a tab inside a tag', '<speak xml:lang="en-\tUS">Hello</speak>', 'speak'],
      [
        'a zero-width space inside a tag',
        '<speak>Hi <lang xml:lang="fr\u200B-FR">Salut</lang></speak>',
        'lang',
      ],
      ['a left-to-right mark before a tag', '<speak>Hi <lang xml:lang="\u200Een">Hi</lang></speak>', 'lang'],
      ['a DOCTYPE', '<!DOCTYPE speak [<!ENTITY a "b">]><speak>&a;</speak>', null],
      ['nothing to speak', '<speak><break time="1s"/></speak>', null],
    ];
    for (const [what, input, element] of cases) {
      it(`answers 400 invalid_ssml for ${what}, with the element, line and column`, async () => {
        const response = await ssml(input);
        if (what === 'nothing to speak') {
          expectError(response, 400, 'input_required', 'input');
          return;
        }
        const error = expectError(response, 400, 'invalid_ssml', 'input');
        if (element !== null) assert.equal(error.element, element, response.body);
        for (const at of [error.line, error.column])
          assert.ok(typeof at === 'number' && Number.isInteger(at) && at >= 1, response.body);
      });
    }

    it('gives the line and column of an error on a later line', async () => {
      const error = expectError(
        await ssml('<speak>\n  Hello,\n  <break time="9s"/>\n</speak>'),
        400,
        'invalid_ssml',
        'input',
      );
      assert.equal(error.element, 'break');
      assert.equal(error.line, 3);
      assert.equal(error.column, 3);
    });

    it('refuses a text_type other than text or ssml', async () => {
      expectError(
        await post(FILE, { input: 'Hello', text_type: 'html' }),
        400,
        'invalid_request',
        'text_type',
      );
    });

    it('reads SSML sent as plain text as text', async () => {
      const response = await post(FILE, { input: '<speak>Hello<break time="5s"/></speak>', language: 'en' });
      assert.ok(file(response).seconds < 5);
    });
  });
});
