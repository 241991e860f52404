import { splitClauses } from '../../src/speech/text/clauses.ts';
import { frontEndFor } from '../../src/speech/text/front-end.ts';
import type { LanguageCode } from '../../src/speech/text/verbalizer.ts';
import { foreignWords } from '../../src/speech/text/word-language/clause.ts';
import { wordLanguage } from '../../src/speech/text/word-language/detect.ts';
import { fixed, printTable } from '../stats.ts';
import { labelledWords } from './labelled-words.ts';

// The word-language detector on the labelled set (precision and recall of "this word is of
// another language than its sentence, and of this one"), and what deciding costs on the main
// thread per reply of about 300 characters (the target: under 0.2 ms on one core).

/** Counts of one direction (a word of `language` in a sentence of `context`) or of all. */
export interface DetectorScore {
  readonly name: string;
  /** Foreign words found with their right language. */
  readonly found: number;
  /** Words said to be foreign that are native, or of another language than the one given. */
  readonly wrong: number;
  /** Foreign words left native, or given another language. */
  readonly missed: number;
  readonly precision: number;
  readonly recall: number;
  readonly words: number;
}

function score(name: string, entries: typeof labelledWords): DetectorScore {
  let found = 0;
  let wrong = 0;
  let missed = 0;
  for (const entry of entries) {
    const said = wordLanguage(entry.word, entry.context);
    const foreign = entry.language !== entry.context;
    if (said !== entry.context && said !== entry.language) wrong++;
    if (foreign && said === entry.language) found++;
    if (foreign && said !== entry.language) missed++;
  }
  return {
    name,
    found,
    wrong,
    missed,
    precision: found + wrong === 0 ? 1 : found / (found + wrong),
    recall: found + missed === 0 ? 1 : found / (found + missed),
    words: entries.length,
  };
}

/** The detector's scores on the labelled set: all of it, then each sentence language. */
export function detectorScores(): DetectorScore[] {
  const contexts: LanguageCode[] = ['en', 'fr', 'rw'];
  return [
    score('all', labelledWords),
    ...contexts.map((context) =>
      score(
        `in ${context} sentences`,
        labelledWords.filter((entry) => entry.context === context),
      ),
    ),
  ];
}

const REPLIES: readonly (readonly [LanguageCode, string])[] = [
  [
    'en',
    'Good morning, this is the Kigali Heights clinic. Dr. Uwase Mukamana will see you at the Kacyiru branch on Tuesday; if you come from Nyabugogo, take the bus to Kimihurura and walk two minutes. Murakoze for calling, and please ask for Mugisha Nsengiyumva at reception when you arrive in Gasabo.',
  ],
  [
    'fr',
    "Bonjour, ici la clinique de Kimihurura. Votre rendez-vous avec le docteur Ndayisaba est confirmé pour mardi à Musanze; si vous venez de Huye ou de Rubavu, prenez le bus jusqu'à Nyabugogo. Demandez Tuyisenge Ishimwe à l'accueil, près du marché de Kimironko. Murakoze et bonne journée à vous.",
  ],
  [
    'rw',
    'Muraho, murakaza neza kuri Ijwi. Booking yawe yemejwe, kandi twakoherereje email na receipt kuri WhatsApp. Niba ushaka kwishyura cash cyangwa kuri Mobile Money, hamagara manager wacu. Rendez-vous yawe kwa pharmacie iri ku wa kabiri saa tatu za mu gitondo. Murakoze cyane, mugire umunsi mwiza.',
  ],
];
const ROUNDS = 2_000;
const WARM_UP = 200;

export interface DecisionCost {
  readonly characters: number;
  /** Milliseconds per reply to decide the language of every word of its clauses. */
  readonly decideMs: number;
  /** Foreign words found per reply, on average. */
  readonly foreignWords: number;
}

/** Mean cost of deciding every word's language in each reply's normalised clauses, one core. */
export function decisionCost(): DecisionCost {
  const clauses = REPLIES.map(
    ([language, reply]) => [language, splitClauses(frontEndFor(language).normalize(reply))] as const,
  );
  const decide = () => {
    let found = 0;
    for (const [language, list] of clauses)
      for (const clause of list) found += foreignWords(clause, language).length;
    return found;
  };
  for (let i = 0; i < WARM_UP; i++) decide();
  const started = performance.now();
  let found = 0;
  for (let i = 0; i < ROUNDS; i++) found += decide();
  return {
    characters: REPLIES.reduce((n, [, r]) => n + r.length, 0) / REPLIES.length,
    decideMs: (performance.now() - started) / (ROUNDS * REPLIES.length),
    foreignWords: found / (ROUNDS * REPLIES.length),
  };
}

export function printWordLanguage(scores: readonly DetectorScore[], cost: DecisionCost): void {
  console.log(
    '\nWords that cross languages: the detector on the labelled set (bench/word-language/labelled-words.ts)',
  );
  printTable(
    ['words', 'labelled', 'found', 'wrong', 'missed', 'precision', 'recall'],
    scores.map((s) => [
      s.name,
      String(s.words),
      String(s.found),
      String(s.wrong),
      String(s.missed),
      fixed(s.precision * 100, 1),
      fixed(s.recall * 100, 1),
    ]),
  );
  console.log(
    `Deciding every word's language of a reply of ${fixed(cost.characters, 0)} characters (${fixed(cost.foreignWords, 1)} foreign words): ${fixed(cost.decideMs, 4)} ms per reply, one core (target: under 0.2 ms)`,
  );
}
