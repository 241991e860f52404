/**
 * Rwanda's place names, one word an entry, for the word-language detector's gazetteer: a word of
 * an English or French sentence found here is a Kinyarwanda name, said with Kinyarwanda sounds.
 *
 * Sources:
 * - Provinces and districts: Organic Law N° 29/2005 of 31/12/2005 determining the administrative
 *   entities of the Republic of Rwanda, and Law N° 87/2013 of 11/09/2013 on the organisation and
 *   functioning of decentralised administrative entities; listed by Wikipedia, "Districts of
 *   Rwanda", https://en.wikipedia.org/wiki/Districts_of_Rwanda (5 provinces, 30 districts).
 * - Sectors: all 416 sectors of the 2006 administrative reform (Ministry of Local Government,
 *   "The Republic of Rwanda after Territorial Reform", www.minaloc.gov.rw), as listed district by
 *   district by Wikipédia, "Secteur (Rwanda)", https://fr.wikipedia.org/wiki/Secteur_(Rwanda), and
 *   by the MIT-licensed open data set "rwanda" (Igwaneza Bruce, 2020,
 *   https://github.com/knowbee/rwanda: 5 provinces, 30 districts, 416 sectors, 2,148 cells,
 *   14,837 villages), which the two were checked against. Where the official spelling differs
 *   from the data set's by Kinyarwanda's l/r or an e/a (Mimuli/Mimuri, Musheli/Musheri,
 *   Mageragere/Mageregere, Gishari/Gishali, Nyakariro/Nyakaliro, Kabagari/Kabagali,
 *   Rugengabali/Rugengabari), both are listed, since both are written.
 * - Neighbourhoods, towns, former prefectures and historical regions, lakes, rivers, volcanoes,
 *   parks and landmarks: the same data set's cells and villages (Nyabugogo, Kiyovu,
 *   Nyarutarama, Kibagabaga, Kagugu, Gacuriro, Kabeza, Biryogo, Rugunga, Rebero, Kabuga ...),
 *   Wikipedia, "Districts of Rwanda" (the former prefectures and 2002-2006 districts), "Geography
 *   of Rwanda", "Volcanoes National Park", "Akagera National Park", "Nyungwe National Park" and
 *   "Lake Kivu".
 *
 * Five sectors are also everyday English or French words (Base, Mamba, Sake, Save, Tare): they
 * are in shared-words.ts, not here, because the detector decides them by their context.
 * A sector name found in several districts (Remera, Murama, Kigarama ...) is listed once, under
 * the first district that has it; each district's comment gives its full count of sectors.
 */
// biome-ignore format: a word list reads best filled, many words a line
export const rwandaPlaces: readonly string[] = [
  // The country, and the provinces as their Kinyarwanda names are written: Amajyaruguru (North),
  // Amajyepfo (South), Iburasirazuba (East), Iburengerazuba (West), Umujyi wa Kigali (the City).
  'Rwanda', 'Amajyaruguru', 'Amajyepfo', 'Iburasirazuba', 'Iburengerazuba', 'Umujyi', 'Kigali',
  // The 30 districts
  'Bugesera', 'Gatsibo', 'Kayonza', 'Kirehe', 'Ngoma', 'Nyagatare', 'Rwamagana', 'Gasabo',
  'Kicukiro', 'Nyarugenge', 'Burera', 'Gakenke', 'Gicumbi', 'Musanze', 'Rulindo', 'Gisagara',
  'Huye', 'Kamonyi', 'Muhanga', 'Nyamagabe', 'Nyanza', 'Nyaruguru', 'Ruhango', 'Karongi',
  'Ngororero', 'Nyabihu', 'Nyamasheke', 'Rubavu', 'Rusizi', 'Rutsiro',
  // The sectors, district by district; each district gives its sectors not already listed.
  // Eastern Province (Iburasirazuba)
  // Bugesera District: 15 sectors
  'Gashora', 'Juru', 'Kamabuye', 'Mareba', 'Mayange', 'Musenyi', 'Mwogo', 'Ngeruka', 'Ntarama',
  'Nyamata', 'Rilima', 'Ruhuha', 'Rweru', 'Shyara',
  // Gatsibo District: 14 sectors
  'Gasange', 'Gitoki', 'Kabarore', 'Kageyo', 'Kiramuruzi', 'Kiziguro', 'Muhura', 'Murambi',
  'Ngarama', 'Nyagihanga', 'Remera', 'Rugarama', 'Rwimbogo',
  // Kayonza District: 12 sectors
  'Gahini', 'Kabare', 'Kabarondo', 'Mukarange', 'Murama', 'Murundi', 'Mwiri', 'Ndego', 'Nyamirama',
  'Rukara', 'Ruramira', 'Rwinkwavu',
  // Kirehe District: 12 sectors
  'Gahara', 'Gatore', 'Kigarama', 'Kigina', 'Mahama', 'Mpanga', 'Musaza', 'Mushikiri', 'Nasho',
  'Nyamugari', 'Nyarubuye',
  // Ngoma District: 14 sectors (less Sake: see shared-words.ts)
  'Gashanda', 'Jarama', 'Karembo', 'Kazo', 'Kibungo', 'Mugesera', 'Mutenderi', 'Rukira',
  'Rukumberi', 'Rurenge', 'Zaza',
  // Nyagatare District: 14 sectors
  'Gatunda', 'Karama', 'Karangazi', 'Katabagemu', 'Kiyombe', 'Matimba', 'Mimuri', 'Mimuli',
  'Mukama', 'Musheri', 'Musheli', 'Rukomo', 'Rwempasha', 'Rwimiyaga', 'Tabagwe',
  // Rwamagana District: 14 sectors
  'Fumbwe', 'Gahengeri', 'Gishali', 'Gishari', 'Karenge', 'Kigabiro', 'Muhazi', 'Munyaga',
  'Munyiginya', 'Musha', 'Muyumbu', 'Mwulire', 'Nyakaliro', 'Nyakariro', 'Nzige', 'Rubona',
  // City of Kigali (Umujyi wa Kigali)
  // Gasabo District: 15 sectors
  'Bumbogo', 'Gatsata', 'Gikomero', 'Gisozi', 'Jabana', 'Jali', 'Kacyiru', 'Kimihurura',
  'Kimironko', 'Kinyinya', 'Ndera', 'Nduba', 'Rusororo', 'Rutunga',
  // Kicukiro District: 10 sectors
  'Gahanga', 'Gatenga', 'Gikondo', 'Kagarama', 'Kanombe', 'Masaka', 'Niboye', 'Nyarugunga',
  // Nyarugenge District: 10 sectors
  'Gitega', 'Kanyinya', 'Kimisagara', 'Mageregere', 'Mageragere', 'Muhima', 'Nyakabanda',
  'Nyamirambo', 'Rwezamenyo',
  // Northern Province (Amajyaruguru)
  // Burera District: 17 sectors
  'Bungwe', 'Butaro', 'Cyanika', 'Cyeru', 'Gahunga', 'Gatebe', 'Gitovu', 'Kagogo', 'Kinoni',
  'Kinyababa', 'Kivuye', 'Nemba', 'Rugengabari', 'Rugengabali', 'Ruhunde', 'Rusarabuye', 'Rwerere',
  // Gakenke District: 19 sectors
  'Busengo', 'Coko', 'Cyabingo', 'Gashenyi', 'Janja', 'Kamubuga', 'Karambo', 'Kivuruga', 'Mataba',
  'Minazi', 'Mugunga', 'Muhondo', 'Muyongwe', 'Muzo', 'Ruli', 'Rusasa', 'Rushashi',
  // Gicumbi District: 21 sectors
  'Bukure', 'Bwisige', 'Byumba', 'Cyumba', 'Giti', 'Kaniga', 'Manyagiro', 'Miyove', 'Muko',
  'Mutete', 'Nyamiyaga', 'Nyankenke', 'Rubaya', 'Rushaki', 'Rutare', 'Ruvune', 'Rwamiko',
  'Shangasha',
  // Musanze District: 15 sectors
  'Busogo', 'Cyuve', 'Gacaca', 'Gashaki', 'Gataraga', 'Kimonyi', 'Kinigi', 'Muhoza', 'Nkotsi',
  'Nyange', 'Rwaza', 'Shingiro',
  // Rulindo District: 17 sectors (less Base: see shared-words.ts)
  'Burega', 'Bushoki', 'Buyoga', 'Cyinzuzi', 'Cyungo', 'Kinihira', 'Kisaro', 'Masoro', 'Mbogo',
  'Ntarabana', 'Rukozo', 'Rusiga', 'Shyorongi', 'Tumba',
  // Southern Province (Amajyepfo)
  // Gisagara District: 13 sectors (less Mamba, Save: see shared-words.ts)
  'Gikonko', 'Gishubi', 'Kansi', 'Kibirizi', 'Kigembe', 'Muganza', 'Mugombwa', 'Mukindo', 'Ndora',
  // Huye District: 14 sectors
  'Gishamvu', 'Kigoma', 'Kinazi', 'Maraba', 'Mbazi', 'Mukura', 'Ruhashya', 'Rusatira', 'Rwaniro',
  'Simbi',
  // Kamonyi District: 12 sectors
  'Gacurabwenge', 'Kayenzi', 'Kayumbu', 'Mugina', 'Musambira', 'Ngamba', 'Nyarubaka', 'Rugarika',
  'Rukoma', 'Runda',
  // Muhanga District: 12 sectors
  'Cyeza', 'Kabacuzi', 'Kibangu', 'Kiyumba', 'Mushishiro', 'Nyabinoni', 'Nyamabuye', 'Nyarusange',
  'Rongi', 'Rugendabari', 'Shyogwe',
  // Nyamagabe District: 17 sectors (less Tare: see shared-words.ts)
  'Buruhukiro', 'Gasaka', 'Gatare', 'Kaduha', 'Kamegeri', 'Kibumbwe', 'Kitabi', 'Mugano',
  'Musange', 'Musebeya', 'Mushubi', 'Nkomane', 'Uwinkingi',
  // Nyanza District: 10 sectors
  'Busasamana', 'Busoro', 'Cyabakamyi', 'Kibilizi', 'Mukingo', 'Muyira', 'Ntyazo', 'Nyagisozi',
  'Rwabicuma',
  // Nyaruguru District: 14 sectors
  'Busanze', 'Cyahinda', 'Kibeho', 'Kivu', 'Mata', 'Munini', 'Ngera', 'Nyabimata', 'Ruheru',
  'Ruramba', 'Rusenge',
  // Ruhango District: 9 sectors
  'Bweramana', 'Byimana', 'Kabagali', 'Kabagari', 'Mbuye', 'Mwendo', 'Ntongwe',
  // Western Province (Iburengerazuba)
  // Karongi District: 13 sectors
  'Bwishyura', 'Gashari', 'Gishyita', 'Gitesi', 'Mubuga', 'Mutuntu', 'Rubengera', 'Rugabano',
  'Ruganda', 'Rwankuba', 'Twumba',
  // Ngororero District: 13 sectors
  'Bwira', 'Gatumba', 'Hindiro', 'Kabaya', 'Kavumu', 'Matyazo', 'Muhanda', 'Muhororo', 'Ndaro',
  'Sovu',
  // Nyabihu District: 12 sectors
  'Bigogwe', 'Jenda', 'Jomba', 'Kabatwa', 'Karago', 'Kintobo', 'Mukamira', 'Muringa', 'Rambura',
  'Rugera', 'Rurembo', 'Shyira',
  // Nyamasheke District: 15 sectors
  'Bushekeri', 'Bushenge', 'Cyato', 'Gihombo', 'Kagano', 'Kanjongo', 'Karambi', 'Karengera',
  'Kirimbi', 'Macuba', 'Mahembe', 'Nyabitekeri', 'Rangiro', 'Ruharambuga', 'Shangi',
  // Rubavu District: 12 sectors
  'Bugeshi', 'Cyanzarwe', 'Gisenyi', 'Kanama', 'Kanzenze', 'Mudende', 'Nyakiriba', 'Nyamyumba',
  'Nyundo', 'Rugerero',
  // Rusizi District: 18 sectors
  'Bugarama', 'Butare', 'Bweyeye', 'Gashonga', 'Giheke', 'Gihundwe', 'Gikundamvura', 'Gitambi',
  'Kamembe', 'Mururu', 'Nkanka', 'Nkombo', 'Nkungu', 'Nyakabuye', 'Nyakarenzo', 'Nzahaha',
  // Rutsiro District: 13 sectors
  'Boneza', 'Gihango', 'Kigeyo', 'Kivumu', 'Manihira', 'Murunda', 'Musasa', 'Mushonyi',
  'Mushubati', 'Nyabirasi', 'Rusebeya',
  // Kigali's neighbourhoods (cells and villages of the data set above)
  'Nyabugogo', 'Kiyovu', 'Nyarutarama', 'Kibagabaga', 'Kagugu', 'Gacuriro', 'Kimicanga', 'Kabeza',
  'Biryogo', 'Rugunga', 'Rebero', 'Zindiro', 'Kinamba', 'Gisimenti', 'Kisimenti', 'Batsinda',
  'Gasanze', 'Karuruma', 'Nyacyonga', 'Busanza', 'Kabuga', 'Nyabisindu', 'Amahoro',
  // Former prefectures (before 2006) and the towns still called by their names
  'Gitarama', 'Gikongoro', 'Ruhengeri', 'Kibuye', 'Cyangugu', 'Umutara', 'Kabgayi',
  // Border posts and towns
  'Gatuna', 'Kagitumba', 'Rusumo',
  // Historical regions and kingdoms
  'Nduga', 'Gisaka', 'Mutara', 'Kinyaga', 'Bugoyi', 'Buganza', 'Bwanacyambwe', 'Ndorwa', 'Bushiru',
  'Rukiga',
  // Lakes (Kivu, Burera, Muhazi, Mugesera, Rweru, Nasho, Mpanga, Karago are sectors/districts above)
  'Ruhondo', 'Ihema', 'Cyohoha', 'Rwanyakazinga', 'Hago',
  // Rivers
  'Nyabarongo', 'Akagera', 'Kagera', 'Akanyaru', 'Kanyaru', 'Mukungwa', 'Sebeya', 'Muvumba',
  'Rukarara', 'Mbirurume',
  // Volcanoes and mountains (both spellings of those written two ways)
  'Kalisimbi', 'Karisimbi', 'Bisoke', 'Visoke', 'Muhabura', 'Muhavura', 'Sabyinyo', 'Gahinga',
  'Ibirunga',
  // National parks and forests
  'Nyungwe', 'Gishwati',
  // Memorials, palaces and landmarks
  'Bisesero', 'Rukari', 'Urugwiro', 'Rwesero',
];
