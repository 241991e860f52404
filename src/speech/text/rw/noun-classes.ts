import type { Agreement } from './numbers.ts';

/** How a number after a noun agrees with it: the class row, and whether the noun is singular. */
export interface NounAgreement {
  readonly agreement: Agreement;
  /** A singular noun counts only one: "icyumba 5" is room number 5, read in counting form. */
  readonly singular: boolean;
}

// Nouns whose prefix alone does not tell the class: i- + consonant is class 5 (ifaranga rimwe) or
// class 9 (isaha imwe), and some loans take no prefix at all. Plurals of class 9 are class 10 and
// written the same (inzu imwe, inzu ebyiri).
const LISTED: Readonly<Record<string, NounAgreement>> = {
  ifaranga: { agreement: 'class6', singular: true },
  idolari: { agreement: 'class6', singular: true },
  iyero: { agreement: 'class6', singular: true },
  ijambo: { agreement: 'class6', singular: true },
  izina: { agreement: 'class6', singular: true },
  ishuri: { agreement: 'class6', singular: true },
  ijoro: { agreement: 'class6', singular: true },
  isoko: { agreement: 'class6', singular: true },
  ibuye: { agreement: 'class6', singular: true },
  isaha: { agreement: 'class10', singular: false },
  itariki: { agreement: 'class10', singular: false },
  isuka: { agreement: 'class10', singular: false },
  ibaruwa: { agreement: 'class10', singular: false },
  ikarita: { agreement: 'class10', singular: false },
  ifoto: { agreement: 'class10', singular: false },
  ibiro: { agreement: 'class8', singular: false },
  miliyoni: { agreement: 'class10', singular: false },
  telefone: { agreement: 'class10', singular: false },
  konti: { agreement: 'class10', singular: false },
  // Units borrowed without a prefix are class 9/10 (anzeyimana/morphokin's agreement table,
  // `rw_prefix`; "metero zitarenze 35", "santimetero makumyabiri n'eshanu" in the press).
  metero: { agreement: 'class10', singular: false },
  santimetero: { agreement: 'class10', singular: false },
  kilometero: { agreement: 'class10', singular: false },
  garama: { agreement: 'class10', singular: false },
  litiro: { agreement: 'class10', singular: false },
  dogere: { agreement: 'class10', singular: false },
  hegitari: { agreement: 'class10', singular: false },
  toni: { agreement: 'class10', singular: false },
  inshuro: { agreement: 'class10', singular: false },
};

// Prefixes in the order they must be tried (imi- before in-/im-, ibi- before i-). Sources as in
// numbers.ts; the shapes follow the orthography (umw-, imy-, iby-, icy- before a vowel).
const PREFIXES: readonly (readonly [RegExp, NounAgreement])[] = [
  [/^aba|^ab(?=[eio])/, { agreement: 'class2', singular: false }],
  [/^umu|^umw/, { agreement: 'class2', singular: true }],
  [/^imi|^imy/, { agreement: 'class4', singular: false }],
  [/^am[aeio]/, { agreement: 'class6', singular: false }],
  [/^iri|^iry/, { agreement: 'class6', singular: true }],
  [/^ibi|^iby/, { agreement: 'class8', singular: false }],
  [/^iki|^igi|^icy|^igy/, { agreement: 'class8', singular: true }],
  [/^in|^im(?=[bpfvo])/, { agreement: 'class10', singular: false }],
  [/^uru|^urw/, { agreement: 'class11', singular: true }],
  [/^aka|^aga|^ak(?=[eio])/, { agreement: 'class13', singular: true }],
  [/^utu|^udu|^utw|^udw/, { agreement: 'class13', singular: false }],
  [/^ubu|^ubw/, { agreement: 'class14', singular: true }],
  [/^uku|^ukw|^ugu|^ugw/, { agreement: 'class15', singular: true }],
  [/^aha/, { agreement: 'class16', singular: false }],
];

/**
 * The agreement of a Kinyarwanda noun, from the list of nouns whose shape misleads, else from its
 * class prefix; undefined for a word with no known class prefix (a loan, a name, a verb), after
 * which a number keeps its counting form.
 */
export function nounAgreement(word: string): NounAgreement | undefined {
  const noun = word.toLowerCase();
  const listed = LISTED[noun];
  if (listed) return listed;
  if (noun.length < 4) return undefined;
  return PREFIXES.find(([prefix]) => prefix.test(noun))?.[1];
}
