/**
 * Kinyarwanda words that appear inside English and French text written in Rwanda: greetings,
 * the names of national institutions and programmes, and everyday nouns left untranslated. A word
 * of an English or French sentence found here is said with Kinyarwanda sounds.
 *
 * Sources:
 * - Greetings, courtesy and everyday words, spelled as in I. Jacob, "Dictionnaire
 *   rwandais-français" (3 vols., Institut National de Recherche Scientifique, Butare, 1983-1987)
 *   and the Kinyarwanda–English word and phrase lists of https://kinyarwanda.net; the words were
 *   written down from use in Rwanda's English and French press (The New Times, KT Press, IGIHE),
 *   and the dictionaries are the reference to check a spelling against.
 * - Institutions and programmes: the Rwanda Governance Board's "Home Grown Solutions"
 *   (https://www.rgb.rw: Umuganda, Gacaca, Abunzi, Imihigo, Ubudehe, Girinka, Itorero, Ingando,
 *   Umushyikirano, Umwiherero, Ndi Umunyarwanda) and the programmes' own names as their bodies
 *   write them: Irembo (https://irembo.gov.rw), Agaciro Development Fund, Ejo Heza (RSSB), Isange
 *   One Stop Centre (Rwanda National Police), Imbuto Foundation, Inyange Industries, Kwibuka
 *   (National Commission for the Fight against Genocide), Kwibohora, Kwita Izina (Rwanda
 *   Development Board), the Inteko Ishinga Amategeko (Parliament), Amavubi (FERWAFA).
 * - Administrative words: Law N° 87/2013 of 11/09/2013 (Intara, Akarere, Umurenge, Akagari,
 *   Umudugudu, Isibo, Njyanama).
 * - Culture, food and everyday nouns: the references above; Rwanda Development Board's
 *   "Visit Rwanda" pages (Intore, Imigongo, Agaseke, Umushanana, Ikivuguto, Isombe ...).
 *
 * Multi-word names are split into their words ("Murakaza neza" -> Murakaza, Neza); words that are
 * also everyday English or French words (Bite, Mama, Moto ...) are in shared-words.ts instead.
 */
// biome-ignore format: a word list reads best filled, many words a line
export const kinyarwandaWords: readonly string[] = [
  // Greetings and courtesy
  'Muraho', 'Mwaramutse', 'Mwiriwe', 'Murakoze', 'Urakoze', 'Mwakoze', 'Murakaza', 'Neza',
  'Amakuru', 'Yego', 'Oya', 'Meza', 'Mwihangane', 'Ihangane', 'Muramuke', 'Ijoro', 'Ryiza',
  'Tuzongera', 'Kubonana', 'Mbabarira', 'Ndakwinginze', 'Nyamuneka', 'Komera', 'Humura', 'Cyane',
  'Buhoro', 'Gahoro', 'Umunsi', 'Mwiza', 'Nyakubahwa', 'Turabashimiye',
  // Home-grown solutions, institutions and programmes
  'Umuganda', 'Gacaca', 'Imihigo', 'Girinka', 'Ubudehe', 'Inteko', 'Ishinga', 'Amategeko',
  'Umushyikirano', 'Umwiherero', 'Itorero', 'Ingando', 'Abunzi', 'Inyangamugayo', 'Irembo',
  'Imbuto', 'Inyange', 'Agaciro', 'Kwibuka', 'Kwibohora', 'Kwita', 'Izina', 'Intore',
  'Inkotanyi', 'Amavubi', 'Ejo', 'Heza', 'Isange', 'Indangamuntu', 'Mituweli', 'Ubumwe',
  'Ubwiyunge', 'Igihango', 'Umutekano', 'Ndi', 'Umunyarwanda', 'Abanyarwanda', 'Banyarwanda',
  'Ikinyarwanda', 'Kinyarwanda', 'Umwami', 'Abami', 'Mwami', 'Umwamikazi', 'Imvaho', 'Nshya',
  'Kinyamateka', 'Umuseke', 'Igihe',
  // Administrative words
  'Intara', 'Akarere', 'Uturere', 'Umurenge', 'Imirenge', 'Akagari', 'Utugari', 'Umudugudu',
  'Imidugudu', 'Isibo', 'Njyanama', 'Umuyobozi', 'Abayobozi',
  // Culture and food
  'Imigongo', 'Agaseke', 'Inanga', 'Ingoma', 'Umushanana', 'Umukenyero', 'Igisoro', 'Umuduri',
  'Amasunzu', 'Inyambo', 'Ubukwe', 'Gusaba', 'Ikivuguto', 'Urwagwa', 'Ikigage', 'Isombe',
  'Agatogo', 'Ubugari', 'Ibirayi', 'Ibishyimbo', 'Ibitoki', 'Umutsima', 'Ubunyobwa', 'Inyama',
  'Inka', 'Amata', 'Icyayi', 'Ikawa', 'Bonane',
  // Everyday nouns left untranslated in English and French text
  'Amafaranga', 'Isoko', 'Umuzungu', 'Abazungu', 'Umumotari', 'Abamotari', 'Imodoka', 'Igare',
  'Amazi', 'Ibiryo', 'Amahoro', 'Ubuzima', 'Urugo', 'Inzu', 'Ishuri', 'Ibitaro', 'Umuryango',
  'Inshuti', 'Umwana', 'Abana', 'Umugabo', 'Umugore', 'Umukozi', 'Abakozi', 'Umushyitsi',
  'Umukecuru', 'Umusaza', 'Imana',
];
