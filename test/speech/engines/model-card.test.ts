import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allowsCommercialUse, readModelCard } from '../../../src/speech/engines/neural/model-card.ts';
import { piperModelCard } from '../../helpers/voice-packs.ts';

// The licence of a voice as its model card states it: Piper's MODEL_CARD in each of the ways its
// voices fill the licence line, the READMEs of sherpa-onnx's conversions, and cards that try to
// smuggle markup, links or terminal escapes into what the voices page and `voice list` show.

describe('model cards', () => {
  it("reads a Piper card's licence named, as a Creative Commons address, or on the dataset's page", () => {
    assert.deepEqual(readModelCard(piperModelCard('siwis', 'CC BY 4.0')), {
      licence: { name: 'CC BY 4.0', url: null, commercial: true },
      datasetUrl: 'https://example.org/datasets/siwis',
    });
    assert.deepEqual(
      readModelCard(piperModelCard('x', 'https://creativecommons.org/licenses/by-nc-sa/4.0/')).licence,
      {
        name: 'CC BY-NC-SA 4.0',
        url: 'https://creativecommons.org/licenses/by-nc-sa/4.0/',
        commercial: false,
      },
    );
    assert.deepEqual(readModelCard(piperModelCard('ljspeech', 'Public Domain')).licence, {
      name: 'Public Domain',
      url: null,
      commercial: true,
    });
    // "See URL": the licence is on the dataset's page, which nobody has read for us.
    assert.deepEqual(readModelCard(piperModelCard('amy', 'See URL')).licence, {
      name: "the dataset's licence (see its page)",
      url: 'https://example.org/datasets/amy',
      commercial: null,
    });
    // A licence page of its own: linked, what it allows not known.
    assert.deepEqual(
      readModelCard(piperModelCard('lessac', 'https://www.cstr.ed.ac.uk/projects/blizzard/license.html'))
        .licence,
      {
        name: 'the licence at www.cstr.ed.ac.uk',
        url: 'https://www.cstr.ed.ac.uk/projects/blizzard/license.html',
        commercial: null,
      },
    );
  });

  it("reads a README's front matter or its License section, and says nothing when a card names no licence", () => {
    assert.deepEqual(readModelCard('---\nlicense: cc-by-nc-4.0\n---\n# A voice\n').licence, {
      name: 'CC-BY-NC-4.0',
      url: null,
      commercial: false,
    });
    const prose = [
      '# License',
      '',
      'See also https://github.com/k2-fsa/sherpa-onnx/pull/2480',
      '',
      'This model is licensed under the [Creative Commons Attribution-NonCommercial-ShareAlike 4.0',
      'International License (CC BY-NC-SA 4.0)](https://creativecommons.org/licenses/by-nc-sa/4.0/).',
    ].join('\n');
    assert.deepEqual(readModelCard(prose).licence, {
      name: 'CC BY-NC-SA 4.0',
      url: 'https://creativecommons.org/licenses/by-nc-sa/4.0/',
      commercial: false,
    });
    assert.deepEqual(readModelCard('# Model card for jacky (medium)\n\n* Language: es_ES\n'), {
      licence: undefined,
      datasetUrl: undefined,
    });
  });

  it('keeps only plain text and http(s) links from a hostile card', () => {
    const link = readModelCard('* License: [Free for all](javascript:alert(1))').licence;
    assert.deepEqual(link, { name: 'Free for all', url: null, commercial: null });
    const markup = readModelCard('* License: <img src=x onerror=alert(1)>\u001b[2J **MIT**').licence;
    assert.ok(markup);
    assert.doesNotMatch(markup.name, /[<>*]|\p{Cc}/u);
    assert.equal(markup.commercial, true);
    const long = readModelCard(`* License: ${'very '.repeat(100)}long`).licence;
    assert.ok(long && long.name.length <= 100);
    const files = readModelCard('* URL: file:///etc/passwd\n* License: See URL');
    assert.deepEqual(files, { licence: undefined, datasetUrl: undefined });
  });
  it('tells commercial use from a licence name, and "mit" in a sentence is not the MIT licence', () => {
    assert.equal(allowsCommercialUse('MIT'), true);
    assert.equal(allowsCommercialUse('mit'), true);
    assert.equal(allowsCommercialUse('CC BY-NC 4.0'), false);
    assert.equal(allowsCommercialUse('frei mit Namensnennung'), null);
    assert.equal(allowsCommercialUse('Apache 2.0'), true);
  });
});
