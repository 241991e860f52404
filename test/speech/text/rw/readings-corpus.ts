/**
 * Kinyarwanda readings checked against published sources: each case is a text as written, the
 * reading Ijwi must give, and the source the reading comes from (a page, a course, a reference
 * normaliser's rule). Where another source reads the case differently, `disagrees` names it and
 * its reading; the choice between them is explained in src/speech/text/rw/README.md.
 *
 * Run through the public command line (test/cli/say-readings.test.ts) and through the file
 * endpoint (test/http/readings.test.ts).
 */

export interface Reading {
  readonly text: string;
  readonly reading: string;
  readonly source: string;
  readonly disagrees?: string;
}

/** An SSML `say-as` case: its content read as `interpretAs`. */
export interface SayAsReading extends Reading {
  readonly interpretAs: string;
}

const ELIAS = 'Harvard ELIAS Kinyarwanda course (elias.unix.fas.harvard.edu)';
const ELIAS_MATH = 'https://elias.unix.fas.harvard.edu/unit-grammar/fundamental-mathematics';
const ELIAS_TIME = `${ELIAS}, "Unit 3: Telling time in Kinyarwanda"`;
const ELIAS_ORDINALS = `${ELIAS}, "Grammar: Cardinal and ordinal numbers" (ukwezi kwa mbere)`;
const MORPHOKIN = 'github.com/anzeyimana/morphokin, morphokin/data/kinyarwanda.py';
const CLDR = 'Unicode CLDR, common/main/rw.xml';
const RWA_TIME = 'github.com/knowbee/rwa-time, lib/index.js';
const GUSOMA = 'github.com/knowbee/gusoma, README.md examples';
const WIKIBOOKS = 'https://fr.wikibooks.org/wiki/Enseignement_du_kinyarwanda_%E2%80%93_Nombres';
const LANGUAGES_AND_NUMBERS = 'https://www.languagesandnumbers.com/comment-compter-en-kinyarwanda/fr/kin/';
const KIGALI_TODAY =
  'https://www.kigalitoday.com/inkuru-zicukumbuye/article/amajyepfo-muhanga-ni-yo-ifite-amatara-menshi-ku-muhanda-ariko-igice-kinini';
const CENTIMETRES =
  'http://muhivier.over-blog.fr/article-urwenya-kwiyandikisha-ni-bibiri-kwiyandikuza-ni-bitanu-108319788.html';
const LITRE = 'https://kiny.taarifa.rw/i-gicumbi-haba-inzoga-yitwa-nzoga-ejo/ ("Litiro imwe(1)", "Frw 200")';
const FIRST_OF_MONTH = 'https://ar.umuseke.rw/umuganura-umuco-uri-kuducika.hmtl ("Kuya mbere Kanama")';
const YEARS = 'https://ar.umuseke.rw/umuganura-umuco-uri-kuducika.hmtl ("mu mwaka w\'i 1945- 1946")';
const TARIKI_MBERE = 'https://www.amakuruki.com/tag/athanase-mutarambirwa ("Tariki ya mbere Nyakanga")';
const IGICUMBI =
  'http://igicumbi.com/index.php/ibirori?start=56 ("tariki ya 10 Mata 1957", "mu mwaka w\'1959")';
const KUVA_KUGEZA = 'http://projet-dvjp.net/2015/12/29/ ("kuva Urwanda rwabona ubwigenge kugeza ubu")';
const HEIGHT =
  'https://kglnews.com/amp/dore-impamvu-abakobwa-bakunda-abahungu-bameze-nka-kylian-mbappe-dore-ibyo-bagomba-kuba-bujuje ("1,70 m")';

// Addresses: the words for their signs (src/speech/text/rw/README.md, "Addresses").
const ORCA_RW =
  'GNOME Orca po/rw.po, Kinyarwanda translation team 2005, character names (src/orca/chnames.py)';
const DOT = `Unicode CLDR common/annotations/rw.xml (💠 "ikaro ifite akadomo", a diamond with a dot); ${ORCA_RW}: dot "Akadomo"`;
const AT =
  'decision awaiting a native speaker\'s review: "kuri", Kinyarwanda for "at" (English "at" is also said); no published reading found';
const SLASH = `${ORCA_RW}: slash "AKARONGOKABERAMYE" (akarongo kaberamye, a slanting little line)`;
const DASH = `${ORCA_RW}: dash "AKANYEREZO"`;
const UNDERSCORE =
  'decision awaiting a native speaker\'s review: "akanyerezo ko hasi", the low dash (French "tiret bas")';
const WWW =
  "decision awaiting a native speaker's review: the letter name W of letters.ts (dabuliyu) three times";
const LETTERS = "letter names of src/speech/text/rw/letters.ts (decision awaiting a native speaker's review)";
const FULL_STOP =
  'Kinyarwanda orthography rules, art. 22, "Akabago (.) gasoza interuro ihamya" (https://ubuvanganzo.blog4ever.com/imyandikire-y-ikinyarwanda-4): the last dot ends the sentence';

const hours = `${ELIAS_TIME}; ${RWA_TIME} (Saa Mbiri... Saa Yine); ${MORPHOKIN} hour_map`;
const range = (what: string) => `${KUVA_KUGEZA}; ${what}`;
const kuForms = `${MORPHOKIN} post-replacements (kugeza ku munani, ku ijana, ku icumi, ku gihumbi, ku bihumbi)`;
const hyphenRange = `${MORPHOKIN} replace_hyphen reads N-M as "N kugera kuri M", with no "kuva"`;
const decimalRule = `${MORPHOKIN} spell_decimal (n'ibice + digits as a number in class bi-; .1 n'igice kimwe)`;
const unitRule = (unit: string) => `${MORPHOKIN} token_map and rw_prefix: ${unit}, unit before the number`;
const year2026 = "umwaka w'ibihumbi bibiri na makumyabiri na gatandatu";
const year2024 = "umwaka w'ibihumbi bibiri na makumyabiri na kane";

/** Plain-text cases, in running text and as opening-hours lists. */
export const READINGS: readonly Reading[] = [
  // Ranges of clock times.
  {
    text: '08:00-17:00',
    reading: "kuva saa mbiri za mu gitondo kugeza saa kumi n'imwe z'umugoroba",
    source: range(hours),
    disagrees: hyphenRange,
  },
  {
    text: 'Dufungura 07:30 - 16:30.',
    reading: "Dufungura kuva saa moya n'igice za mu gitondo kugeza saa kumi n'igice z'umugoroba.",
    source: range(hours),
  },
  {
    text: 'saa 8:00 - saa 12:00',
    reading: "kuva saa mbiri za mu gitondo kugeza saa sita z'amanywa",
    source: range(hours),
  },
  {
    text: '8h-17h',
    reading: "kuva saa mbiri za mu gitondo kugeza saa kumi n'imwe z'umugoroba",
    source: range(hours),
  },
  {
    text: '9h30-11h',
    reading: "kuva saa tatu n'igice za mu gitondo kugeza saa tanu z'amanywa",
    source: range(hours),
  },
  {
    text: '14:00–16:00',
    reading: "kuva saa munani z'amanywa kugeza saa kumi z'umugoroba",
    source: range(hours),
  },
  {
    text: '18:00-22:00',
    reading: "kuva saa kumi n'ebyiri z'umugoroba kugeza saa yine z'ijoro",
    source: range(hours),
    disagrees: 'the issue notes "saa ine" for 22:00 in some texts',
  },
  {
    text: '20:00-06:00',
    reading: "kuva saa mbiri z'ijoro kugeza saa kumi n'ebyiri za mu gitondo",
    source: range(hours),
  },
  {
    text: 'Inama izaba 10:00-12:30.',
    reading: "Inama izaba kuva saa yine za mu gitondo kugeza saa sita n'igice z'amanywa.",
    source: range(hours),
  },
  {
    text: 'Saa 7:00-9:00',
    reading: 'Kuva saa moya za mu gitondo kugeza saa tatu za mu gitondo',
    source: range(hours),
  },
  {
    text: '13:15-13:45',
    reading:
      "kuva saa saba n'iminota cumi n'itanu z'amanywa kugeza saa saba n'iminota mirongo ine n'itanu z'amanywa",
    source: range(`${MORPHOKIN} spell_time (n'iminota, class mi-)`),
  },
  {
    text: '12:00 - 13:00',
    reading: "kuva saa sita z'amanywa kugeza saa saba z'amanywa",
    source: range(hours),
  },
  {
    text: 'Ibiro byacu bikora kuva 08:00-17:00.',
    reading: "Ibiro byacu bikora kuva saa mbiri za mu gitondo kugeza saa kumi n'imwe z'umugoroba.",
    source: range(hours),
  },

  // Opening-hours lists: weekdays and hours.
  {
    text: 'Kuwa Mbere - Kuwa Gatanu: 08:00 - 17:00',
    reading:
      "Kuva kuwa mbere kugeza kuwa gatanu: kuva saa mbiri za mu gitondo kugeza saa kumi n'imwe z'umugoroba",
    source: range(`${CLDR} weekdays (Kuwa mbere); ${hours}`),
  },
  {
    text: 'Kuwa Gatandatu: 09:00 - 13:00',
    reading: "Kuwa Gatandatu: kuva saa tatu za mu gitondo kugeza saa saba z'amanywa",
    source: range(`${CLDR} weekdays; ${hours}`),
  },
  {
    text: 'Ku Cyumweru: 14:00 - 18:00',
    reading: "Ku Cyumweru: kuva saa munani z'amanywa kugeza saa kumi n'ebyiri z'umugoroba",
    source: range(`${CLDR} weekdays (Ku cyumweru); ${hours}`),
  },
  {
    text: 'ku wa mbere - ku wa gatandatu',
    reading: 'kuva ku wa mbere kugeza ku wa gatandatu',
    source: range(`${CLDR} weekdays; ${RWA_TIME} weekdays`),
  },
  {
    text: 'Kuwa Kabiri–Kuwa Kane',
    reading: 'Kuva kuwa kabiri kugeza kuwa kane',
    source: range(`${CLDR} weekdays; ${RWA_TIME} weekdays`),
  },
  {
    text: 'Kuwa Gatandatu - Ku Cyumweru',
    reading: 'Kuva kuwa gatandatu kugeza ku cyumweru',
    source: range(`${CLDR} weekdays; ${RWA_TIME} weekdays`),
  },
  {
    text: "Amasaha y'akazi: ku wa mbere - ku wa gatanu, 7:00 - 17:00.",
    reading:
      "Amasaha y'akazi: kuva ku wa mbere kugeza ku wa gatanu, kuva saa moya za mu gitondo kugeza saa kumi n'imwe z'umugoroba.",
    source: range(`${CLDR} weekdays; ${hours}`),
  },
  {
    text: 'Kuwa Mbere - Kuwa Gatanu',
    reading: 'Kuva kuwa mbere kugeza kuwa gatanu',
    source: range(`${CLDR} weekdays`),
  },

  // Ranges of dates and years.
  {
    text: '5-10 Gicurasi 2026',
    reading: `kuva tariki ya gatanu kugeza ku ya cumi gicurasi ${year2026}`,
    source: range(`${FIRST_OF_MONTH}; ${CLDR} months`),
  },
  {
    text: 'tariki ya 1-3 Kanama',
    reading: 'kuva tariki ya mbere kugeza ku ya gatatu kanama',
    source: range(`${FIRST_OF_MONTH}; ${TARIKI_MBERE}`),
  },
  {
    text: 'Itariki 12-15 Ukuboza',
    reading: "Kuva itariki ya cumi n'ebyiri kugeza ku ya cumi n'eshanu ukuboza",
    source: range(`${FIRST_OF_MONTH}; ${CLDR} months`),
  },
  {
    text: '1 - 7 Mata 2024',
    reading: `kuva tariki ya mbere kugeza ku ya karindwi mata ${year2024}`,
    source: range(`${FIRST_OF_MONTH}; ${CLDR} months`),
  },
  {
    text: '20–25 Nzeri',
    reading: "kuva tariki ya makumyabiri kugeza ku ya makumyabiri n'eshanu nzeri",
    source: range(`${FIRST_OF_MONTH}; ${CLDR} months`),
  },
  {
    text: '12/05/2026 - 15/05/2026',
    reading: `kuva tariki ya cumi n'ebyiri gicurasi ${year2026} kugeza tariki ya cumi n'eshanu gicurasi ${year2026}`,
    source: range(`${CLDR} date order dd-MM-y; ${IGICUMBI}`),
  },
  {
    text: '5 Gicurasi - 10 Kamena 2026',
    reading: `kuva tariki ya gatanu gicurasi kugeza tariki ya cumi kamena ${year2026}`,
    source: range(`${CLDR} months; ${IGICUMBI}`),
  },
  {
    text: 'Isoko rizaba 5-10 Gicurasi 2026 i Kigali.',
    reading: `Isoko rizaba kuva tariki ya gatanu kugeza ku ya cumi gicurasi ${year2026} i Kigali.`,
    source: range(FIRST_OF_MONTH),
  },
  {
    text: '1994-2000',
    reading:
      "kuva mu mwaka w'igihumbi na magana cyenda na mirongo icyenda na kane kugeza mu mwaka w'ibihumbi bibiri",
    source: range(`${IGICUMBI}; ${YEARS}`),
    disagrees: hyphenRange,
  },
  {
    text: 'Mu 1959-1962',
    reading:
      "Kuva mu mwaka w'igihumbi na magana cyenda na mirongo itanu n'icyenda kugeza mu mwaka w'igihumbi na magana cyenda na mirongo itandatu na kabiri",
    source: range(`${IGICUMBI}; ${YEARS}`),
  },
  {
    text: 'mu 1945-1946',
    reading:
      "kuva mu mwaka w'igihumbi na magana cyenda na mirongo ine na gatanu kugeza mu mwaka w'igihumbi na magana cyenda na mirongo ine na gatandatu",
    source: range(YEARS),
  },
  {
    text: '2020–2024',
    reading:
      "kuva mu mwaka w'ibihumbi bibiri na makumyabiri kugeza mu mwaka w'ibihumbi bibiri na makumyabiri na kane",
    source: range(YEARS),
  },

  // Ranges of amounts.
  {
    text: '5000-10000 Frw',
    reading: 'amafaranga kuva ku bihumbi bitanu kugeza ku bihumbi icumi',
    source: range(kuForms),
    disagrees: hyphenRange,
  },
  {
    text: 'Frw 500 - 1.000',
    reading: 'amafaranga kuva kuri magana atanu kugeza ku gihumbi',
    source: range(kuForms),
  },
  { text: '$5-10', reading: 'amadolari kuva kuri atanu kugeza ku icumi', source: range(kuForms) },
  {
    text: '10-15%',
    reading: 'kuva ku icumi kugeza kuri cumi na gatanu ku ijana',
    source: range(`${kuForms}; ${MORPHOKIN} token_map "%": ku ijana`),
  },
  {
    text: 'abantu 10-15',
    reading: 'abantu kuva ku icumi kugeza kuri cumi na batanu',
    source: range(`${kuForms}; ${WIKIBOOKS} agreement table`),
  },
  {
    text: 'imyaka 18-25',
    reading: "imyaka kuva kuri cumi n'umunani kugeza kuri makumyabiri n'itanu",
    source: range(`${kuForms}; ${WIKIBOOKS} agreement table (umu-/imi-)`),
  },
  {
    text: 'iminsi 3-5',
    reading: 'iminsi kuva kuri itatu kugeza kuri itanu',
    source: range(`${kuForms}; ${MORPHOKIN} rw_prefix (iminsi: mi-)`),
  },
  {
    text: '5-8',
    reading: 'kuva kuri gatanu kugeza ku munani',
    source: range(kuForms),
    disagrees: hyphenRange,
  },
  { text: '100-200', reading: 'kuva ku ijana kugeza kuri magana abiri', source: range(kuForms) },
  { text: '1000-2000', reading: 'kuva ku gihumbi kugeza ku bihumbi bibiri', source: range(kuForms) },
  {
    text: '5-10 km',
    reading: 'ibirometero kuva kuri bitanu kugeza ku icumi',
    source: range(`${kuForms}; ${unitRule('km')}`),
  },
  {
    text: '20-25°C',
    reading: "dogere selisiyusi kuva kuri makumyabiri kugeza kuri makumyabiri n'eshanu",
    source: range(`${kuForms}; ${unitRule('°C dogere selisiyusi, class zi-')}`),
  },

  // Units after numbers, with agreement.
  {
    text: '5 km',
    reading: 'ibirometero bitanu',
    source: 'REB Kinyarwanda textbooks (elearning.reb.rw): ibirometero',
    disagrees: `${MORPHOKIN} reads km as "kilometero" in class zi- (kilometero eshanu)`,
  },
  {
    text: '1 km',
    reading: 'ikirometero kimwe',
    source: 'REB Kinyarwanda textbooks (elearning.reb.rw): ibirometero',
    disagrees: `${MORPHOKIN}: kilometero imwe`,
  },
  {
    text: '12 km',
    reading: 'ibirometero cumi na bibiri',
    source: 'REB Kinyarwanda textbooks (elearning.reb.rw): ibirometero',
  },
  {
    text: '2,5 km',
    reading: "ibirometero bibiri n'igice",
    source: `${ELIAS_MATH} (2 1/2 kabiri n'igice); ${unitRule('km')}`,
  },
  { text: '100 m', reading: 'metero ijana', source: unitRule('m metero, class zi-') },
  {
    text: '35 m',
    reading: "metero mirongo itatu n'eshanu",
    source: `${KIGALI_TODAY} ("metero zitarenze 35"); ${unitRule('m metero')}`,
  },
  { text: '1 m', reading: 'metero imwe', source: unitRule('m metero, class zi-') },
  { text: '1,70 m', reading: "metero imwe n'ibice mirongo irindwi", source: `${HEIGHT}; ${decimalRule}` },
  {
    text: '50cm',
    reading: 'santimetero mirongo itanu',
    source: `${CENTIMETRES} ("santimetero mirongo itanu (50cm)")`,
  },
  {
    text: '25cm',
    reading: "santimetero makumyabiri n'eshanu",
    source: `${CENTIMETRES} ("santimetero makumyabiri n'eshanu (25cm)")`,
  },
  {
    text: '23cm',
    reading: "santimetero makumyabiri n'eshatu",
    source: `${CENTIMETRES} ("santimetero makumyabiri n'eshatu (23cm)")`,
  },
  {
    text: '5 kg',
    reading: 'ibiro bitanu',
    source: unitRule('kg ibiro'),
    disagrees: 'the issue notes "kilogarama" in some texts',
  },
  {
    text: '1 kg',
    reading: 'ikiro kimwe',
    source: `${MORPHOKIN} pre_norm_space_adjust ("kg 1" -> "ikiro kimwe")`,
  },
  {
    text: '130 kg',
    reading: 'ibiro ijana na mirongo itatu',
    source: `inyarwanda.com ("ibiro 130"); ${unitRule('kg ibiro')}`,
  },
  { text: '2,5 kg', reading: "ibiro bibiri n'igice", source: `${ELIAS_MATH}; ${unitRule('kg ibiro')}` },
  { text: '25 kg', reading: 'ibiro makumyabiri na bitanu', source: unitRule('kg ibiro, class bi-') },
  { text: '500 g', reading: 'garama magana atanu', source: unitRule('g garama, class zi-') },
  { text: '250 g', reading: 'garama magana abiri na mirongo itanu', source: unitRule('g garama, class zi-') },
  { text: '3 g', reading: 'garama eshatu', source: unitRule('g garama, class zi-') },
  { text: '1 l', reading: 'litiro imwe', source: `${LITRE}; ${MORPHOKIN} rw_prefix (litiro: zi-)` },
  { text: '2 l', reading: 'litiro ebyiri', source: `${MORPHOKIN} rw_prefix (litiro: zi-)` },
  { text: '20 L', reading: 'litiro makumyabiri', source: `${MORPHOKIN} rw_prefix (litiro: zi-)` },
  { text: '1,5 l', reading: "litiro imwe n'igice", source: `${LITRE}; ${ELIAS_MATH} (1 1/2 rimwe n'igice)` },
  { text: '500 ml', reading: 'mililitiro magana atanu', source: `${MORPHOKIN} rw_prefix (…litiro: zi-)` },
  {
    text: '25°C',
    reading: "dogere selisiyusi makumyabiri n'eshanu",
    source: unitRule('°C dogere selisiyusi'),
  },
  { text: '30 °C', reading: 'dogere selisiyusi mirongo itatu', source: unitRule('°C dogere selisiyusi') },
  {
    text: '-3°C',
    reading: 'dogere selisiyusi ukuyemo eshatu',
    source: `${unitRule('°C dogere selisiyusi')}; ${ELIAS_MATH} (gukuramo, subtract)`,
  },
  {
    text: '18,5°C',
    reading: "dogere selisiyusi cumi n'umunani n'igice",
    source: `${unitRule('°C dogere selisiyusi')}; ${ELIAS_MATH}`,
  },
  { text: '1°C', reading: 'dogere selisiyusi imwe', source: unitRule('°C dogere selisiyusi, class zi-') },
  {
    text: 'Ubushyuhe buzaba hagati ya 18°C na 27°C.',
    reading:
      "Ubushyuhe buzaba hagati ya dogere selisiyusi cumi n'umunani na dogere selisiyusi makumyabiri na zirindwi.",
    source: unitRule('°C dogere selisiyusi, class zi-'),
    disagrees: 'the issue notes "ndwi" for seven in class 9/10 in some texts',
  },
  {
    text: '60 km/h',
    reading: 'ibirometero mirongo itandatu ku isaha',
    source: `REB textbooks (ibirometero); ${MORPHOKIN} token_map ("%": "ku ijana", ku = per)`,
  },
  {
    text: '80 km/h',
    reading: 'ibirometero mirongo inani ku isaha',
    source: `${WIKIBOOKS} (80 mirongo inani); ${MORPHOKIN} tens`,
    disagrees: 'the issue notes "mirongo umunani" in some texts',
  },
  {
    text: 'Umuvuduko ntugomba kurenza 40 km/h.',
    reading: 'Umuvuduko ntugomba kurenza ibirometero mirongo ine ku isaha.',
    source: `REB textbooks (ibirometero); ${MORPHOKIN} token_map ("%": "ku ijana", ku = per)`,
  },
  {
    text: '5ha',
    reading: 'hegitari eshanu',
    source: `${MORPHOKIN} pre_norm_space_adjust ("5ha": hegitari) and rw_prefix (class zi-)`,
  },
  {
    text: '15%',
    reading: 'cumi na gatanu ku ijana',
    source: `${MORPHOKIN} token_map "%": ku ijana; spell_integer before % counts with ri-/ka-`,
  },
  { text: '7%', reading: 'karindwi ku ijana', source: `${MORPHOKIN} token_map "%": ku ijana` },
  {
    text: '100%',
    reading: 'ijana ku ijana',
    source: `${MORPHOKIN} token_map "%"; ${ELIAS_MATH} (1/100 kimwe cy'ijana)`,
  },
  { text: '2,5%', reading: "kabiri n'igice ku ijana", source: `${MORPHOKIN} token_map "%"; ${ELIAS_MATH}` },
  { text: '0,5%', reading: "zeru n'igice ku ijana", source: `${MORPHOKIN} token_map "%"; ${decimalRule}` },
  {
    text: 'Ubukungu bwazamutseho 8,2%.',
    reading: "Ubukungu bwazamutseho umunani n'ibice bibiri ku ijana.",
    source: `${MORPHOKIN} token_map "%"; ${decimalRule}`,
  },
  {
    text: 'metero 35',
    reading: "metero mirongo itatu n'eshanu",
    source: `${KIGALI_TODAY} ("metero zitarenze 35": metero in class zi-)`,
  },
  { text: 'litiro 2', reading: 'litiro ebyiri', source: `${MORPHOKIN} rw_prefix (litiro: zi-)` },
  { text: 'ibiro 130', reading: 'ibiro ijana na mirongo itatu', source: 'inyarwanda.com ("ibiro 130")' },
  { text: 'santimetero 50', reading: 'santimetero mirongo itanu', source: CENTIMETRES },
  {
    text: "Yaguze ibiro 2,5 by'umuceri.",
    reading: "Yaguze ibiro bibiri n'igice by'umuceri.",
    source: `${MORPHOKIN} spell_decimal (the whole part agrees with the noun)`,
  },
  {
    text: 'Amazi angana na litiro 1,5.',
    reading: "Amazi angana na litiro imwe n'igice.",
    source: `${LITRE}; ${ELIAS_MATH}`,
  },

  // Fractions.
  { text: '1/2', reading: 'kimwe cya kabiri', source: ELIAS_MATH },
  { text: '1/3', reading: 'kimwe cya gatatu', source: ELIAS_MATH },
  { text: '1/4', reading: 'kimwe cya kane', source: ELIAS_MATH },
  { text: '1/10', reading: 'kimwe cya cumi', source: ELIAS_MATH },
  { text: '1/100', reading: "kimwe cy'ijana", source: ELIAS_MATH },
  { text: '2/3', reading: 'bibiri bya gatatu', source: ELIAS_MATH },
  { text: '3/4', reading: 'bitatu bya kane', source: ELIAS_MATH },
  { text: '4/5', reading: 'bine bya gatanu', source: ELIAS_MATH },
  {
    text: '5/8',
    reading: 'bitanu bya munani',
    source: `${ELIAS_MATH} (the rule); ${ELIAS_ORDINALS} (munani)`,
  },
  { text: '1 1/2', reading: "rimwe n'igice", source: ELIAS_MATH },
  { text: '2 1/2', reading: "kabiri n'igice", source: ELIAS_MATH },
  { text: '10 1/4', reading: 'icumi na kimwe cya kane', source: ELIAS_MATH },
  { text: '½', reading: 'kimwe cya kabiri', source: ELIAS_MATH },
  { text: '¾', reading: 'bitatu bya kane', source: ELIAS_MATH },
  { text: '¼', reading: 'kimwe cya kane', source: ELIAS_MATH },
  { text: '⅓', reading: 'kimwe cya gatatu', source: ELIAS_MATH },
  { text: '2½', reading: "kabiri n'igice", source: ELIAS_MATH },
  {
    text: "Abagera kuri ½ cy'abaturage",
    reading: "Abagera kuri kimwe cya kabiri cy'abaturage",
    source: ELIAS_MATH,
  },

  // Decimals.
  {
    text: '2.5',
    reading: "kabiri n'igice",
    source: `${ELIAS_MATH} (2 1/2); ${MORPHOKIN} correction of .5 to "n'igice" from recordings`,
    disagrees: `${MORPHOKIN} spell_decimal: "kabiri n'ibice bitanu"`,
  },
  { text: '3.25', reading: "gatatu n'ibice makumyabiri na bitanu", source: decimalRule },
  { text: '0.1', reading: "zeru n'igice kimwe", source: decimalRule },
  { text: '1.75', reading: "rimwe n'ibice mirongo irindwi na bitanu", source: decimalRule },
  {
    text: '4,2',
    reading: "kane n'ibice bibiri",
    source: `${decimalRule}; Rwandan press writes the comma too`,
    disagrees: `${CLDR} gives "." as the decimal sign; ${MORPHOKIN} reads only "."`,
  },
  {
    text: '3,05',
    reading: "gatatu n'ibice zeru bitanu",
    source: decimalRule,
    disagrees: `${MORPHOKIN} spell_decimal drops the zero: "gatatu n'ibice bitanu"`,
  },
  { text: '12.5', reading: "cumi na kabiri n'igice", source: `${ELIAS_MATH}; ${decimalRule}` },
  { text: '0,75', reading: "zeru n'ibice mirongo irindwi na bitanu", source: decimalRule },
  { text: '99.9', reading: "mirongo icyenda n'icyenda n'ibice icyenda", source: decimalRule },
  { text: '6.8', reading: "gatandatu n'ibice umunani", source: decimalRule },
  {
    text: '1,500',
    reading: 'igihumbi na magana atanu',
    source: `${MORPHOKIN} pre_norm_space_adjust (d,ddd groups thousands)`,
    disagrees: `older CLDR rw data gave "," as the decimal sign`,
  },
  {
    text: '1.500',
    reading: 'igihumbi na magana atanu',
    source: `${MORPHOKIN} pre_norm_space_adjust (d.ddd groups thousands)`,
    disagrees: `${CLDR} gives "." as the decimal sign`,
  },
  {
    text: 'Imodoka zirenga 1,500 zanditswe.',
    reading: 'Imodoka zirenga igihumbi na magana atanu zanditswe.',
    source: `${MORPHOKIN} pre_norm_space_adjust`,
  },
  {
    text: 'Igiciro cyazamutseho 2,5%.',
    reading: "Igiciro cyazamutseho kabiri n'igice ku ijana.",
    source: `${MORPHOKIN} token_map "%"; ${ELIAS_MATH}`,
  },

  // Ordinals in context: noun, connective, ordinal.
  { text: 'umwaka wa 2', reading: 'umwaka wa kabiri', source: ELIAS_ORDINALS },
  { text: 'umwaka wa 1', reading: 'umwaka wa mbere', source: ELIAS_ORDINALS },
  { text: 'inshuro ya 3', reading: 'inshuro ya gatatu', source: ELIAS_ORDINALS },
  { text: 'Ni inshuro ya 2 abibona.', reading: 'Ni inshuro ya kabiri abibona.', source: ELIAS_ORDINALS },
  { text: 'inshuro 3', reading: 'inshuro eshatu', source: `${WIKIBOOKS} agreement table (in-/in-: e-)` },
  { text: 'ukwezi kwa 1', reading: 'ukwezi kwa mbere', source: ELIAS_ORDINALS },
  { text: 'ukwezi kwa 10', reading: 'ukwezi kwa cumi', source: `${RWA_TIME} (month 10: Cumi)` },
  { text: 'icyumweru cya 2', reading: 'icyumweru cya kabiri', source: ELIAS_ORDINALS },
  { text: 'igihembwe cya 1', reading: 'igihembwe cya mbere', source: `${CLDR} quarters` },
  { text: 'igihembwe cya 2', reading: 'igihembwe cya kabiri', source: `${CLDR} quarters` },
  { text: 'igihembwe cya 3', reading: 'igihembwe cya gatatu', source: `${CLDR} quarters` },
  { text: 'igihembwe cya 4', reading: 'igihembwe cya kane', source: `${CLDR} quarters` },
  { text: 'Ku wa 2', reading: 'Ku wa kabiri', source: `${CLDR} weekdays (Kuwa kabiri)` },
  { text: 'ku wa 6', reading: 'ku wa gatandatu', source: `${CLDR} weekdays (Kuwa gatandatu)` },
  { text: 'umwana wa 3', reading: 'umwana wa gatatu', source: ELIAS_ORDINALS },
  { text: 'ku wa 1 Gicurasi', reading: 'ku wa mbere gicurasi', source: FIRST_OF_MONTH },
  { text: 'Inama izaba ku wa 1 Kamena.', reading: 'Inama izaba ku wa mbere kamena.', source: FIRST_OF_MONTH },
  {
    text: 'ku wa 12 Gicurasi 2026',
    reading: `ku wa cumi na kabiri gicurasi ${year2026}`,
    source: `${FIRST_OF_MONTH}; ${ELIAS_ORDINALS} (connective + ordinal); ${CLDR} months`,
  },
  { text: 'ku wa 01/05/2026', reading: `ku wa mbere gicurasi ${year2026}`, source: FIRST_OF_MONTH },
  { text: 'Tariki ya 1 Nyakanga', reading: 'Tariki ya mbere nyakanga', source: TARIKI_MBERE },
  {
    text: 'Tariki 10 Mata 1957',
    reading: "Tariki ya cumi mata umwaka w'igihumbi na magana cyenda na mirongo itanu na karindwi",
    source: IGICUMBI,
  },
  {
    text: 'tariki 20 Kamena 1987',
    reading: "tariki ya makumyabiri kamena umwaka w'igihumbi na magana cyenda na mirongo inani na karindwi",
    source: IGICUMBI,
  },
  {
    text: "mu mwaka w'1959",
    reading: "mu mwaka w'igihumbi na magana cyenda na mirongo itanu n'icyenda",
    source: IGICUMBI,
  },

  // "+" before a country code, digits one by one.
  {
    text: '+1 202 555 0100',
    reading: 'kongeraho rimwe, kabiri zeru kabiri, gatanu gatanu gatanu, zeru rimwe zeru zeru',
    source: `${ELIAS_MATH} (kongeraho, add); ${MORPHOKIN} _digits_map`,
    disagrees: `${MORPHOKIN} spell_rw_phone_numbers reads "+" as "guteranya"`,
  },
  {
    text: '+256 772 123 456',
    reading:
      'kongeraho kabiri gatanu gatandatu, karindwi karindwi kabiri, rimwe kabiri gatatu, kane gatanu gatandatu',
    source: `${ELIAS_MATH} (kongeraho); ${MORPHOKIN} _digits_map`,
    disagrees: `${MORPHOKIN}: "guteranya"`,
  },
  {
    text: '+33 1 23 45 67 89',
    reading:
      'kongeraho gatatu gatatu, rimwe, kabiri gatatu, kane gatanu, gatandatu karindwi, umunani icyenda',
    source: `${ELIAS_MATH} (kongeraho); ${MORPHOKIN} _digits_map`,
  },
  {
    text: '+254712345678',
    reading:
      'kongeraho kabiri gatanu kane karindwi rimwe kabiri gatatu kane gatanu gatandatu karindwi umunani',
    source: `${ELIAS_MATH} (kongeraho); ${MORPHOKIN} _digits_map`,
  },
  {
    text: 'Hamagara +250 788 123 456.',
    reading:
      'Hamagara kongeraho kabiri gatanu zeru, karindwi umunani umunani, rimwe kabiri gatatu, kane gatanu gatandatu.',
    source: `${ELIAS_MATH} (kongeraho); ${MORPHOKIN} _rw_phone_pattern`,
    disagrees: `${MORPHOKIN} reads the groups after 7 in pairs ("umunani umunani" as "mirongo inani n'umunani")`,
  },
  {
    text: 'Hamagara 0788 123 456.',
    reading: 'Hamagara zeru karindwi umunani umunani, rimwe kabiri gatatu, kane gatanu gatandatu.',
    source: `${MORPHOKIN} _digits_map`,
  },

  // Numbers, agreement and money, the ground the readings above stand on.
  { text: '11', reading: 'cumi na rimwe', source: `${GUSOMA}; ${WIKIBOOKS}` },
  { text: '18', reading: "cumi n'umunani", source: GUSOMA },
  { text: '19', reading: "cumi n'icyenda", source: LANGUAGES_AND_NUMBERS },
  { text: '21', reading: 'makumyabiri na rimwe', source: WIKIBOOKS },
  {
    text: '80',
    reading: 'mirongo inani',
    source: `${WIKIBOOKS}; ${MORPHOKIN} tens`,
    disagrees: 'the issue notes "mirongo umunani" in some texts',
  },
  {
    text: '90',
    reading: 'mirongo icyenda',
    source: WIKIBOOKS,
    disagrees: `${MORPHOKIN} tens: "mirongo cyenda"`,
  },
  { text: '101', reading: 'ijana na rimwe', source: WIKIBOOKS },
  { text: '116', reading: 'ijana na cumi na gatandatu', source: GUSOMA },
  { text: '800', reading: 'magana inani', source: `${WIKIBOOKS}; ${MORPHOKIN} hundreds` },
  {
    text: '900',
    reading: 'magana cyenda',
    source: `${WIKIBOOKS}; ${MORPHOKIN} hundreds`,
    disagrees: `${GUSOMA}: "magana icyenda"`,
  },
  { text: '1110', reading: "igihumbi n'ijana n'icumi", source: GUSOMA },
  { text: '1195', reading: "igihumbi n'ijana na mirongo icyenda na gatanu", source: GUSOMA },
  { text: '2000', reading: 'ibihumbi bibiri', source: WIKIBOOKS },
  { text: '7000', reading: 'ibihumbi birindwi', source: `${MORPHOKIN} thousands (class bi-)` },
  { text: '100 000', reading: 'ibihumbi ijana', source: WIKIBOOKS },
  { text: '2,000,000', reading: 'miliyoni ebyiri', source: WIKIBOOKS },
  { text: '43.000.000', reading: "miliyoni mirongo ine n'eshatu", source: GUSOMA },
  { text: '6.500.000.000', reading: 'miliyari esheshatu na miliyoni magana atanu', source: GUSOMA },
  { text: 'abantu 7', reading: 'abantu barindwi', source: WIKIBOOKS },
  {
    text: 'inka 7',
    reading: 'inka zirindwi',
    source: `${MORPHOKIN} units D_zi (7 zirindwi)`,
    disagrees: 'the issue notes "ndwi" for seven in class 9/10 in some texts',
  },
  {
    text: "amafaranga y'u Rwanda ibihumbi 56",
    reading: "amafaranga y'u Rwanda ibihumbi mirongo itanu na bitandatu",
    source: KIGALI_TODAY,
  },
  {
    text: 'amafaranga igihumbi (1000frw)',
    reading: 'amafaranga igihumbi (amafaranga igihumbi)',
    source: KIGALI_TODAY,
  },
  { text: 'Frw 200', reading: 'amafaranga magana abiri', source: LITRE },
  {
    text: '10:00',
    reading: 'saa yine za mu gitondo',
    source: hours,
    disagrees: 'the issue notes "saa ine" in some texts',
  },
  { text: '22:00', reading: "saa yine z'ijoro", source: hours },
  {
    text: '18h30',
    reading: "saa kumi n'ebyiri n'igice z'umugoroba",
    source: `yegob.rw ("saa kumi n'ebyiri n'igice z'umugoroba (18h30)"); ${hours}`,
  },
  {
    text: '12 Gicurasi 2026',
    reading: `tariki ya cumi n'ebyiri gicurasi ${year2026}`,
    source: `${CLDR} months`,
    disagrees: 'the issue notes "ukwa gatanu" for the month in speech',
  },
  // E-mail and web addresses, read as one phrase: their dots are not sentence ends.
  {
    text: 'Mwandikire kuri info@ijwi.rw',
    reading: 'Mwandikire kuri info kuri ijwi akadomo ari dabuliyu',
    source: `${AT}; ${DOT}; ${LETTERS}`,
  },
  {
    text: 'Mwandikire kuri info@ijwi.rw.',
    reading: 'Mwandikire kuri info kuri ijwi akadomo ari dabuliyu.',
    source: `${FULL_STOP}; ${AT}; ${DOT}`,
  },
  {
    text: 'Andikira jean_claude-2@minisante.gov.rw uyu munsi.',
    reading:
      'Andikira jean akanyerezo ko hasi claude akanyerezo kabiri kuri minisante akadomo gov akadomo ari dabuliyu uyu munsi.',
    source: `${UNDERSCORE}; ${DASH}; ${AT}; ${DOT}`,
  },
  {
    text: 'Sura www.reb.rw',
    reading: 'Sura dabuliyu dabuliyu dabuliyu akadomo ari i bi akadomo ari dabuliyu',
    source: `${WWW}; ${DOT}; ${LETTERS}`,
  },
  {
    text: 'Amakuru ari kuri https://elearning.reb.rw/course/view.',
    reading:
      'Amakuru ari kuri elearning akadomo ari i bi akadomo ari dabuliyu akarongo kaberamye course akarongo kaberamye view.',
    source: `${SLASH}; ${DOT}; ${FULL_STOP}`,
  },
  {
    text: 'Soma IGIHE.com buri munsi.',
    reading: 'Soma igihe akadomo kom buri munsi.',
    source: `${DOT}; "com" said as a word, written kom because Kinyarwanda reads c as [t͡ʃ] (README, g2p table)`,
  },
  {
    text: 'Iyandikishe kuri ur.ac.rw.',
    reading: 'Iyandikishe kuri yu ari akadomo eyi si akadomo ari dabuliyu.',
    source: `${DOT}; ${LETTERS}; ${FULL_STOP}`,
  },
  // Addresses in Markdown, as a language model writes them.
  {
    text: 'Twandikire kuri **info@ijwi.rw** cyangwa [urubuga rwacu](https://ijwi.rw).',
    reading: 'Twandikire kuri info kuri ijwi akadomo ari dabuliyu cyangwa urubuga rwacu.',
    source: `${AT}; ${DOT}; a link says its text, not its address (docs api-v1.md, "Text written by a language model")`,
  },
  {
    text: '- Urubuga: <https://www.ijwi.rw>',
    reading: 'Urubuga: dabuliyu dabuliyu dabuliyu akadomo ijwi akadomo ari dabuliyu',
    source: `${WWW}; ${DOT}; a bare address is read as one (docs api-v1.md, "Text written by a language model")`,
  },
];

/** SSML `say-as` cases, each read through `<speak><say-as interpret-as="...">text</say-as></speak>`. */
export const SAY_AS_READINGS: readonly SayAsReading[] = [
  {
    interpretAs: 'cardinal',
    text: '2,5',
    reading: "kabiri n'igice",
    source: `${ELIAS_MATH}; ${MORPHOKIN} (.5 n'igice)`,
  },
  {
    interpretAs: 'cardinal',
    text: '3.25',
    reading: "gatatu n'ibice makumyabiri na bitanu",
    source: decimalRule,
  },
  {
    interpretAs: 'cardinal',
    text: '1.500',
    reading: 'igihumbi na magana atanu',
    source: `${MORPHOKIN} pre_norm_space_adjust`,
  },
  {
    interpretAs: 'number',
    text: '1,500',
    reading: 'igihumbi na magana atanu',
    source: `${MORPHOKIN} pre_norm_space_adjust`,
  },
  { interpretAs: 'ordinal', text: '1', reading: 'mbere', source: ELIAS_ORDINALS },
  { interpretAs: 'ordinal', text: '3', reading: 'gatatu', source: ELIAS_ORDINALS },
  { interpretAs: 'ordinal', text: '10', reading: 'cumi', source: `${RWA_TIME} (month 10: Cumi)` },
  {
    interpretAs: 'date',
    text: '01/05/2026',
    reading: `tariki ya mbere gicurasi ${year2026}`,
    source: `${TARIKI_MBERE}; ${CLDR} months`,
  },
  { interpretAs: 'time', text: '14:30', reading: "saa munani n'igice z'amanywa", source: hours },
  { interpretAs: 'time', text: '10:00', reading: 'saa yine za mu gitondo', source: hours },
  {
    interpretAs: 'currency',
    text: '1.500 Frw',
    reading: 'amafaranga igihumbi na magana atanu',
    source: "Rwandan Penal Code (amafaranga y'u Rwanda, 1.000.000 FRW)",
  },
  {
    interpretAs: 'currency',
    text: '$2.50',
    reading: "amadolari abiri n'amasenti mirongo itanu",
    source: `${WIKIBOOKS} agreement table (i-/ama-: a-); the noun first, as the Rwandan Penal Code writes francs`,
  },
  {
    interpretAs: 'telephone',
    text: '+1 202 555 0100',
    reading: 'kongeraho rimwe, kabiri zeru kabiri, gatanu gatanu gatanu, zeru rimwe zeru zeru',
    source: `${ELIAS_MATH} (kongeraho)`,
    disagrees: `${MORPHOKIN}: "guteranya"`,
  },
  {
    interpretAs: 'telephone',
    text: '+250 788 123 456',
    reading:
      'kongeraho kabiri gatanu zeru, karindwi umunani umunani, rimwe kabiri gatatu, kane gatanu gatandatu',
    source: `${ELIAS_MATH} (kongeraho); ${MORPHOKIN} _digits_map`,
  },
];

/** The `<say-as>` element of a say-as case. */
export function sayAsElement(c: SayAsReading): string {
  return `<say-as interpret-as="${c.interpretAs}">${c.text}</say-as>`;
}

/** The SSML document a say-as case is read in alone. */
export function sayAsDocument(c: SayAsReading): string {
  return `<speak>${sayAsElement(c)}</speak>`;
}
