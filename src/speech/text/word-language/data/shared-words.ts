/**
 * Words written the same in Kinyarwanda and in English or French, each a Kinyarwanda name or word
 * in Rwanda and an everyday word of the other language. They are kept out of the gazetteer lists
 * (rwanda-places.ts, rwanda-names.ts, kinyarwanda-words.ts) because a list would decide them the
 * same way in every sentence: the detector decides them from their context (capitals, the words
 * around them), and the labelled set has both readings.
 *
 * Sources: the sectors are those of rwanda-places.ts whose names the Carnegie Mellon Pronouncing
 * Dictionary (cmudict-en-us) also lists as everyday English words, with the French ones added by
 * hand; the Kinyarwanda words are spelled as in the references of kinyarwanda-words.ts.
 */
export interface SharedWord {
  word: string;
  /** What the word is in Kinyarwanda. */
  kinyarwanda: string;
  /** The languages in which it is also an everyday word. */
  alsoIn: readonly ('en' | 'fr')[];
}

export const sharedWords: readonly SharedWord[] = [
  { word: 'Base', kinyarwanda: 'a sector of Rulindo District, and a river', alsoIn: ['en', 'fr'] },
  { word: 'Mamba', kinyarwanda: 'a sector of Gisagara District', alsoIn: ['en', 'fr'] },
  { word: 'Sake', kinyarwanda: 'a sector of Ngoma District, and its lake', alsoIn: ['en'] },
  { word: 'Save', kinyarwanda: 'a sector of Gisagara District', alsoIn: ['en'] },
  { word: 'Tare', kinyarwanda: 'a sector of Nyamagabe District', alsoIn: ['en', 'fr'] },
  { word: 'Bite', kinyarwanda: 'the greeting "how are things?"', alsoIn: ['en', 'fr'] },
  { word: 'Mama', kinyarwanda: 'mother', alsoIn: ['en', 'fr'] },
  { word: 'Data', kinyarwanda: 'my father', alsoIn: ['en'] },
  { word: 'Moto', kinyarwanda: 'a motorcycle taxi (a French loan, written as in French)', alsoIn: ['fr'] },
  { word: 'Ni', kinyarwanda: 'the copula "is", "it is"', alsoIn: ['fr'] },
  { word: 'Si', kinyarwanda: 'the negative copula "is not"', alsoIn: ['fr'] },
  { word: 'Se', kinyarwanda: 'a question particle ("Bite se?"); also "his father"', alsoIn: ['fr'] },
];
