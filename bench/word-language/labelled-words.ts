/**
 * The word-language detector's labelled evaluation set: words as they appear in English, French
 * and Kinyarwanda sentences written in Rwanda, each with the language of its sentence (`context`)
 * and its true language (`language`). The detector's precision and recall are measured on it.
 *
 * How it was built:
 * - Kinyarwanda words in English and French sentences: names, places and words from the
 *   gazetteer lists (src/speech/text/word-language/data), and, for more than 40 % of them, names
 *   and places held out of those lists (`held-out-name`, `held-out-place`), so that the set
 *   measures the detector's rules and not the lists. A test checks that every held-out word is in
 *   none of the lists.
 *   - Held-out places are cells of the 2006 administrative reform, from the MIT-licensed data set
 *     "rwanda" (Igwaneza Bruce, 2020, https://github.com/knowbee/rwanda), which lists the 2,148
 *     cells and 14,837 villages under their sectors; each note names the cell's sector and
 *     district. They were taken at a fixed stride from the cells that are single words and are in
 *     no list here nor in the Carnegie Mellon Pronouncing Dictionary.
 *   - Held-out names are Kinyarwanda names of Rwandan public figures and of name lists, kept out
 *     of rwanda-names.ts: members of the Chamber of Deputies in The New Times, "50 MPs return
 *     experience to House" (2013, https://www.newtimes.co.rw/article/98493) and KT Press, "RPF
 *     selects 70 candidates for parliamentary polls" (July 2018); Kalisa Mbanda, chair of the
 *     National Electoral Commission (The New Times, September 2018); riders of Team Rwanda (The
 *     New Times, February 2018; APA News, February 2019; KT Press, February 2022); Robert
 *     Masozera, Rwanda Cultural Heritage Academy (Africa-Press, February 2026); names given with
 *     their meaning by J. Knowles, "Rwandan names" (2011), and Namesflare, "Rwandan names: a deep
 *     dive" (Nyiramongi).
 * - English and French words in Kinyarwanda sentences: words of foreign-words-in-kinyarwanda.ts
 *   and others of the same domains that are not in it (voucher, refund, boulangerie, procureur
 *   ...), so that the list is not all that is measured.
 * - Native words of each language in its own sentences, so that precision counts what the
 *   detector takes away from a language: everyday English and French, and 120 and more
 *   Kinyarwanda words of everyday speech (numbers, verbs with their prefixes, question words,
 *   Kinyarwanda-spelled loans such as telefoni and banki, which are Kinyarwanda).
 * - The hard cases, `kind: 'lookalike'`: English and French words that look Kinyarwanda (open
 *   syllables: banana, Uganda, camera, data, Kenya, Obama, agenda, banane, moto, kilo, madame,
 *   minute ...), Kinyarwanda words that look English or French (bite, ubu, mama, he, hose, ni,
 *   si), and words shared by several languages (`kind: 'shared'`: Save, Sake, Base, Mamba as
 *   Rwandan places or as English and French words; Christian names such as Grace, Patrick, Aline,
 *   Diane, which are English or French words in their own sentences).
 *
 * A word is one token as the detector reads it: letters, with an apostrophe inside ("d'accord",
 * "aujourd'hui"); a hyphenated word is its parts ("rendez-vous" -> rendez, vous). Where the truth
 * of a word was not certain it was left out.
 */

type Language = 'rw' | 'en' | 'fr';

export interface LabelledWord {
  word: string;
  /** The language of the sentence the word appears in. */
  context: Language;
  /** The word's true language. */
  language: Language;
  kind: string;
  note?: string;
}

/** Words of one context and one true language: [word, kind, note?]. */
type Group = readonly (readonly [word: string, kind: string, note?: string])[];

// ---- Kinyarwanda in English sentences ----

// biome-ignore format: a word list reads best filled, many words a line
const listedKinyarwandaInEnglish: Group = [
  ['Rwanda', 'place'], ['Kigali', 'place'], ['Musanze', 'place'], ['Huye', 'place'],
  ['Nyabugogo', 'place'], ['Kacyiru', 'place'], ['Kimihurura', 'place'], ['Nyamirambo', 'place'],
  ['Gisenyi', 'place'], ['Nyungwe', 'place'], ['Mugisha', 'name'], ['Uwase', 'name'],
  ['Nsengiyumva', 'name'], ['Ndayisaba', 'name'], ['Tuyisenge', 'name'], ['Habimana', 'name'],
  ['Ingabire', 'name'], ['Kagame', 'name'], ['Gatete', 'name'], ['Mukamana', 'name'],
  ['Murakoze', 'word'], ['Muraho', 'word'], ['Mwaramutse', 'word'], ['Umuganda', 'word'],
  ['Imihigo', 'word'], ['Girinka', 'word'], ['Amakuru', 'word'], ['Agaciro', 'word'],
  ['Kwibuka', 'word'], ['Abanyarwanda', 'word'],
  ['Sake', 'shared', 'Lake Sake, Ngoma District; also an English word'],
];

// biome-ignore format: a word list reads best filled, many words a line
const heldOutNamesInEnglish: Group = [
  ['Kankera', 'held-out-name', 'MP, The New Times 2013'],
  ['Uwayisenga', 'held-out-name', 'MP, The New Times 2013'],
  ['Mukazibera', 'held-out-name', 'MP, The New Times 2013'],
  ['Nyirahirwa', 'held-out-name', 'MP, The New Times 2013'],
  ['Nyirarukundo', 'held-out-name', 'MP, The New Times 2013'],
  ['Byabarumwanzi', 'held-out-name', 'MP, The New Times 2013'],
  ['Mukayisenga', 'held-out-name', 'MP, The New Times 2013'],
  ['Mukayuhi', 'held-out-name', 'MP, The New Times 2013'],
  ['Mpembyemungu', 'held-out-name', 'candidate, KT Press 2018'],
  ['Murebwayire', 'held-out-name', 'candidate, KT Press 2018'],
  ['Barikana', 'held-out-name', 'candidate, KT Press 2018'],
  ['Mbanda', 'held-out-name', 'NEC chair, The New Times 2018'],
  ['Hakiruwizeye', 'held-out-name', 'cyclist, The New Times 2019'],
  ['Nzafashwanayo', 'held-out-name', 'cyclist, APA News 2019'],
  ['Ngaboyisonga', 'held-out-name', 'J. Knowles, "Rwandan names", 2011'],
  ['Masozera', 'held-out-name', 'RCHA director general, Africa-Press 2026'],
];

// biome-ignore format: a word list reads best filled, many words a line
const heldOutPlacesInEnglish: Group = [
  ['Kabuye', 'held-out-place', 'cell of Gashora sector, Bugesera District'],
  ['Kayumba', 'held-out-place', 'cell of Nyamata sector, Bugesera District'],
  ['Rubira', 'held-out-place', 'cell of Gitoki sector, Gatsibo District'],
  ['Matare', 'held-out-place', 'cell of Rugarama sector, Gatsibo District'],
  ['Musumba', 'held-out-place', 'cell of Nyamirama sector, Kayonza District'],
  ['Rwanteru', 'held-out-place', 'cell of Kigina sector, Kirehe District'],
  ['Cyerwa', 'held-out-place', 'cell of Gashanda sector, Ngoma District'],
  ['Nyamagana', 'held-out-place', 'cell of Remera sector, Ngoma District'],
  ['Nyakiga', 'held-out-place', 'cell of Karama sector, Nyagatare District'],
  ['Gihengeri', 'held-out-place', 'cell of Mukama sector, Nyagatare District'],
  ['Gishuro', 'held-out-place', 'cell of Tabagwe sector, Nyagatare District'],
  ['Nsinda', 'held-out-place', 'cell of Muhazi sector, Rwamagana District'],
  ['Akamatamu', 'held-out-place', 'cell of Jabana sector, Gasabo District'],
  ['Karembure', 'held-out-place', 'cell of Gahanga sector, Kicukiro District'],
  ['Kankuba', 'held-out-place', 'cell of Mageregere sector, Nyarugenge District'],
  ['Musenda', 'held-out-place', 'cell of Gatebe sector, Burera District'],
  ['Ruconsho', 'held-out-place', 'cell of Rwerere sector, Burera District'],
  ['Cyintare', 'held-out-place', 'cell of Kivuruga sector, Gakenke District'],
  ['Busanane', 'held-out-place', 'cell of Rushashi sector, Gakenke District'],
];

// ---- Kinyarwanda in French sentences ----

// biome-ignore format: a word list reads best filled, many words a line
const listedKinyarwandaInFrench: Group = [
  ['Kicukiro', 'place'], ['Remera', 'place'], ['Gikondo', 'place'], ['Rubavu', 'place'],
  ['Ruhengeri', 'place'], ['Butare', 'place'], ['Kibuye', 'place'], ['Cyangugu', 'place'],
  ['Akagera', 'place'], ['Nyabarongo', 'place'], ['Ishimwe', 'name'], ['Keza', 'name'],
  ['Ineza', 'name'], ['Kwizera', 'name'], ['Iradukunda', 'name'], ['Niyonsaba', 'name'],
  ['Uwimana', 'name'], ['Hakizimana', 'name'], ['Nshimiyimana', 'name'], ['Habyarimana', 'name'],
  ['Mwiriwe', 'word'], ['Yego', 'word'], ['Oya', 'word'], ['Gacaca', 'word'], ['Ubudehe', 'word'],
  ['Inteko', 'word'], ['Umushyikirano', 'word'], ['Itorero', 'word'], ['Intore', 'word'],
  ['Ikinyarwanda', 'word'],
  ['Save', 'shared', 'le secteur de Save, Gisagara District; also an English word'],
];

// biome-ignore format: a word list reads best filled, many words a line
const heldOutNamesInFrench: Group = [
  ['Mukabagwiza', 'held-out-name', 'candidate, KT Press 2018'],
  ['Murumunawabo', 'held-out-name', 'candidate, KT Press 2018'],
  ['Uwimanimpaye', 'held-out-name', 'deputy speaker, KT Press 2018'],
  ['Tengera', 'held-out-name', 'candidate, KT Press 2018'],
  ['Bazatoha', 'held-out-name', 'MP, The New Times 2013'],
  ['Nyandwi', 'held-out-name', 'MP, The New Times 2013'],
  ['Nkusi', 'held-out-name', 'MP, The New Times 2013'],
  ['Kantengwa', 'held-out-name', 'MP, The New Times 2013'],
  ['Kayiranga', 'held-out-name', 'MP, The New Times 2013'],
  ['Rwasa', 'held-out-name', 'MP, The New Times 2013'],
  ['Kalisa', 'held-out-name', 'MP, The New Times 2013'],
  ['Ukiniwabo', 'held-out-name', 'cyclist, The New Times 2018'],
  ['Uwiduhaye', 'held-out-name', 'cyclist, KT Press 2022'],
  ['Mutuyimana', 'held-out-name', 'J. Knowles, "Rwandan names", 2011'],
  ['Uwamwesi', 'held-out-name', 'J. Knowles, "Rwandan names", 2011'],
  ['Nyiramongi', 'held-out-name', 'Namesflare, "Rwandan names"'],
];

// biome-ignore format: a word list reads best filled, many words a line
const heldOutPlacesInFrench: Group = [
  ['Kiruhura', 'held-out-place', 'cell of Mukarange sector, Gicumbi District'],
  ['Gashirira', 'held-out-place', 'cell of Ruvune sector, Gicumbi District'],
  ['Gahororo', 'held-out-place', 'cell of Buyoga sector, Rulindo District'],
  ['Kirenge', 'held-out-place', 'cell of Rusiga sector, Rulindo District'],
  ['Cyamukuza', 'held-out-place', 'cell of Ndora sector, Gisagara District'],
  ['Kibyimba', 'held-out-place', 'cell of Kabacuzi sector, Muhanga District'],
  ['Mutiwingoma', 'held-out-place', 'cell of Mbazi sector, Nyamagabe District'],
  ['Kibinja', 'held-out-place', 'cell of Busasamana sector, Nyanza District'],
  ['Kirarangombe', 'held-out-place', 'cell of Busanze sector, Nyaruguru District'],
  ['Gitita', 'held-out-place', 'cell of Ruheru sector, Nyaruguru District'],
  ['Kareba', 'held-out-place', 'cell of Ntongwe sector, Ruhango District'],
  ['Gisanze', 'held-out-place', 'cell of Rubengera sector, Karongi District'],
  ['Gasizi', 'held-out-place', 'cell of Jenda sector, Nyabihu District'],
  ['Kanyamitana', 'held-out-place', 'cell of Shyira sector, Nyabihu District'],
  ['Bihungwe', 'held-out-place', 'cell of Mudende sector, Rubavu District'],
  ['Gikungu', 'held-out-place', 'cell of Bweyeye sector, Rusizi District'],
  ['Kabasigirira', 'held-out-place', 'cell of Mururu sector, Rusizi District'],
  ['Ruhingo', 'held-out-place', 'cell of Gihango sector, Rutsiro District'],
  ['Wimana', 'held-out-place', 'cell of Ruharambuga sector, Nyamasheke District'],
];

// ---- English and French in Kinyarwanda sentences ----

// biome-ignore format: a word list reads best filled, many words a line
const englishInKinyarwanda: Group = [
  ['email', 'foreign-word'], ['Google', 'foreign-word'], ['WhatsApp', 'foreign-word'],
  ['Facebook', 'foreign-word'], ['YouTube', 'foreign-word'], ['Instagram', 'foreign-word'],
  ['TikTok', 'foreign-word'], ['Gmail', 'foreign-word'], ['booking', 'foreign-word'],
  ['receipt', 'foreign-word'], ['cash', 'foreign-word'], ['password', 'foreign-word'],
  ['account', 'foreign-word'], ['meeting', 'foreign-word'], ['deadline', 'foreign-word'],
  ['weekend', 'foreign-word'], ['phone', 'foreign-word'], ['smartphone', 'foreign-word'],
  ['laptop', 'foreign-word'], ['computer', 'foreign-word'], ['bank', 'foreign-word'],
  ['manager', 'foreign-word'], ['airtime', 'foreign-word'], ['bundle', 'foreign-word'],
  ['update', 'foreign-word'], ['download', 'foreign-word'], ['link', 'foreign-word'],
  ['website', 'foreign-word'], ['network', 'foreign-word'], ['customer', 'foreign-word'],
  ['appointment', 'foreign-word'], ['driver', 'foreign-word'], ['training', 'foreign-word'],
  ['workshop', 'foreign-word'], ['feedback', 'foreign-word'], ['report', 'foreign-word'],
  ['boss', 'foreign-word'], ['business', 'foreign-word'], ['shopping', 'foreign-word'],
  ['supermarket', 'foreign-word'], ['party', 'foreign-word'], ['birthday', 'foreign-word'],
  ['sorry', 'foreign-word'], ['please', 'foreign-word'], ['thanks', 'foreign-word'],
  ['hello', 'foreign-word'], ['team', 'foreign-word'], ['project', 'foreign-word'],
  ['invoice', 'foreign-word'], ['payment', 'foreign-word'], ['transfer', 'foreign-word'],
  ['loan', 'foreign-word'], ['card', 'foreign-word'], ['screenshot', 'foreign-word'],
  ['selfie', 'foreign-word'], ['online', 'lookalike', 'open syllables: o-n-li-ne'],
  ['video', 'lookalike', 'vi-de-o'], ['camera', 'lookalike', 'ca-me-ra'], ['salary', 'lookalike'],
  ['delivery', 'lookalike'], ['okay', 'lookalike'],
  // Not in foreign-words-in-kinyarwanda.ts: the detector's rules must find these.
  ['voucher', 'foreign-word', 'not in the list'], ['refund', 'foreign-word', 'not in the list'],
  ['discount', 'foreign-word', 'not in the list'], ['login', 'foreign-word', 'not in the list'],
  ['username', 'foreign-word', 'not in the list'], ['inbox', 'foreign-word', 'not in the list'],
  ['backup', 'foreign-word', 'not in the list'], ['checkout', 'foreign-word', 'not in the list'],
  ['router', 'foreign-word', 'not in the list'], ['server', 'foreign-word', 'not in the list'],
];

// biome-ignore format: a word list reads best filled, many words a line
const frenchInKinyarwanda: Group = [
  ['rendez', 'foreign-word', 'rendez-vous'], ['vous', 'foreign-word', 'rendez-vous'],
  ['pharmacie', 'foreign-word'], ['bureau', 'foreign-word'], ['boutique', 'foreign-word'],
  ['quartier', 'foreign-word'], ['monsieur', 'foreign-word'], ['merci', 'foreign-word'],
  ['bonjour', 'foreign-word'], ['bonsoir', 'foreign-word'], ["d'accord", 'foreign-word'],
  ['salut', 'foreign-word'], ['chauffeur', 'foreign-word'], ['secteur', 'foreign-word'],
  ['cellule', 'foreign-word'], ['mairie', 'foreign-word'], ['ministre', 'foreign-word'],
  ['directeur', 'foreign-word'], ['facture', 'foreign-word'], ['reçu', 'foreign-word'],
  ['caisse', 'foreign-word'], ['banque', 'foreign-word'], ['monnaie', 'foreign-word'],
  ['gâteau', 'foreign-word'], ['anniversaire', 'foreign-word'], ['mariage', 'foreign-word'],
  ['famille', 'foreign-word'], ['école', 'foreign-word'], ['université', 'foreign-word'],
  ['étudiant', 'foreign-word'], ['professeur', 'foreign-word'], ['hôpital', 'foreign-word'],
  ['médecin', 'foreign-word'], ['docteur', 'foreign-word'], ['médicament', 'foreign-word'],
  ['mutuelle', 'foreign-word'], ['vacances', 'foreign-word'], ['congé', 'foreign-word'],
  ['voiture', 'foreign-word'], ['donc', 'foreign-word'], ['mais', 'foreign-word'],
  ['voilà', 'foreign-word'], ['alors', 'foreign-word'], ['vraiment', 'foreign-word'],
  ['problème', 'foreign-word'], ['santé', 'foreign-word'], ['ça', 'foreign-word'],
  ['bon', 'foreign-word'], ['madame', 'lookalike', 'ma-da-me'], ['cadeau', 'lookalike', 'ca-deau'],
  ['frigo', 'lookalike', 'fri-go'], ['salade', 'lookalike', 'sa-la-de'],
  ['limonade', 'lookalike', 'li-mo-na-de'], ['avocat', 'lookalike', 'a-vo-ca-t'],
  // Not in foreign-words-in-kinyarwanda.ts
  ['boulangerie', 'foreign-word', 'not in the list'],
  ['cantine', 'foreign-word', 'not in the list'],
  ['commissariat', 'foreign-word', 'not in the list'],
  ['procureur', 'foreign-word', 'not in the list'], ['notaire', 'foreign-word', 'not in the list'],
  ['quittance', 'foreign-word', 'not in the list'], ['parrain', 'foreign-word', 'not in the list'],
  ['marraine', 'foreign-word', 'not in the list'],
];

// ---- Native words in their own sentences ----

// biome-ignore format: a word list reads best filled, many words a line
const englishInEnglish: Group = [
  ['banana', 'lookalike', 'ba-na-na'], ['Uganda', 'lookalike'], ['camera', 'lookalike'],
  ['data', 'lookalike', 'also Kinyarwanda "my father"'], ['Kenya', 'lookalike'],
  ['Tanzania', 'lookalike'], ['Obama', 'lookalike'], ['agenda', 'lookalike'],
  ['piano', 'lookalike'], ['sofa', 'lookalike'], ['tomato', 'lookalike'], ['radio', 'lookalike'],
  ['video', 'lookalike'], ['Nairobi', 'lookalike'], ['Kampala', 'lookalike'],
  ['Ghana', 'lookalike'], ['Malawi', 'lookalike'], ['Zambia', 'lookalike'],
  ['Angola', 'lookalike'], ['Somalia', 'lookalike'], ['Namibia', 'lookalike'],
  ['Panama', 'lookalike'], ['Africa', 'lookalike'], ['America', 'lookalike'],
  ['gorilla', 'lookalike'], ['safari', 'lookalike'], ['volcano', 'lookalike'],
  ['potato', 'lookalike'], ['mosquito', 'lookalike'], ['tornado', 'lookalike'],
  ['hero', 'lookalike'], ['zero', 'lookalike'], ['memo', 'lookalike'], ['menu', 'lookalike'],
  ['bite', 'lookalike', 'also the Kinyarwanda greeting'], ['mama', 'lookalike'],
  ['he', 'lookalike', 'also Kinyarwanda "where"'], ['hose', 'lookalike'],
  ['save', 'shared', 'also a sector of Gisagara'], ['sake', 'shared', 'also a sector of Ngoma'],
  ['mamba', 'shared', 'also a sector of Gisagara'], ['Grace', 'shared', 'a Christian name'],
  ['Patrick', 'shared', 'a Christian name'], ['Samuel', 'shared', 'a Christian name'],
  ['Moses', 'shared', 'a Christian name'], ['Innocent', 'shared', 'a Christian name'],
  ['Divine', 'shared', 'a Christian name'], ['hello', 'native'], ['welcome', 'native'],
  ['thank', 'native'], ['tomorrow', 'native'], ['morning', 'native'], ['office', 'native'],
  ['address', 'native'], ['number', 'native'], ['price', 'native'], ['market', 'native'],
  ['hotel', 'native'], ['airport', 'native'], ['station', 'native'], ['street', 'native'],
  ['city', 'native'], ['lake', 'native'], ['mountain', 'native'], ['memorial', 'native'],
  ['museum', 'native'], ['district', 'native'], ['province', 'native'], ['village', 'native'],
  ['hospital', 'native'], ['church', 'native'], ['coffee', 'native'], ['money', 'native'],
  ['week', 'native'], ['Monday', 'native'], ['today', 'native'],
];

// biome-ignore format: a word list reads best filled, many words a line
const frenchInFrench: Group = [
  ['banane', 'lookalike', 'ba-na-ne'], ['moto', 'lookalike', 'also Kinyarwanda, a loan'],
  ['kilo', 'lookalike'], ['radio', 'lookalike'], ['vidéo', 'lookalike'], ['piano', 'lookalike'],
  ['sofa', 'lookalike'], ['agenda', 'lookalike'], ['tomate', 'lookalike'], ['salade', 'lookalike'],
  ['limonade', 'lookalike'], ['café', 'lookalike'], ['menu', 'lookalike'], ['numéro', 'lookalike'],
  ['domino', 'lookalike'], ['mini', 'lookalike'], ['mari', 'lookalike'], ['ami', 'lookalike'],
  ['amie', 'lookalike'], ['vélo', 'lookalike'], ['minute', 'lookalike'], ['semaine', 'lookalike'],
  ['samedi', 'lookalike'], ['madame', 'lookalike'], ['Ouganda', 'lookalike'],
  ['Kenya', 'lookalike'], ['Tanzanie', 'lookalike'], ['Nairobi', 'lookalike'],
  ['Kampala', 'lookalike'], ['gorille', 'lookalike'], ['colline', 'lookalike'],
  ['si', 'lookalike', 'also the Kinyarwanda negative copula'],
  ['se', 'lookalike', 'also a Kinyarwanda particle'], ['ni', 'lookalike', 'also Kinyarwanda "is"'],
  ['base', 'shared', 'also a sector of Rulindo'], ['mamba', 'shared', 'also a sector of Gisagara'],
  ['Aline', 'shared', 'a Christian name'], ['Diane', 'shared', 'a Christian name'],
  ['Claude', 'shared', 'a Christian name'], ['Olivier', 'shared', 'a Christian name'],
  ['Jean', 'shared', 'a Christian name'], ['bonjour', 'native'], ['merci', 'native'],
  ['demain', 'native'], ['matin', 'native'], ['soir', 'native'], ['rendez', 'native'],
  ['vous', 'native'], ['maison', 'native'], ['travail', 'native'], ['rue', 'native'],
  ['ville', 'native'], ['marché', 'native'], ['prix', 'native'], ['argent', 'native'],
  ['facture', 'native'], ['école', 'native'], ['église', 'native'], ['aéroport', 'native'],
  ['hôtel', 'native'], ['lac', 'native'], ['montagne', 'native'], ['musée', 'native'],
  ['secteur', 'native'], ['cellule', 'native'], ["aujourd'hui", 'native'], ["d'accord", 'native'],
  ['avec', 'native'], ['pour', 'native'], ['nous', 'native'], ['très', 'native'],
];

// biome-ignore format: a word list reads best filled, many words a line
const kinyarwandaInKinyarwanda: Group = [
  // Greetings and talk
  ['murakoze', 'native'], ['mwakoze', 'native'], ['muraho', 'native'], ['mwaramutse', 'native'],
  ['amakuru', 'native'], ['yego', 'native'], ['oya', 'native'], ['neza', 'native'],
  ['cyane', 'native'], ['turabashimiye', 'native'],
  // Verbs with their prefixes
  ['ndashaka', 'native'], ['ndagiye', 'native'], ['ndaje', 'native'], ['turagenda', 'native'],
  ['ndakunda', 'native'], ['ndabona', 'native'], ['ndumva', 'native'], ['ndavuga', 'native'],
  ['nifuza', 'native'], ['wampa', 'native'], ['mumpe', 'native'], ['yaje', 'native'],
  ['bazaza', 'native'], ['tuzabonana', 'native'], ['ndashimira', 'native'], ['ndabizi', 'native'],
  ['simbizi', 'native'], ['ntabwo', 'native'], ['ndi', 'native'], ['uri', 'native'],
  ['ari', 'native'], ['turi', 'native'], ['bari', 'native'], ['mfite', 'native'],
  ['ufite', 'native'], ['afite', 'native'], ['dufite', 'native'], ['mufite', 'native'],
  ['bafite', 'native'], ['kugura', 'native'], ['kwishyura', 'native'], ['yishyuye', 'native'],
  ['kohereza', 'native'], ['guhamagara', 'native'], ['muhamagare', 'native'],
  ['mwandikire', 'native'], ['kuvuga', 'native'], ['kwandika', 'native'], ['gusoma', 'native'],
  ['kurya', 'native'], ['kunywa', 'native'], ['kujya', 'native'], ['kuza', 'native'],
  ['gutaha', 'native'], ['gukora', 'native'], ['kubona', 'native'], ['kwiga', 'native'],
  // Numbers and time
  ['rimwe', 'native'], ['kabiri', 'native'], ['gatatu', 'native'], ['kane', 'native'],
  ['gatanu', 'native'], ['gatandatu', 'native'], ['karindwi', 'native'], ['umunani', 'native'],
  ['icyenda', 'native'], ['icumi', 'native'], ['cumi', 'native'], ['makumyabiri', 'native'],
  ['mirongo', 'native'], ['ijana', 'native'], ['magana', 'native'], ['igihumbi', 'native'],
  ['ibihumbi', 'native'], ['miliyoni', 'native', 'a loan written the Kinyarwanda way'],
  ['ebyiri', 'native'], ['bibiri', 'native'], ['batatu', 'native'], ['saa', 'native'],
  ['isaha', 'native'], ['amasaha', 'native'], ['iminota', 'native'], ['ejo', 'native'],
  ['ejobundi', 'native'], ['uyu', 'native'], ['umunsi', 'native'], ['icyumweru', 'native'],
  ['ukwezi', 'native'], ['umwaka', 'native'], ['igitondo', 'native'], ['umugoroba', 'native'],
  ['ijoro', 'native'], ['vuba', 'native'], ['kuwa', 'native'], ['mbere', 'native'],
  // Question words and particles
  ['iki', 'native'], ['nde', 'native'], ['ryari', 'native'], ['angahe', 'native'],
  ['gute', 'native'], ['kuki', 'native'], ['ese', 'native'], ['mbese', 'native'],
  ['kandi', 'native'], ['ariko', 'native'], ['cyangwa', 'native'], ['kubera', 'native'],
  ['nka', 'native'], ['ko', 'native'], ['na', 'native'], ['mu', 'native'], ['ku', 'native'],
  ['kuri', 'native'], ['rwose', 'native'], ['koko', 'native'], ['nyine', 'native'],
  ['gusa', 'native'], ['byose', 'native'], ['bose', 'native'], ['hano', 'native'],
  ['hariya', 'native'], ['nta', 'native'],
  // Nouns
  ['amafaranga', 'native'], ['isoko', 'native'], ['amazi', 'native'], ['ibiryo', 'native'],
  ['inzu', 'native'], ['urugo', 'native'], ['umwana', 'native'], ['abana', 'native'],
  ['umugabo', 'native'], ['umugore', 'native'], ['inshuti', 'native'], ['umuryango', 'native'],
  ['akazi', 'native'], ['ishuri', 'native'], ['imodoka', 'native'], ['umuhanda', 'native'],
  ['inzira', 'native'], ['ikintu', 'native'], ['umuntu', 'native'], ['abantu', 'native'],
  ['igihugu', 'native'], ['ururimi', 'native'], ['inama', 'native', 'a meeting'],
  ['ubutumwa', 'native'], ['ijambo', 'native'], ['izina', 'native'], ['umukiriya', 'native'],
  ['ibaruwa', 'native'], ['isukari', 'native'], ['umuceri', 'native'], ['umugati', 'native'],
  ['inyanya', 'native'], ['umuneke', 'native', 'a ripe banana'], ['inkoko', 'native'],
  ['imbwa', 'native'], ['imvura', 'native'], ['izuba', 'native'], ['umusozi', 'native'],
  ['ikiyaga', 'native'], ['ibiro', 'native', 'offices; kilograms'],
  ['mudasobwa', 'native', 'computer'], ['murandasi', 'native', 'internet'],
  // Loans written the Kinyarwanda way are Kinyarwanda words
  ['telefoni', 'native', 'loan'], ['radiyo', 'native', 'loan'], ['televiziyo', 'native', 'loan'],
  ['banki', 'native', 'loan'], ['bisi', 'native', 'loan'], ['tagisi', 'native', 'loan'],
  ['farumasi', 'native', 'loan'], ['sitade', 'native', 'loan'], ['minisitiri', 'native', 'loan'],
  ['perezida', 'native', 'loan'], ['polisi', 'native', 'loan'], ['nimero', 'native', 'loan'],
  ['serivisi', 'native', 'loan'], ['bonane', 'native', 'loan'],
  // Kinyarwanda words that look English or French, and shared words read as Kinyarwanda
  ['bite', 'lookalike', 'the greeting "how are things?"'], ['ubu', 'lookalike', 'now'],
  ['mama', 'lookalike', 'mother'], ['he', 'lookalike', 'where'],
  ['hose', 'lookalike', 'everywhere'], ['ni', 'lookalike', 'is'], ['si', 'lookalike', 'is not'],
  ['Save', 'shared', 'the sector, in a Kinyarwanda sentence'],
  ['Base', 'shared', 'the sector, in a Kinyarwanda sentence'],
];

const groups: readonly (readonly [context: Language, language: Language, words: Group])[] = [
  ['en', 'rw', listedKinyarwandaInEnglish],
  ['en', 'rw', heldOutNamesInEnglish],
  ['en', 'rw', heldOutPlacesInEnglish],
  ['fr', 'rw', listedKinyarwandaInFrench],
  ['fr', 'rw', heldOutNamesInFrench],
  ['fr', 'rw', heldOutPlacesInFrench],
  ['rw', 'en', englishInKinyarwanda],
  ['rw', 'fr', frenchInKinyarwanda],
  ['en', 'en', englishInEnglish],
  ['fr', 'fr', frenchInFrench],
  ['rw', 'rw', kinyarwandaInKinyarwanda],
];

export const labelledWords: readonly LabelledWord[] = groups.flatMap(([context, language, words]) =>
  words.map(([word, kind, note]) =>
    note === undefined ? { word, context, language, kind } : { word, context, language, kind, note },
  ),
);
