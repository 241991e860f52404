import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { kinyarwandaToEspeak, kinyarwandaToIpa } from '../../../../src/speech/text/rw/g2p.ts';
import { expectCases } from '../../../helpers/cases.ts';
import { espeakSpeaker, type Spoken } from '../../../helpers/espeak-phonemes.ts';

type Case = readonly [spelling: string, ipa: string];

const expectIpa = (cases: readonly Case[]) => expectCases(kinyarwandaToIpa, cases);

describe('kinyarwandaToIpa', () => {
  // Myers & Crowhurst, "Phonology of Kinyarwanda: palatalisation" (University of Texas at
  // Austin): velars before back vowels, palatals before front vowels, [β] for b, long vowels
  // before prenasalised consonants. Their transcriptions, tone marks and final [ʰ] left out.
  describe('palatals, [β] and long vowels (Myers & Crowhurst)', () => {
    expectIpa([
      ['umugabo', 'umuɡaβo'],
      ['umuganga', 'umuɡaːŋɡa'],
      ['kare', 'kaɾe'],
      ['gukata', 'ɡukata'],
      ['urugo', 'uɾuɡo'],
      ['umugore', 'umuɡoɾe'],
      ['igikombe', 'iɟikoːmbe'],
      ['ingurube', 'iŋɡuɾuβe'],
      ['kwandika', 'kwaːndika'],
      ['kugenda', 'kuɟeːnda'],
      ['umugezi', 'umuɟezi'],
      ['gukenyera', 'ɡuceɲeɾa'],
      ['gukeba', 'ɡuceβa'],
      ['umugi', 'umuɟi'],
      ['igi', 'iɟi'],
      ['gukina', 'ɡucina'],
      ['gukinga', 'ɡuciːŋɡa'],
    ]);
  });

  // Kinyarwanda.net (R. Cawley), "Pronunciation: letters": each letter and consonant
  // combination with an example word and its English respelling (c "ch", j "z in azure",
  // jy "hard j", l "almost like r", mp "mh", nk "ngh", nt "nh", bw "bg", rw "with a g",
  // ry "rdj", sw "skw").
  describe('letters and combinations (Kinyarwanda.net pronunciation guide)', () => {
    expectIpa([
      ['amata', 'amata'],
      ['ejo', 'eʒo'],
      ['igiti', 'iɟiti'],
      ['amahoro', 'amahoɾo'],
      ['umuntu', 'umuːnhu'],
      ['ibibabi', 'iβiβaβi'],
      ['icupa', 'it͡ʃupa'],
      ['ijuru', 'iʒuɾu'],
      ['leta', 'ɾeta'],
      ['amarira', 'amaɾiɾa'],
      ['ikiyiko', 'icijiko'],
      ['izuba', 'izuβa'],
      ['ubwoba', 'uβɡwoβa'],
      ['kujya', 'kuɟa'],
      ['impanga', 'imhaːŋɡa'],
      ['inka', 'iŋha'],
      ['u Rwanda', 'u ɾɡwaːnda'],
      ['umuryango', 'umuɾɟaːŋɡo'],
      ['umuswa', 'umuskwa'],
      ['Kigali', 'ciɡaɾi'],
    ]);
  });

  // Kinyarwanda.net, "Spelling": the words its sound-change rules produce (umu+ana, ku+iga,
  // imi+enda, iki+obo, in+bwa, n+fite, in+oga, n+iza, in+rwara, n+ra+kora, n+huza...).
  describe('words from the spelling rules (Kinyarwanda.net)', () => {
    expectIpa([
      ['umwana', 'umŋwana'],
      ['kwiga', 'kwiɡa'],
      ['imyenda', 'imɲeːnda'],
      ['icyobo', 'icoβo'],
      ['abana', 'aβana'],
      ['imbwa', 'imbɡwa'],
      ['mfite', 'mfite'],
      ['inzoga', 'inzoɡa'],
      ['nziza', 'nziza'],
      ['indwara', 'indɡwaɾa'],
      ['ndakora', 'ndakoɾa'],
      ['mpuzamahanga', 'mhuzamahaːŋɡa'],
    ]);
  });

  // Wikibooks, "Kinyarwanda/Orthography": impamvu [imhaâmvu] (mp as [mh], first vowel short);
  // l only in loans (Libiya, Alijeriya, idolari), the same liquid as r.
  describe('mp as [mh] and loans with l (Wikibooks)', () => {
    expectIpa([
      ['impamvu', 'imhaːmvu'],
      ['Libiya', 'ɾiβija'],
      ['idolari', 'idoɾaɾi'],
      ['Alijeriya', 'aɾiʒeɾija'],
    ]);
  });

  // Wikipedia, "Kinyarwanda": the article's own transcription [i.ci.ɲɑ.ɾɡwɑː.ndɑ]; the
  // orthography table (c [t͡ʃ], cy [c], j [ʒ], jy [ɟ], ny [ɲ], sh [ʃ], pf, ts); the Cw/Cy table,
  // shown here as the bare spellings it lists; the glides strengthen to stops.
  describe('orthography and Cw/Cy tables (Wikipedia)', () => {
    expectIpa([
      ['Ikinyarwanda', 'iciɲaɾɡwaːnda'],
      ['Rwanda', 'ɾɡwaːnda'],
      ['icyayi', 'icaji'],
      ['cyane', 'cane'],
      ['inyama', 'iɲama'],
      ['ishuri', 'iʃuɾi'],
      ['inshuti', 'inʃuti'],
      ['gupfa', 'ɡup͡fa'],
      ['gutsinda', 'ɡut͡siːnda'],
      ['bwa', 'βɡwa'],
      ['cwa', 't͡ʃkwa'],
      ['jwa', 'ʒɡwa'],
      ['mwa', 'mŋwa'],
      ['nwa', 'ŋwa'],
      ['nywa', 'ɲŋwa'],
      ['pwa', 'pkwa'],
      ['rwa', 'ɾɡwa'],
      ['shwa', 'ʃkwa'],
      ['swa', 'skwa'],
      ['twa', 'tkwa'],
      ['bya', 'βɟa'],
      ['mya', 'mɲa'],
      ['pya', 'pca'],
      ['rya', 'ɾɟa'],
      ['shya', 'ʃca'],
      ['vya', 'vɟa'],
    ]);
  });

  // Common words (the product issue's list; meanings from the Kinyarwanda.net dictionary),
  // each through the rules above: ny, sh, cy, nj + ng, mw, nt, mp + mv, mf, nz, ng, by, ry,
  // nyw, jw, my, shy + nt, shy + ng, nk.
  describe('everyday words', () => {
    expectIpa([
      ['muraho', 'muɾaho'],
      ['amakuru', 'amakuɾu'],
      ['injangwe', 'inʒaːŋɡwe'],
      ['abantu', 'aβaːnhu'],
      ['imfura', 'imfuɾa'],
      ['inzu', 'inzu'],
      ['ingoma', 'iŋɡoma'],
      ['ibyo', 'iβɟo'],
      ['abyo', 'aβɟo'],
      ['kurya', 'kuɾɟa'],
      ['ibiryo', 'iβiɾɟo'],
      ['kunywa', 'kuɲŋwa'],
      ['ijwi', 'iʒɡwi'],
      ['imyaka', 'imɲaka'],
      ['Gashyantare', 'ɡaʃcaːnhaɾe'],
      ['Ugushyingo', 'uɡuʃciːŋɡo'],
      ['Werurwe', 'weɾuɾɡwe'],
    ]);
  });

  // Written elision: the apostrophe joins the consonant to the next word's vowel and the
  // elided vowel is not said. n'ijana, y'u Rwanda, k'umunsi (na + ijana, ya + u, ku + umunsi);
  // the anthem line as Wikipedia ("Kinyarwanda", Orthography) writes its spoken form.
  describe('elision and sentences (Wikipedia; Kinyarwanda.net)', () => {
    expectIpa([
      ["n'ijana", 'niʒana'],
      ["y'u Rwanda", 'ju ɾɡwaːnda'],
      ["k'umunsi", 'kumuːnsi'],
      ['n’ijana', 'niʒana'],
      ["tukuvug' ibigwi", 'tukuvuɟiβiɡwi'],
      [
        "Reka tukurate tukuvug' ibigwi wow' utubumbiye hamwe twes' abanyarwand' uko watubyaye berwa, sugira singizw' iteka.",
        'ɾeka tukuɾate tukuvuɟiβiɡwi wowutuβuːmbije hamŋwe tkwesaβaɲaɾɡwaːnduko watuβɟaje βeɾɡwa, suɟiɾa siːŋɟizɡwiteka.',
      ],
      ['Muraho, amakuru?', 'muɾaho, amakuɾu?'],
      ['naaa', 'naː'],
      ['inká', 'iŋha'],
    ]);
  });

  it('keeps punctuation and drops quotes, digits and symbols', () => {
    assert.equal(kinyarwandaToIpa('«Muraho» 12 # (amakuru)!'), 'muɾaho (amakuɾu)!');
    assert.equal(kinyarwandaToIpa('Kigali-Huye'), 'ciɡaɾi-huje');
  });
});

describe('kinyarwandaToEspeak', () => {
  it('stresses the penultimate syllable of each word and leaves one-syllable words unmarked', () => {
    assert.equal(kinyarwandaToEspeak('umugabo'), "[[umu'gaBo]]");
    assert.equal(kinyarwandaToEspeak("y'u Rwanda"), "[[ju '*gwa:nda]]");
    assert.equal(kinyarwandaToEspeak('inzu'), "[['inzu]]");
  });

  it('keeps punctuation outside the brackets, one mark where several meet', () => {
    assert.equal(kinyarwandaToEspeak('Muraho, amakuru?'), "[[mu'*aho]], [[ama'ku*u]]?");
    assert.equal(
      kinyarwandaToEspeak('Muraho?! Amakuru; ni meza.'),
      "[[mu'*aho]]? [[ama'ku*u]]; [[ni 'meza]].",
    );
    assert.equal(kinyarwandaToEspeak('(muraho) — amakuru…'), "[[mu'*aho]], [[ama'ku*u]].");
  });

  it('drops what is not Kinyarwanda spelling', () => {
    assert.equal(kinyarwandaToEspeak('"Muraho" 42 # @ Привет'), "[[mu'*aho]]");
    assert.equal(kinyarwandaToEspeak('...!?'), '');
    assert.equal(kinyarwandaToEspeak(''), '');
  });
});

describe('odd input', () => {
  const odd = [
    '',
    ' ',
    "'",
    "''''",
    "n'",
    "'a",
    '[[',
    ']]',
    "[[mu'*aho]]",
    'x'.repeat(5000),
    'nnnnnnnn',
    'aaaaaaaa',
    'yyy www',
    '\u0000\uD800\uDFFF\u200B',
    'a\uD800b\uDC00',
    '🙂 muraho 🙂',
    '\t\n\r',
    ',,,;;;...',
    'ÀÉÎÕÜ çñ ß',
  ];
  for (const text of odd) {
    it(`${JSON.stringify(text.slice(0, 20))} gives strings and well-formed engine input`, () => {
      assert.equal(typeof kinyarwandaToIpa(text), 'string');
      const espeak = kinyarwandaToEspeak(text);
      // Only whole [[...]] groups with no brackets inside, each followed by at most one mark.
      assert.match(espeak, /^(?:\[\[[^[\]]+\]\](?:[,;:.?!] ?)?)*$/);
    });
  }

  it('is deterministic and fast', () => {
    const text = "Muraho, amakuru y'u Rwanda? Abantu barya ibiryo by'ubwoko bwinshi. ".repeat(200);
    const started = performance.now();
    const first = kinyarwandaToEspeak(text);
    const elapsed = performance.now() - started;
    assert.equal(kinyarwandaToEspeak(text), first);
    assert.equal(kinyarwandaToIpa(text), kinyarwandaToIpa(text));
    assert.ok(elapsed < 200, `${elapsed} ms for ${text.length} characters`);
  });
});

// espeak-ng itself: every mnemonic the module emits must be one the `sw` phoneme table has.
// An unknown mnemonic makes espeak-ng drop or re-read the rest of the group, so the phonemes it
// reports (phoneme events of a real synthesis: the IPA trace reads its input as text, so it
// does not honour `[[ ]]`) no longer match the IPA. espeak-ng reports no length mark and splits affricates.
describe('kinyarwandaToEspeak through espeak-ng (sw)', () => {
  let speak: (voice: string, input: string) => Spoken;

  before(async () => {
    speak = await espeakSpeaker();
  });

  const spoken = (input: string): Spoken => speak('sw', input);

  const asReported = (ipa: string) => ipa.replace(/[ː\s\p{P}]/gu, '').replace(/͡/g, '');

  it('detects an unknown mnemonic (the check can fail)', () => {
    assert.notEqual(spoken('[[aGa]]').phonemes.join('').replace(/ˈ/g, ''), 'aɡa');
  });

  const words = [
    "Muraho, amakuru y'u Rwanda?",
    'Ikinyarwanda',
    'inyama ishuri icyayi injangwe',
    'umwana abantu impamvu imfura',
    'inzu ingoma umugabo ibyo kurya',
    "n'ijana k'umunsi kunywa ijwi",
    'imyaka Gashyantare inka gupfa gutsinda',
    'Kigali hamwe twese umuswa ubwoba',
    'cwa shwa pwa fwa vwa zwa dwa nwa',
    'pya fya vya shya mbwa',
    'ikiyiko icupa ijuru umuryango',
  ];
  for (const text of words) {
    it(`says ${JSON.stringify(text)} as its IPA`, () => {
      const { phonemes } = spoken(kinyarwandaToEspeak(text));
      assert.equal(phonemes.join('').replace(/ˈ/g, ''), asReported(kinyarwandaToIpa(text)));
    });
  }

  it('puts the stress where the module marks it', () => {
    const { phonemes } = spoken(kinyarwandaToEspeak('amakuru umugabo'));
    assert.deepEqual(
      phonemes.filter((p) => p.startsWith('ˈ')),
      ['ˈu', 'ˈa'],
    );
    assert.deepEqual(phonemes.slice(0, 5), ['a', 'm', 'a', 'k', 'ˈu']);
  });

  it('makes long vowels longer', () => {
    const long = kinyarwandaToEspeak('Rwanda');
    assert.ok(long.includes(':'));
    assert.ok(spoken(long).samples > spoken(long.replace(':', '')).samples);
  });

  it('pauses longer at a full stop than at a comma, and not at all between words', () => {
    const plain = spoken(kinyarwandaToEspeak('muraho amakuru')).samples;
    const comma = spoken(kinyarwandaToEspeak('muraho, amakuru')).samples;
    const stop = spoken(kinyarwandaToEspeak('muraho. amakuru')).samples;
    assert.ok(plain < comma && comma < stop, `${plain} ${comma} ${stop}`);
  });
});
