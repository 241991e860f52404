import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SpeechDocument } from '../../../src/speech/input/document.ts';
import { readInputText } from '../../../src/speech/input/input-text.ts';
import {
  markdownOpenAtEnd,
  RULE_PAUSE_MS,
  SECTION_CHARS,
  unclosedFence,
} from '../../../src/speech/markdown/read.ts';
import { frontEndFor } from '../../../src/speech/text/front-end.ts';
import type { LanguageCode } from '../../../src/speech/text/verbalizer.ts';
import { findVoice } from '../../../src/speech/voices/voices.ts';
import { modelReplies } from './replies.ts';

// Plain `text` as the gate every path passes reads it (input-text.ts): Markdown parsed into the
// speech document, its markup never spoken (api-v1.md, "Text written by a language model").

function documentOf(text: string, language: LanguageCode = 'en'): SpeechDocument {
  const voice = findVoice(language, 0);
  assert.ok(voice);
  const read = readInputText(text, 'text', voice);
  assert.ok(read.ok);
  return read.document;
}

/** What the engines are given: each text segment normalised, its sentences a line each. */
function spoken(text: string, language: LanguageCode = 'en'): string {
  return documentOf(text, language)
    .segments.map((s) => (s.kind === 'text' ? frontEndFor(language).normalize(s.text) : `<${s.kind}>`))
    .join('\n');
}

describe('Markdown in plain text', () => {
  it('drops emphasis, strong and code markers, says link text and not the address', () => {
    assert.equal(spoken('**Great news!** Call us.'), 'Great news! Call us.');
    assert.equal(spoken('It is *really* __cheap__ and `fast`.'), 'It is really cheap and fast.');
    assert.equal(spoken('[Call us](https://example.rw/pay) today.'), 'Call us today.');
    assert.equal(spoken('Pay [here][pay].\n\n[pay]: https://example.rw/pay'), 'Pay here.');
  });

  it('reads headings, list items and table rows as sentences of their own, bullets and bars unsaid', () => {
    assert.equal(spoken('### Great news!\nYou are booked.'), 'Great news!\nYou are booked.');
    assert.equal(spoken('- one\n- two\n\n1. three\n2. four'), 'one\ntwo\nthree\nfour');
    assert.equal(spoken('- [x] paid\n- [ ] signed'), 'paid\nsigned');
    assert.equal(spoken('| Meal | Served |\n|:--|--:|\n| Lunch | yes |'), 'Meal, Served\nLunch, yes');
    assert.equal(spoken('> Parking is free.'), 'Parking is free.');
  });

  it('says nothing of fenced code, struck-out text, images, HTML tags, comments and emoji', () => {
    assert.equal(spoken('Before.\n\n```js\nconsole.log("x")\n```\n\nAfter.'), 'Before.\nAfter.');
    assert.equal(spoken('Now ~~$120~~ $95.'), 'Now ninety-five dollars.');
    assert.equal(spoken('See ![a map](map.png) below.'), 'See below.');
    assert.equal(spoken('<b>Open</b> <!-- note --> today 😊🇷🇼👍🏽 ✂️'), 'Open today');
    assert.equal(spoken('<div>\nWelcome <em>home</em>\n</div>'), 'Welcome home');
  });

  it('makes a rule a pause between the sentences around it', () => {
    const document = documentOf('Thanks.\n\n---\n\nAnything else?');
    assert.deepEqual(
      document.segments.map((s) => s.kind),
      ['text', 'break', 'text'],
    );
    assert.deepEqual(document.segments[1], { kind: 'break', ms: RULE_PAUSE_MS });
  });

  it('reads a bare address as one, with or without its scheme', () => {
    assert.equal(
      spoken('Visit www.hotel.rw.'),
      'Visit double you double you double you dot hotel dot ar double you.',
    );
    assert.equal(spoken('Go to https://hotel.rw/book now.'), 'Go to hotel dot ar double you slash book now.');
    assert.equal(spoken('Write to info@hotel.rw.'), 'Write to info at hotel dot ar double you.');
  });

  it('drops markers nothing closed, as in a reply cut short', () => {
    assert.equal(spoken('**Great news, we'), 'Great news, we');
    assert.equal(spoken('Call [us](https://exa'), 'Call us');
    assert.equal(spoken('Use `code'), 'Use code');
    assert.equal(spoken('Free parking[^1] today.'), 'Free parking today.');
  });

  it('reads nesting deeper than the parser goes (thousands of > or -) as text, never failing', () => {
    for (const text of ['> '.repeat(6000), `${'- '.repeat(3000)}deep`, '>'.repeat(10_000)]) {
      const document = documentOf(text);
      // Cut into parse sections, a run of `- - -` may stand alone as a rule: a pause, never markup.
      assert.ok(document.segments.every((s) => s.kind === 'text' || s.kind === 'break'));
    }
    assert.match(spoken(`${'- '.repeat(3000)}deep`), /deep$/);
  });

  it('reads a reply longer than one parse section whole: no paragraph lost, no marker or code said', () => {
    const paragraph = (k: number) => `Paragraph ${k} is **bold** and has [a link](https://example.rw/${k}).`;
    const code = `\`\`\`\n${'secret code line\n'.repeat(150)}\`\`\``;
    const paragraphs = (from: number) => Array.from({ length: 30 }, (_, k) => paragraph(from + k));
    const text = [...paragraphs(0), code, ...paragraphs(30)].join('\n\n');
    assert.ok(code.length > SECTION_CHARS && text.length > 3 * SECTION_CHARS);
    const said = spoken(text);
    assert.equal(said.match(/is bold and has a link\./g)?.length, 60);
    assert.doesNotMatch(said, /secret|example|[*`[\]]/);
  });

  it('leaves plain text as it was: its words, its lines, its characters billed', () => {
    const text = 'Good morning, thank you for calling.\nHow can I help you today?';
    assert.equal(spoken(text), text);
    assert.equal(documentOf(text).spokenCharacters, text.length);
    assert.equal(spoken('Snake_case names and 3 < 4 stay.'), 'Snake_case names and three < four stay.');
  });

  it('bills the characters spoken: markup, code blocks and emoji are not charged', () => {
    assert.equal(documentOf('**Great news!** Call us.').spokenCharacters, 'Great news! Call us.'.length);
    assert.equal(documentOf('## Hours 😊\n\n- Mon\n- Tue').spokenCharacters, 'HoursMonTue'.length);
    assert.equal(documentOf('[Pay](https://example.rw/a/very/long/address)').spokenCharacters, 3);
  });
});

describe('literal * and #', () => {
  it('reads keypad and USSD codes key by key in each language', () => {
    assert.equal(spoken('Dial *182*7# to pay.'), 'Dial star one eight two star seven hash to pay.');
    assert.equal(spoken('Dial *#06#.'), 'Dial star hash zero six hash.');
    assert.equal(spoken('Composez le *182#.', 'fr'), 'Composez le étoile un huit deux dièse.');
    assert.equal(
      spoken('Kanda *182*7#.', 'rw'),
      'Kanda akanyenyeri rimwe umunani kabiri akanyenyeri karindwi urwego.',
    );
    assert.equal(spoken('**Dial *131#** now'), 'Dial star one three one hash now');
    assert.equal(spoken('Code: `*182*1#`'), 'Code: star one eight two star one hash');
  });

  it('reads a key on its own by its name, and a star between numbers as times', () => {
    assert.equal(spoken('Press # to confirm or * to go back.'), 'Press hash to confirm or star to go back.');
    assert.equal(spoken('Appuyez sur #.', 'fr'), 'Appuyez sur dièse.');
    assert.equal(
      spoken('That is 5 * 3, or 2*3*4.'),
      'That is five times three, or two times three times four.',
    );
    assert.equal(spoken('Cela fait 4 * 2.', 'fr'), 'Cela fait quatre fois deux.');
  });

  it('does not say a star or hash that is neither', () => {
    assert.equal(spoken('Room #5 and C# apply*'), 'Room five and C apply');
    assert.equal(spoken('*5* apples'), 'five apples');
  });
});

describe('markdownOpenAtEnd', () => {
  it('is true while an emphasis, code span, link, tag, fence or table may still close', () => {
    for (const open of [
      '**Gre',
      '**Great news,',
      '_Hello,',
      'Use `npm,',
      '[Call us,',
      '[Call us](https://exa',
      '<a href="x',
      '```\ncode,',
      '| a | b |\n|---|---|\n| 1 | 2 |\n',
      '- item **one,',
    ])
      assert.equal(markdownOpenAtEnd(open), true, open);
  });

  it('is false once constructs are closed, and for literal symbols', () => {
    for (const closed of [
      '**Great news!**',
      'Hello,',
      '[Call us](https://x.rw) now,',
      '```\ncode\n```\n',
      '| a | b |\n|---|---|\n| 1 | 2 |\n\n',
      'I [think] so,',
      'snake_case,',
      'a < b,',
      'Dial *182*7#,',
      'Press *.',
      '5 * 3,',
    ])
      assert.equal(markdownOpenAtEnd(closed), false, closed);
  });

  it('gives the opening line of a fenced block left open', () => {
    assert.equal(unclosedFence('Here:\n```js\nlet a'), '```js\n');
    assert.equal(unclosedFence('```js\nlet a\n```\n'), undefined);
    assert.equal(unclosedFence('Plain text'), undefined);
  });
});

describe('replies written by a language model', () => {
  it(`reads ${modelReplies.length} replies in rw, en and fr as a person would say them`, () => {
    assert.ok(modelReplies.length >= 60);
    for (const { language, reply, says } of modelReplies) {
      const frontEnd = frontEndFor(language);
      const expected = says
        .split('\n')
        .map((line) => frontEnd.normalize(line))
        .join('\n');
      assert.equal(spoken(reply, language).replace(/\n<break>\n/g, '\n'), expected, reply);
      // Markup is never charged: the reply costs no more than its plain twin.
      assert.ok(
        documentOf(reply, language).spokenCharacters <= documentOf(says, language).spokenCharacters,
        reply,
      );
    }
  });
});
