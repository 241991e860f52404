import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { splitClauses } from '../../../src/speech/text/clauses.ts';
import { startsEnglishPhrase } from '../../../src/speech/text/en/phrases.ts';

const options = { firstMaxChars: 40, maxChars: 100 };

describe('splitClauses', () => {
  it('splits sentences and keeps their punctuation', () => {
    assert.deepEqual(splitClauses('Hello there. How are you? Fine!', options), [
      'Hello there.',
      'How are you?',
      'Fine!',
    ]);
  });

  it('keeps the first chunk short by cutting at a comma', () => {
    const chunks = splitClauses(
      'Good morning, thank you for calling the Kigali clinic, how can I help you today?',
      options,
    );
    assert.equal(chunks[0], 'Good morning,');
    assert.ok(chunks.every((c) => c.length <= 100));
    assert.equal(
      chunks.join(' '),
      'Good morning, thank you for calling the Kigali clinic, how can I help you today?',
    );
  });

  it('speaks the first words alone up to their first clause mark, even when the sentence fits', () => {
    assert.deepEqual(splitClauses('Good morning, thank you for calling.', options), [
      'Good morning,',
      'thank you for calling.',
    ]);
    assert.deepEqual(
      splitClauses('Yes, of course.', options),
      ['Yes, of course.'],
      'a mark after a short word waits',
    );
    assert.deepEqual(
      splitClauses('Hello there. Good morning, all.', options),
      ['Hello there.', 'Good morning, all.'],
      'only the first chunk of the request',
    );
  });

  describe('the first phrase of a long first clause (firstPhrase)', () => {
    const phrase = {
      firstMaxChars: 60,
      maxChars: 220,
      firstPhrase: { maxWords: 6, startsPhrase: startsEnglishPhrase },
    };

    it('speaks the first phrase alone, cut before a conjunction or preposition', () => {
      assert.deepEqual(splitClauses('Please hold for a moment while I check the schedule. Thanks.', phrase), [
        'Please hold for a moment',
        'while I check the schedule.',
        'Thanks.',
      ]);
      assert.deepEqual(splitClauses('Doctor Uwimana is available on Tuesday at ten thirty.', phrase), [
        'Doctor Uwimana is available',
        'on Tuesday at ten thirty.',
      ]);
    });

    it('leaves a clause of six words or fewer, and a cut at the first comma, as they were', () => {
      for (const text of ['How can I help you today?', 'Good morning, thank you for calling.']) {
        assert.deepEqual(
          splitClauses(text, phrase),
          splitClauses(text, { ...phrase, firstPhrase: undefined }),
        );
      }
    });

    it('cuts nowhere else: not in the first three words, not leaving fewer than three, not past six', () => {
      const whole = [
        'Please hold for a moment or two.', // "for" after two words, "or" leaves two
        'I can book that appointment for you.', // "for" leaves two
        'Could you please spell your last name for me?', // "for" after seven words
        'The consultation fee is five thousand Rwandan francs.', // no phrase start
        "The children's ward is on the fourth floor.", // a phrase does not end with "is"
        'Sarah from customer service will be with you shortly.', // nor with "be"
      ];
      for (const text of whole) assert.deepEqual(splitClauses(text, phrase), [text]);
    });

    it("cuts only the request's first sentence", () => {
      assert.deepEqual(splitClauses('Hello there. Please hold for a moment while I check.', phrase), [
        'Hello there.',
        'Please hold for a moment while I check.',
      ]);
    });
  });

  it('cuts a long first clause between words, never inside one', () => {
    const text = 'Thank you for calling the Kigali Heights medical reception desk today';
    const chunks = splitClauses(text, options);
    assert.ok((chunks[0]?.length ?? 0) <= 40);
    assert.equal(chunks.join(' '), text);
    for (const chunk of chunks) assert.ok(text.split(' ').includes(chunk.split(' ')[0] ?? ''));
  });

  it('packs short clauses of a long later sentence together up to the limit', () => {
    const later =
      'One, two, three, four, five, six, seven, eight, nine, ten, eleven, twelve, thirteen, fourteen, fifteen, sixteen.';
    const chunks = splitClauses(`Hello. ${later}`, options);
    assert.equal(chunks[0], 'Hello.');
    assert.ok(chunks.length <= 3, `packed into few chunks: ${JSON.stringify(chunks)}`);
    assert.ok(chunks.slice(1).every((c) => c.length <= 100));
    assert.equal(chunks.slice(1).join(' '), later);
  });

  it('treats line breaks as sentence ends and ignores empty or punctuation-only text', () => {
    assert.deepEqual(splitClauses('Line one\nLine two', options), ['Line one', 'Line two']);
    assert.deepEqual(splitClauses('  ... !! ', options), []);
    assert.deepEqual(splitClauses('', options), []);
  });

  it('keeps a word longer than the first limit whole, and cuts one longer than the limit', () => {
    const word = 'a'.repeat(options.maxChars);
    assert.deepEqual(splitClauses(word, options), [word]);
    const run = 'b'.repeat(options.maxChars * 3 + 7);
    const chunks = splitClauses(`Hello ${run}`, options);
    assert.ok(
      chunks.every((c) => c.length <= options.maxChars),
      chunks.join('|'),
    );
    assert.equal(chunks.join('').replace(/ /g, ''), `Hello${run}`);
  });
});
