import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FORMAT_LOCALES, negotiateLanguage } from '../../../src/web/i18n/languages.ts';
import { translatorFor } from '../../../src/web/i18n/translator.ts';

describe('the locales the website formats in', () => {
  it('formats Kinyarwanda numbers and prices by CLDR’s rw data, which Dutch’s match for browsers without rw', () => {
    // Node's ICU has rw's numbers; Chromium ships none, so the studio's script falls back to nl.
    for (const options of [
      {},
      { minimumFractionDigits: 2, maximumFractionDigits: 2 },
      { maximumFractionDigits: 1 },
    ]) {
      for (const value of [0, 1, 12.5, 289, 10_000, 1_234_567.891]) {
        assert.equal(
          new Intl.NumberFormat('nl', options).format(value),
          new Intl.NumberFormat('rw', options).format(value),
        );
      }
    }
    const t = translatorFor('rw');
    assert.equal(t.number(1_234_567), '1.234.567');
    assert.equal(t.usd(289), 'USD 11,56');
  });

  it('counts in Kinyarwanda with a one/other rule, whatever the process’s own locale', () => {
    // CLDR has no rw plural rules: alone, rw would take the default locale's.
    const rules = new Intl.PluralRules([...FORMAT_LOCALES.rw]);
    assert.deepEqual(rules.resolvedOptions().pluralCategories.sort(), ['one', 'other']);
    assert.deepEqual(
      [0, 1, 2, 5, 1.5].map((n) => rules.select(n)),
      ['other', 'one', 'other', 'other', 'other'],
    );
    const t = translatorFor('rw');
    assert.equal(t.text('unit.seconds', { count: 1 }), 'isegonda 1');
    assert.equal(t.text('unit.seconds', { count: 12 }), 'amasegonda 12');
  });

  it('writes French and English numbers, prices, dates and plurals their own way', () => {
    const fr = translatorFor('fr');
    const en = translatorFor('en');
    assert.equal(fr.text('unit.tokens', { count: 0 }), '0 jeton', 'French counts 0 as singular');
    assert.equal(fr.text('unit.tokens', { count: 10_000 }), '10\u202f000 jetons');
    assert.equal(fr.text('unit.tokens', { count: 1_000_000 }), '1\u202f000\u202f000 de jetons');
    assert.equal(en.text('unit.tokens', { count: 1 }), '1 token');
    assert.equal(fr.usd(289), '11,56 USD');
    assert.equal(en.usd(289), '11.56 USD');
    assert.equal(en.dateTime('2025-11-21T14:03:00.000Z'), '21 Nov 2025, 14:03 UTC');
    assert.equal(fr.dateTime('2025-11-21T14:03:00.000Z'), '21 nov. 2025, 14:03 UTC');
    assert.equal(translatorFor('rw').day('2025-11-21'), '21 Ugu.');
  });
});

describe('Accept-Language', () => {
  it('picks the best-weighted of the site’s languages, by primary subtag', () => {
    assert.equal(negotiateLanguage('fr-CA,fr;q=0.9,en;q=0.8'), 'fr');
    assert.equal(negotiateLanguage('de-DE, rw;q=0.5, en;q=0.4'), 'rw');
    assert.equal(negotiateLanguage('en;q=0.5, rw-RW;q=0.9'), 'rw');
    assert.equal(negotiateLanguage('fr;q=0, en'), 'en', 'q=0 means not this one');
    assert.equal(negotiateLanguage('de, *;q=0.1'), 'en', 'anything: English');
  });

  it('names none of ours for other languages, nothing, or a header too long to read', () => {
    assert.equal(negotiateLanguage('de-DE, sw'), undefined);
    assert.equal(negotiateLanguage(undefined), undefined);
    assert.equal(negotiateLanguage(`fr, ${'x-y;q=0.1, '.repeat(200)}`), undefined);
  });
});
