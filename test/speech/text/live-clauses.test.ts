import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { frontEndFor } from '../../../src/speech/text/front-end.ts';
import { LiveClauses } from '../../../src/speech/text/live-clauses.ts';

// Text that arrives word by word is spoken a part at a time, as soon as a part is surely complete.

function feed(pieces: readonly string[]): { parts: string[]; pending: string } {
  const clauses = new LiveClauses();
  const parts = pieces.flatMap((p) => clauses.push(p));
  return { parts, pending: clauses.pending };
}

describe('LiveClauses', () => {
  it('completes a clause at punctuation once the next piece shows white space after it', () => {
    assert.deepEqual(feed(['Hello', ',', ' thanks']), { parts: ['Hello,'], pending: ' thanks' });
    assert.deepEqual(feed(['Good morning.']).parts, [], 'a final mark waits: the word may go on');
    assert.deepEqual(feed(['Good morning. How']).parts, ['Good morning.']);
    assert.deepEqual(feed(['Really?! ', 'Yes']).parts, ['Really?!']);
    assert.deepEqual(feed(['He said "go." ', 'Then']).parts, ['He said "go."']);
    assert.deepEqual(feed(['One\nTwo']).parts, ['One\n']);
  });

  it('never splits a number or a known abbreviation shape', () => {
    assert.deepEqual(feed(['It costs 3.5 ', 'dollars']).parts, []);
    assert.deepEqual(feed(['Pay 1,000 francs']).parts, []);
    assert.deepEqual(feed(['Dr. Smith is ', 'in. Then']).parts, ['Dr. Smith is in.']);
    assert.deepEqual(feed(['Meet on Nov. 3 at St. Paul. OK']).parts, ['Meet on Nov. 3 at St. Paul.']);
    assert.deepEqual(feed(['Ask for Mme. Uwase or J. Mugisha. Bye']).parts, [
      'Ask for Mme. Uwase or J. Mugisha.',
    ]);
  });

  it('never cuts inside an address, fed 1 to 5 characters at a time, and reads it as one', () => {
    const reply = 'Mwandikire kuri info@ijwi.rw cyangwa usure https://www.ijwi.rw/konti. Murakoze. ';
    const pieces: string[] = [];
    for (let at = 0, size = 1; at < reply.length; at += size, size = (size % 5) + 1) {
      pieces.push(reply.slice(at, at + size));
    }
    const { parts } = feed(pieces);
    assert.deepEqual(parts, [
      'Mwandikire kuri info@ijwi.rw cyangwa usure https://www.ijwi.rw/konti.',
      ' Murakoze.',
    ]);
    assert.equal(
      frontEndFor('rw').normalize(parts[0] ?? ''),
      'Mwandikire kuri info kuri ijwi akadomo ari dabuliyu cyangwa usure dabuliyu dabuliyu dabuliyu akadomo ijwi akadomo ari dabuliyu akarongo kaberamye konti.',
    );
  });

  it('gives several parts from one piece, in order, and skips parts with nothing to say', () => {
    assert.deepEqual(feed(['Yes. No; maybe, ', '... ok']).parts, ['Yes.', ' No;', ' maybe,']);
  });

  it('cuts a long run without boundaries at a space, and never inside a surrogate pair', () => {
    const clauses = new LiveClauses(20);
    assert.deepEqual(clauses.push('word '.repeat(6)), ['word word word word ']);
    assert.equal(clauses.pending, 'word word ');
    const emoji = new LiveClauses(5);
    const parts = emoji.push('ab😀😀😀😀');
    assert.ok(parts.every((p) => !/[\uD800-\uDBFF]$/.test(p)));
  });

  it('flush gives what waits, and clear drops it', () => {
    const clauses = new LiveClauses();
    clauses.push('Your doctor is');
    assert.deepEqual(clauses.flush(), ['Your doctor is']);
    assert.deepEqual(clauses.flush(), []);
    clauses.push('dropped');
    clauses.clear();
    assert.equal(clauses.pending, '');
  });

  it('cuts only where no Markdown construct is open, so a marker split across pieces is never a part of its own', () => {
    assert.deepEqual(feed(['**Gre', 'at news!', '** Call', ' us. ']).parts, ['**Great news!**', ' Call us.']);
    assert.deepEqual(feed(['**Great, ', 'really great**, thanks. ']).parts, [
      '**Great, really great**,',
      ' thanks.',
    ]);
    assert.deepEqual(feed(['[Call us, ', 'please](https://ex', 'ample.rw/a.b). ', 'Bye']).parts, [
      '[Call us, please](https://example.rw/a.b).',
    ]);
    assert.deepEqual(feed(['Use `a, b', '`, then go. ']).parts, ['Use `a, b`,', ' then go.']);
  });

  it('holds a fenced block until it ends, reopens one cut for length, and gives a table row by row', () => {
    assert.deepEqual(feed(['Here:\n```\nlet a, b.\n', '```\nDone. ']).parts, [
      'Here:',
      '```\nlet a, b.\n```\n',
      'Done.',
    ]);
    // A table's rows come a line at a time, each read alone as the table reads it (a sentence).
    assert.deepEqual(feed(['| a | b |\n|---|---|\n| 1 | 2 |\n', 'Ok. ']).parts, [
      '| a | b |\n',
      '| 1 | 2 |\n',
      'Ok.',
    ]);
    // A construct never closed is cut for length all the same, so what waits stays bounded.
    const open = new LiveClauses(40);
    assert.ok(open.push(`**${'a, '.repeat(30)}`).every((part) => part.length <= 41));
    assert.ok(open.pending.length <= 41);
    const clauses = new LiveClauses(30);
    const parts = clauses.push('```js\nconst a = 1; const b = 2; const c = 3;');
    assert.equal(parts[0]?.startsWith('```js\n'), true);
    assert.ok(clauses.pending.startsWith('```js\n'), 'the rest is still code');
  });
});
