import { type AddressWords, addressRules } from '../normalize.ts';
import type { NormalizationRule } from '../verbalizer.ts';
import { letterName } from './letters.ts';
import { cardinal, readDigits } from './numbers.ts';

/**
 * How Kinyarwanda says the parts of an e-mail or web address: `info@ijwi.rw` is "info kuri ijwi
 * akadomo ari dabuliyu". Sources and the choices that await a native speaker's review are in
 * README.md ("Addresses"): "akadomo" (a dot, not "akabago", the full stop of a sentence), the
 * Kinyarwanda localisation team's "akarongo kaberamye" and "akanyerezo"; "kuri" for `@`,
 * "akanyerezo ko hasi" for `_` and "dabuliyu" three times for `www` are decisions. Short labels
 * are spelled with the letter names of letters.ts; "com" is written "kom" because Kinyarwanda
 * reads c as [t͡ʃ]. A name that ends in one of Rwanda's usual top-level domains is an address even
 * without `www.` (ku rubuga rwa igihe.com).
 */
export const KINYARWANDA_ADDRESS_WORDS: AddressWords = {
  at: 'kuri',
  dot: 'akadomo',
  slash: 'akarongo kaberamye',
  underscore: 'akanyerezo ko hasi',
  dash: 'akanyerezo',
  www: 'dabuliyu dabuliyu dabuliyu',
  letter: letterName,
  // From a trillion up, digits are an identifier, read one by one as the normaliser reads them.
  cardinal: (n) => (n > 999_999_999_999 ? readDigits(String(n)) : cardinal(n)),
  spokenLabels: { com: 'kom' },
  // Rwandan texts name sites without www (igihe.com, minisante.gov.rw, ur.ac.rw).
  bareDomains: ['rw', 'com', 'org', 'net', 'info', 'africa'],
};

/** E-mail and web addresses read as one phrase: their dots are not sentence ends. */
export const ADDRESS_RULES: readonly NormalizationRule[] = addressRules(KINYARWANDA_ADDRESS_WORDS);
