import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { type Catalogue, checkCatalogues, readCatalogues } from '../../../src/web/i18n/catalogue.ts';
import { SITE_LANGUAGES } from '../../../src/web/i18n/languages.ts';
import { catalogueMatcher } from '../../helpers/catalogue-text.ts';

// The catalogues as shipped, and the checks that keep them whole: the service refuses to start
// on any problem these find, so each must be found.

const shipped = readCatalogues();
const review = JSON.parse(
  readFileSync(new URL('../../../src/web/i18n/awaiting-review.json', import.meta.url), 'utf8'),
) as Record<string, string[]>;

/** The shipped catalogues with one language's messages changed. */
function changed(language: 'fr' | 'rw', change: (messages: Record<string, unknown>) => void) {
  const copy: Record<string, unknown> = { ...shipped[language] };
  change(copy);
  return { ...shipped, [language]: copy as Catalogue };
}

describe('the website’s catalogues', () => {
  it('have every English message in every language, each parsing, with the same arguments and tags', () => {
    assert.deepEqual(checkCatalogues(shipped).problems, []);
    for (const language of SITE_LANGUAGES) {
      assert.deepEqual(Object.keys(shipped[language]).sort(), Object.keys(shipped.en).sort(), language);
    }
  });

  it('find a message missing in a language, one English lacks, one that drops an argument or a tag, and a plural case the language has not', () => {
    const problems = (catalogues: ReturnType<typeof changed>) => checkCatalogues(catalogues).problems;
    assert.deepEqual(problems(changed('rw', (m) => delete m['studio.speak'])), [
      'rw: studio.speak is missing',
    ]);
    assert.deepEqual(
      problems(
        changed('fr', (m) => {
          m['studio.extra'] = 'Encore';
        }),
      ),
      ['fr: studio.extra is not in the English catalogue'],
    );
    assert.match(
      problems(
        changed('fr', (m) => {
          m['voices.limits.file'] = 'Jusqu’à beaucoup de caractères.';
        }),
      )[0] ?? '',
      /^fr: voices\.limits\.file takes nothing, English takes chars:number$/,
    );
    assert.match(
      problems(
        changed('rw', (m) => {
          m['signup.haveAccount'] = 'Usanzwe ufite konti? Injira';
        }),
      )[0] ?? '',
      /^rw: signup\.haveAccount takes nothing, English takes link:tag$/,
    );
    assert.deepEqual(
      problems(
        changed('rw', (m) => {
          m['unit.tokens'] = '{count, plural, one {tokeni #} few {tokeni #} other {tokeni #}}';
        }),
      ),
      ['rw: unit.tokens has a plural case "few" that rw does not have'],
    );
    assert.match(
      problems(
        changed('fr', (m) => {
          m['studio.speak'] = 'Prononcer {';
        }),
      )[0] ?? '',
      /^fr: studio\.speak does not parse/,
    );
  });

  it('mark only messages that exist as awaiting a native speaker’s review', () => {
    for (const [language, keys] of Object.entries(review)) {
      assert.ok((SITE_LANGUAGES as readonly string[]).includes(language), language);
      for (const key of keys) assert.ok(Object.hasOwn(shipped.en, key), `${language}: ${key}`);
    }
  });
});

describe('the browser test’s catalogue check', () => {
  const check = catalogueMatcher(['Amani', 'Kigali Clinic']);
  const text = (lang: string, words: string) => ({ lang, text: words, where: 'p' });

  it('takes a page’s words when they are pieces of its language’s messages, with any values', () => {
    assert.equal(check(text('fr', 'Révoquer')), undefined);
    assert.equal(check(text('fr', 'Voix en anglais')), undefined);
    assert.equal(
      check(
        text('rw', 'Tokeni 12 zishyuwe mu minsi 30 ishize; imbonerahamwe iri hasi igaragaza buri munsi.'),
      ),
      undefined,
    );
    assert.equal(
      check(text('fr', 'Amani · femme, anglais africain')),
      undefined,
      'names and other messages as values',
    );
    assert.equal(check(text('en', '12,345')), undefined, 'no words: a number');
  });

  it('refuses a word no message of the page’s language has: a hard-coded string, or another language’s', () => {
    assert.match(check(text('fr', 'Revoke')) ?? '', /not in the fr catalogue/);
    assert.match(check(text('rw', 'Sign out')) ?? '', /not in the rw catalogue/);
    assert.match(check(text('fr', 'Amani · female, African English')) ?? '', /not in the fr catalogue/);
    assert.match(check(text('de', 'Abmelden')) ?? '', /no words for/);
  });
});
