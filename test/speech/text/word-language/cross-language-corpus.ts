/**
 * The cross-language corpus (issue 37): lines in which a voice says words of another language,
 * and lines of one language alone that must read exactly as that language's own front-end reads
 * them. Each case is one clause of the voice's language; its foreign words are written between
 * braces, a French word with its dictionary IPA: `Tugende kuri {pharmacie /faʁ.ma.si/}.`
 *
 * What a foreign word must sound like is derived in the test (test/cli/say-cross-language.test.ts)
 * from an independent source, never from the implementation's output:
 * - a Kinyarwanda word in an English or French voice, from its spelling (Kinyarwanda writes each
 *   vowel it says, a doubled letter being one long vowel);
 * - an English word in a Kinyarwanda voice, from the Carnegie Mellon Pronouncing Dictionary;
 * - a French word in a Kinyarwanda voice, from the IPA given here, as the Wiktionnaire writes it
 *   (https://fr.wiktionary.org/wiki/<word>, the "Prononciation" of the entry).
 *
 * SSML `<lang xml:lang>` around a word and lexicon entries that name their word's language are
 * two more groups of the issue; they join this corpus with the text types they need (`ssml`).
 */
import type { LanguageCode } from '../../../../src/speech/text/verbalizer.ts';

export type CaseGroup =
  | 'kinyarwanda-in-english'
  | 'kinyarwanda-in-french'
  | 'english-in-kinyarwanda'
  | 'french-in-kinyarwanda'
  | 'addresses'
  | 'native';

/** A word of a case said in another language than its line's. */
export interface ForeignWordCase {
  /** The word as written in the line. */
  readonly word: string;
  readonly language: LanguageCode;
  /** For a French word: its IPA as the dictionary gives it (syllable dots allowed). */
  readonly ipa?: string;
}

export interface CrossLanguageCase {
  readonly group: CaseGroup;
  /** The language of the line, and of the voices that read it. */
  readonly language: LanguageCode;
  /** `text` for plain text; SSML cases (`<lang>`) will be read with `--ssml`. */
  readonly textType: 'text' | 'ssml';
  /** One clause, as the user writes it. */
  readonly text: string;
  /** Its words of another language, in order; none in a `native` case. */
  readonly foreign: readonly ForeignWordCase[];
  readonly source: string;
}

const MARKED = /\{([^}/]+?)(?: \/([^/]+)\/)?\}/gu;

/** A case from a line with its foreign words in braces, each of `foreignLanguage`. */
function marked(
  group: CaseGroup,
  language: LanguageCode,
  foreignLanguage: LanguageCode,
  line: string,
  source: string,
): CrossLanguageCase {
  const foreign = Array.from(line.matchAll(MARKED), ([, word, ipa]) => ({
    word: word as string,
    language: foreignLanguage,
    ...(ipa === undefined ? {} : { ipa }),
  }));
  const text = line.replace(MARKED, (_, word: string) => word);
  return { group, language, textType: 'text', text, foreign, source };
}

const native = (language: LanguageCode, text: string, source: string): CrossLanguageCase => ({
  group: 'native',
  language,
  textType: 'text',
  text,
  foreign: [],
  source,
});

// ---- Sources of the Kinyarwanda names and places ----
const DISTRICTS =
  'Law N° 87/2013 of 11/09/2013 (the 30 districts); Wikipedia, "Districts of Rwanda", https://en.wikipedia.org/wiki/Districts_of_Rwanda';
const SECTORS =
  'Organic Law N° 29/2005 (sectors and cells); the data set "rwanda" (Igwaneza Bruce, 2020, MIT licence), https://github.com/knowbee/rwanda';
const COUNTRY =
  'Constitution of the Republic of Rwanda (2003, revised 2015), art. 1: "Repubulika y\'u Rwanda"';
const PROVINCES =
  'Organic Law N° 29/2005 determining the administrative entities: Amajyaruguru, Amajyepfo, Iburasirazuba, Iburengerazuba';
const PREFECTURES = 'Wikipedia, "Prefectures of Rwanda" (Gisenyi, Cyangugu, Byumba, Kibungo, Gitarama)';
const PARKS =
  'Rwanda Development Board, national parks (Akagera, Nyungwe, Volcanoes / Birunga), https://www.visitrwanda.com';
const NEIGHBOURHOODS =
  'Kigali\'s neighbourhoods, cells and villages of the data set "rwanda" (Igwaneza Bruce, 2020), https://github.com/knowbee/rwanda';
const LEADERS =
  'Wikipedia, "President of Rwanda" and "Prime Minister of Rwanda", https://en.wikipedia.org/wiki/President_of_Rwanda';
const KINGS = 'Wikipedia, "List of kings of Rwanda", https://en.wikipedia.org/wiki/List_of_kings_of_Rwanda';
const FIGURES =
  'English Wikipedia biographies (Louise Mushikiwabo, Agnes Kalibata, Scholastique Mukasonga, Immaculée Ilibagiza, Cécile Kayirebwa, Kizito Mihigo, Clare Akamanzi, Salima Mukansanga, Adrien Niyonshuti, Jacques Tuyisenge, Fidèle Ndayisaba)';
const MISS_RWANDA =
  'Wikipedia, "Miss Rwanda", https://en.wikipedia.org/wiki/Miss_Rwanda (the winners\' Kinyarwanda names)';
const CHILD_NAMING =
  'The New Times, "Child naming: Is the trend changing for Rwandan names?", 8 August 2022, https://www.newtimes.co.rw/article/201885';
const MPS =
  'The New Times, "50 MPs return experience to House" (2013), https://www.newtimes.co.rw/article/98493 (names held out of the gazetteer)';
const CANDIDATES =
  'KT Press, "RPF selects 70 candidates for parliamentary polls" (July 2018) (names held out of the gazetteer)';
const ISSUE = 'Names given in issue 37 as read wrongly by every English and French voice';
const HOME_GROWN =
  'Rwanda Governance Board, "Home Grown Solutions" (Umuganda, Imihigo, Gacaca, Girinka, Ubudehe, Abunzi, Agaciro), https://www.rgb.rw';
const GREETINGS =
  'I. Jacob, "Dictionnaire rwandais-français" (1983-1987): muraho, murakoze, mwaramutse, mwiriwe, amakuru';

/** [Kinyarwanda word, its source]: said in every English and every French voice. */
const KINYARWANDA_WORDS: readonly (readonly [word: string, source: string])[] = [
  ['Rwanda', COUNTRY],
  ['Kigali', DISTRICTS],
  ['Gasabo', DISTRICTS],
  ['Kicukiro', DISTRICTS],
  ['Nyarugenge', DISTRICTS],
  ['Bugesera', DISTRICTS],
  ['Gatsibo', DISTRICTS],
  ['Kayonza', DISTRICTS],
  ['Kirehe', DISTRICTS],
  ['Nyagatare', DISTRICTS],
  ['Rwamagana', DISTRICTS],
  ['Burera', DISTRICTS],
  ['Gakenke', DISTRICTS],
  ['Gicumbi', DISTRICTS],
  ['Musanze', DISTRICTS],
  ['Rulindo', DISTRICTS],
  ['Gisagara', DISTRICTS],
  ['Huye', DISTRICTS],
  ['Kamonyi', DISTRICTS],
  ['Muhanga', DISTRICTS],
  ['Nyamagabe', DISTRICTS],
  ['Nyanza', DISTRICTS],
  ['Nyaruguru', DISTRICTS],
  ['Ruhango', DISTRICTS],
  ['Karongi', DISTRICTS],
  ['Ngororero', DISTRICTS],
  ['Nyabihu', DISTRICTS],
  ['Nyamasheke', DISTRICTS],
  ['Rubavu', DISTRICTS],
  ['Rusizi', DISTRICTS],
  ['Rutsiro', DISTRICTS],
  ['Amajyaruguru', PROVINCES],
  ['Iburasirazuba', PROVINCES],
  ['Kacyiru', SECTORS],
  ['Kimihurura', SECTORS],
  ['Nyamirambo', SECTORS],
  ['Kimironko', SECTORS],
  ['Gikondo', SECTORS],
  ['Nyabugogo', NEIGHBOURHOODS],
  ['Gisenyi', PREFECTURES],
  ['Cyangugu', PREFECTURES],
  ['Akagera', PARKS],
  ['Nyungwe', PARKS],
  ['Nsengiyumva', ISSUE],
  ['Tuyisenge', FIGURES],
  ['Ndayisaba', FIGURES],
  ['Mushikiwabo', FIGURES],
  ['Mukasonga', FIGURES],
  ['Ilibagiza', FIGURES],
  ['Kayirebwa', FIGURES],
  ['Niyonshuti', FIGURES],
  ['Habyarimana', LEADERS],
  ['Bizimungu', LEADERS],
  ['Twagiramungu', LEADERS],
  ['Rwabugiri', KINGS],
  ['Rudahigwa', KINGS],
  ['Mutesi', MISS_RWANDA],
  ['Nishimwe', MISS_RWANDA],
  ['Uwase', CHILD_NAMING],
  ['Ntwari', CHILD_NAMING],
  ['Mukazibera', MPS],
  ['Nyirarukundo', MPS],
  ['Murebwayire', CANDIDATES],
  ['Uwimanimpaye', CANDIDATES],
  ['Umuganda', HOME_GROWN],
  ['Imihigo', HOME_GROWN],
  ['Murakoze', GREETINGS],
];

// A name is said inside an ordinary sentence, as a receptionist says it; the frames turn.
const ENGLISH_FRAMES = [
  'Welcome to {}.',
  'I live in {}.',
  'Please call {} now.',
  'My name is {}.',
  'We drove to {} today.',
];
const FRENCH_FRAMES = [
  'Bienvenue à {}.',
  "J'habite à {}.",
  'Appelez {} maintenant.',
  'Je connais {}.',
  'Nous allons à {}.',
];

const framed = (frames: readonly string[], index: number, word: string) =>
  (frames[index % frames.length] as string).replace('{}', `{${word}}`);

const KINYARWANDA_IN_ENGLISH = KINYARWANDA_WORDS.map(([word, source], index) =>
  marked('kinyarwanda-in-english', 'en', 'rw', framed(ENGLISH_FRAMES, index, word), source),
);
const KINYARWANDA_IN_FRENCH = KINYARWANDA_WORDS.map(([word, source], index) =>
  marked('kinyarwanda-in-french', 'fr', 'rw', framed(FRENCH_FRAMES, index, word), source),
);

// ---- English and French words in Kinyarwanda sentences ----
const CMU = 'Carnegie Mellon Pronouncing Dictionary 0.7 (npm cmu-pronouncing-dictionary)';
const LOANS =
  'J. L. Kayigema, "Loanword allocation in Kinyarwanda" (MA, University of South Africa, 2010): the domains of borrowed words';
const SWITCHES =
  'H. Habyarimana, "An analysis of the socio-pragmatic motivations for code-switching in Rwanda" (MA, University of South Africa, 2017): switches by receptionists and customer-care officers';
const englishSource = `${SWITCHES}; pronunciation: ${CMU}`;
const frenchSource = `${LOANS}; pronunciation: Wiktionnaire, https://fr.wiktionary.org`;

const ENGLISH_IN_KINYARWANDA = [
  'Ohereza {email} uyu munsi.',
  'Nyoherereza {receipt} nyuma.',
  'Mfite {meeting} saa sita.',
  'Reba kuri {Google} neza.',
  'Andika {password} yawe.',
  'Fungura {account} nshya.',
  'Nta {network} ihari.',
  'Gura {airtime} vuba.',
  'Ndashaka {bundle} ya interineti.',
  'Reba {video} yanjye.',
  'Mudasobwa ni {computer} mu cyongereza.',
  'Zana {printer} hano.',
  'Nta {battery} ifite.',
  'Kanda kuri {download} ubundi.',
  'Kora {update} ejo.',
  'Ni {software} nshya.',
  'Ifoto ya {selfie} ni nziza.',
  'Dufite {deadline} ejo.',
  'Ni {weekend} nziza.',
  'Vugana na {manager} wawe.',
  'Ni {supervisor} wacu.',
  'Dufite {training} ejo.',
  'Ni {project} nshya.',
  'Ohereza {report} vuba.',
  'Duhe {feedback} yawe.',
  'Ni {business} nziza.',
  'Kora {booking} uyu munsi.',
  'Mfite {appointment} ejo.',
  'Jya kuri {reception} ubaze.',
  'Ni {customer} wacu.',
  'Tegereza {delivery} yawe.',
  'Ni {driver} wanjye.',
  'Hari {traffic} nyinshi.',
  'Mfite {cash} nkeya.',
  'Jya kuri {bank} ejo.',
  'Saba {loan} nshya.',
  'Ndategereje {salary} yanjye.',
  'Ohereza {invoice} uyu munsi.',
  'Kora {payment} ubu.',
  'Kora {transfer} ubu.',
  'Zana {card} yawe.',
  'Ni {supermarket} nini.',
  'Ni {party} nziza.',
  'Ni {birthday} yanjye.',
  'Ndakunda {music} yawe.',
  'Ni {smart} cyane.',
  'Ohereza {email} na {receipt}.',
  'Nta {ticket} mfite.',
  'Ni {voucher} nshya.',
  'Saba {refund} yawe.',
  'Zana {charger} yanjye.',
].map((line) => marked('english-in-kinyarwanda', 'rw', 'en', line, englishSource));

const FRENCH_IN_KINYARWANDA = [
  'Tugende kuri {pharmacie /faʁ.ma.si/}.',
  'Ari ku {bureau /by.ʁo/}.',
  'Jya kuri {boutique /bu.tik/} uyu munsi.',
  'Ni mu {quartier /kaʁ.tje/} wacu.',
  'Ari mu {secteur /sɛk.tœʁ/} wa Kacyiru.',
  'Jya kuri {mairie /mɛ.ʁi/} ejo.',
  'Ni {ministère /mi.nis.tɛʁ/} nshya.',
  'Ni {directeur /di.ʁɛk.tœʁ/} wacu.',
  'Ni {président /pʁe.zi.dɑ̃/} wacu.',
  'Ni {comptable /kɔ̃.tabl/} wacu.',
  'Ni {chauffeur /ʃo.fœʁ/} wanjye.',
  'Ni {stagiaire /sta.ʒjɛʁ/} mushya.',
  'Ni {voiture /vwa.tyʁ/} nziza.',
  'Nyoherereza {facture /fak.tyʁ/} vuba.',
  'Jya kuri {caisse /kɛs/} wishyure.',
  'Jya kuri {banque /bɑ̃k/} ejo.',
  'Nta {monnaie /mɔ.nɛ/} mfite.',
  'Gura {billet /bi.jɛ/} ubu.',
  'Ni {cadeau /ka.do/} cyiza.',
  'Ni {gâteau /ɡɑ.to/} cyiza.',
  'Shyira mu {frigo /fʁi.ɡo/}.',
  'Ndashaka {salade /sa.lad/} nziza.',
  'Ndashaka {limonade /li.mɔ.nad/} nkeya.',
  'Ni {avocat /a.vɔ.ka/} wanjye.',
  'Ni {famille /fa.mij/} yanjye.',
  'Ni {tonton /tɔ̃.tɔ̃/} wanjye.',
  'Ni {mariage /ma.ʁjaʒ/} mwiza.',
  'Ni {anniversaire /a.ni.vɛʁ.sɛʁ/} yanjye.',
  'Ni {fête /fɛt/} nziza.',
  'Jya ku {école /e.kɔl/} ejo.',
  'Jya ku {université /y.ni.vɛʁ.si.te/} ejo.',
  'Ni {étudiant /e.ty.djɑ̃/} mwiza.',
  'Ni {professeur /pʁɔ.fɛ.sœʁ/} wacu.',
  'Dufite {examen /ɛɡ.za.mɛ̃/} ejo.',
  'Ndi mu {vacances /va.kɑ̃s/} ubu.',
  'Mfite {congé /kɔ̃.ʒe/} ejo.',
  'Jya ku {hôpital /o.pi.tal/} vuba.',
  'Ni {docteur /dɔk.tœʁ/} wanjye.',
  'Ni {infirmière /ɛ̃.fiʁ.mjɛʁ/} nziza.',
  'Gura {médicament /me.di.ka.mɑ̃/} ubu.',
  'Zana {ordonnance /ɔʁ.dɔ.nɑ̃s/} yawe.',
  'Ni {santé /sɑ̃.te/} nziza.',
  '{Bonjour /bɔ̃.ʒuʁ/} mwese.',
  '{Merci /mɛʁ.si/} cyane.',
  'Ni {madame /ma.dam/} wanjye.',
  'Ni {vraiment /vʁɛ.mɑ̃/} byiza.',
  'Ni {problème /pʁɔ.blɛm/} ukomeye.',
  'Dufite {rendez-vous /ʁɑ̃.de.vu/} ejo.',
].map((line) => marked('french-in-kinyarwanda', 'rw', 'fr', line, frenchSource));

// ---- Addresses in Kinyarwanda sentences with foreign words ----
const ADDRESS =
  'the address readings of the Kinyarwanda readings corpus (test/speech/text/rw/readings-corpus.ts: "kuri" for @, "akadomo" for the dot, letter names)';
const ADDRESSES = [
  'Ohereza {email} kuri info@ijwi.rw.',
  'Ohereza {invoice} kuri info@ijwi.rw.',
  'Kora {booking} kuri ijwi.rw.',
  'Reba {video} kuri igihe.com.',
  'Ohereza {password} kuri info@ijwi.rw.',
  'Saba {receipt} kuri info@ijwi.rw.',
].map((line) => marked('addresses', 'rw', 'en', line, `${englishSource}; ${ADDRESS}`));

// ---- Native lines: nothing may change ----
const RW_LOOKALIKES =
  'Kinyarwanda words that look English (labelled set, bench/word-language/labelled-words.ts: bite, ubu, mama, data, he, hose, se, ni, si)';
const RW_LOANS =
  'Loans written the Kinyarwanda way are Kinyarwanda words (Kayigema 2010: telefoni, radiyo, banki, bisi, tagisi, farumasi)';
const RW_EVERYDAY = 'Everyday Kinyarwanda (I. Jacob, "Dictionnaire rwandais-français"; kinyarwanda.net)';
const EN_LOOKALIKES =
  'English words that look Kinyarwanda, open syllables (labelled set, bench/word-language/labelled-words.ts; Carnegie Mellon Pronouncing Dictionary)';
const FR_LOOKALIKES =
  'French words that look Kinyarwanda, open syllables (labelled set, bench/word-language/labelled-words.ts; Wiktionnaire)';

const NATIVE_KINYARWANDA = [
  ...[
    'Ubu ni bite?',
    'Bite se?',
    'Mama ari he?',
    'Data yagiye ku kazi.',
    'Hose hari amazi.',
    'Ni byiza.',
    'Si we.',
    'Mama na data baraje.',
    'Ubu ndi mu rugo.',
    'Uri he ubu?',
  ].map((text) => native('rw', text, RW_LOOKALIKES)),
  ...[
    'Nzaguha telefoni.',
    'Banki irafunze.',
    'Tugende kuri farumasi.',
    'Bisi iraje.',
    'Tagisi ni nziza.',
    'Radiyo irasakuza.',
  ].map((text) => native('rw', text, RW_LOANS)),
  ...[
    'Muraho neza.',
    'Murakoze cyane.',
    'Amakuru yawe?',
    'Ndashaka kujya i Kigali.',
    'Turi kumwe.',
    'Imodoka iri he?',
    'Ndi umunyeshuri.',
    'Amazi ni ubuzima.',
    'Umwana arakina hanze.',
    'Ejo tuzasura Musanze.',
    'Mwaramutse mwese.',
    'Nagiye ku isoko.',
    'Izuba rirava.',
    'Abana bariga.',
  ].map((text) => native('rw', text, RW_EVERYDAY)),
];

const NATIVE_ENGLISH = [
  'The banana is ripe.',
  'Uganda is a neighbour.',
  'Bring the camera.',
  'The agenda is long.',
  'Kenya is to the north.',
  'Obama spoke today.',
  'The data is ready.',
  'Save the file.',
  'Do not bite your nails.',
  'My mama is home.',
  'Panama and Canada.',
  'The gorilla is asleep.',
  'A safari in the savanna.',
  'Tomato and potato.',
  'The cinema is open.',
  'A sofa and a piano.',
  'The tsunami came.',
  'A kimono for karate.',
  'Propaganda on the veranda.',
  'Salami and macaroni.',
  'The anaconda is long.',
  'A mango on the menu.',
].map((text) => native('en', text, EN_LOOKALIKES));

const NATIVE_FRENCH = [
  "J'aime la banane.",
  'La moto est rapide.',
  'Un kilo de tomates.',
  'Madame Martin arrive.',
  'Une minute de plus.',
  "Le Kenya et l'Ouganda.",
  'Il a une caméra.',
  "L'agenda est plein.",
  'Le samedi matin.',
  'Le gorille dort.',
  'Le sofa est bleu.',
  'Une tomate rouge.',
  'Le piano noir.',
  'Le domino tombe.',
  'Le Canada et le Panama.',
  'Un kimono de karaté.',
  'Le tsunami arrive.',
  'Un safari au Kenya.',
  'La limonade est fraîche.',
  'Le menu du jour.',
  'Une salade de papaye.',
  'La banane et la mangue.',
].map((text) => native('fr', text, FR_LOOKALIKES));

/** Every case, in the order they are read. */
export const CROSS_LANGUAGE_CASES: readonly CrossLanguageCase[] = [
  ...KINYARWANDA_IN_ENGLISH,
  ...KINYARWANDA_IN_FRENCH,
  ...ENGLISH_IN_KINYARWANDA,
  ...FRENCH_IN_KINYARWANDA,
  ...ADDRESSES,
  ...NATIVE_KINYARWANDA,
  ...NATIVE_ENGLISH,
  ...NATIVE_FRENCH,
];
