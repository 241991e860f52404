/**
 * Personal names of Kinyarwanda origin, for the word-language detector's gazetteer: a word of an
 * English or French sentence found here is a Kinyarwanda name, said with Kinyarwanda sounds.
 *
 * Rwandans commonly carry a Kinyarwanda name and a Christian (French or English) one; only the
 * Kinyarwanda names are here. Names of European origin (Jean, Marie, Claude, Eric, Grace, Divine,
 * Aline, Olivier ...) are French or English words for the detector, and are left out on purpose.
 * Rwandan names are not inherited, so "surname" here means the name written first, often in
 * capitals, in official lists; "given name" the shorter names also used as first names. A name in
 * both lists (Mugisha, Ingabire, Kwizera ...) is kept in the given names only.
 *
 * Each group below names its source; a name already listed under an earlier source is not
 * repeated.
 */
// biome-ignore format: a word list reads best filled, many words a line
export const kinyarwandaGivenNames: readonly string[] = [
  // The New Times, "Child naming: Is the trend changing for Rwandan names?", 8 August 2022,
  // https://www.newtimes.co.rw/article/201885
  'Irebe', 'Keza', 'Uwase', 'Ntwari', 'Shema', 'Ngabo', 'Nikuzwe',
  // H. Oglesby, "kwita izina", 16 September 2015, https://hoglesby.com/2015/09/16/kwita-izina/
  'Ishimwe', 'Iradukunda', 'Kirezi', 'Impano', 'Giramata',
  // J. Knowles, "Rwandan names", 10 September 2011,
  // https://janeknowlesjournal.blogspot.com/2011/09/rwandan-names.html
  'Akimana', 'Cyiza', 'Gisubizo', 'Ihimbazwe', 'Iranzi', 'Mutamuliza', 'Umwali',
  // Sens Magazine, "Names that echo through time: precolonial Rwandan boy names",
  // https://sensmagazine.com/rw/names-that-echo-through-time-exploring-the-vibrant-world-of-precolonial-rwandan-boy-names/
  'Gahizi', 'Kwizera',
  // Web Rwanda, on the names offered to Yemi Alade at Kwita Izina, September 2025,
  // https://www.webrwanda.com/2025/09/menya-amazina-abiri-yahawe-yemi-alade.html
  'Nshuti', 'Kundwa',
  // A Peace Corps volunteer's account of a naming ceremony in Nyanza, http://rwandagom.blogspot.com
  // (2010)
  'Umuhoza', 'Umurerwa',
  // Wikipedia, "Miss Rwanda", https://en.wikipedia.org/wiki/Miss_Rwanda (the winners' Kinyarwanda
  // names: Aurore Kayibanda Mutesi, Colombe Akiwacu, Doriane Kundwa, Jolly Mutesi, Elsa and
  // Liliane Iradukunda, Meghan Nimwiza, Naomie Nishimwe, Grace Ingabire, Divine Muheto)
  'Mutesi', 'Akiwacu', 'Nimwiza', 'Nishimwe', 'Ingabire', 'Muheto',
  // Team Rwanda's cyclists: The New Times, "Team Rwanda step up preps ahead of Tour du Rwanda",
  // February 2019; KT Press, "Tour du Rwanda: Team Rwanda say it's their time to shine",
  // 20 February 2022 (Samuel and Moise Mugisha, Eric Muhoza, Renus Byiza Uhiriwe)
  'Mugisha', 'Muhoza', 'Byiza',
  // Footballers: ground-sports.com, "Mashami's 23-man Amavubi squad to combat Cape Verde",
  // November 2020 (Thierry Manzi); AllAfrica / The New Times, Amavubi squad against Equatorial
  // Guinea, 23 September 2022, https://allafrica.com/stories/202209230066.html (Kevin Muhire,
  // Gilbert Ishime)
  'Manzi', 'Muhire', 'Ishime',
  // Senators: AllAfrica, press release of the Office of the President, 17 October 2019,
  // https://allafrica.com/stories/201910180021.html (Pélagie Uwera, Adrie Umuhire)
  'Uwera', 'Umuhire',
  // Examples given in this project's issue 37 (common given names, not checked against a
  // published list)
  'Ineza', 'Umutoni',
  // AllAfrica / The New Times, "Rwanda: Why do some Rwandans have only one name?",
  // 24 November 2022, https://allafrica.com/stories/202211250087.html
  'Rukundo',
  // Namepedia, "Hirwa", https://namepedia.name/hirwa
  'Hirwa',
];

// biome-ignore format: a word list reads best filled, many words a line
export const kinyarwandaSurnames: readonly string[] = [
  // Wikipedia, "Cabinet of Rwanda", members table (2020),
  // https://en.wikipedia.org/wiki/Cabinet_of_Rwanda
  'Kagame', 'Ngirente', 'Shyaka', 'Mukeshimana', 'Biruta', 'Ndagijimana', 'Murasira', 'Busingye',
  'Ngamije', 'Uwizeye', 'Mpambara', 'Hakuziyaremye', 'Uwamariya', 'Gatete', 'Mujawamariya',
  'Munyangaju',
  // The New Times, "President Kagame reshuffles Cabinet" (2013),
  // https://www.newtimes.co.rw/article/88773; Rwanda Information Portal, "Rwanda New Ministers
  // Swear-in", 11 May 2011, https://rwandinfo.com/eng/2011/05/11/
  'Rwangombwa', 'Lwakabamba', 'Mukantabana', 'Gasinzigwa', 'Nsengiyumva', 'Imena', 'Binagwaho',
  'Inyumba', 'Kanimba', 'Habumuremyi',
  // CGTN Africa, "Rwandan president reshuffles cabinet" (June 2024); Africa Top Success,
  // "Rwanda : Kagame procède à un léger remaniement" (June 2024); Mwebantu, "Rwanda: Paul Kagame
  // presides over the swearing-in of 3 new members of the government" (2025)
  'Nduhungirehe', 'Murangwa', 'Gasana', 'Uwimana', 'Kabera', 'Havugiyaremye', 'Nzabamwita',
  'Niwenshuti', 'Mukazayire', 'Ngarambe',
  // Wikipedia, "Rwanda national football team" (Haruna Niyonzima, Olivier Karekezi, Djihad
  // Bizimana, Jimmy Mulisa) and ground-sports.com's Amavubi squad of November 2020 (above)
  'Niyonzima', 'Karekezi', 'Bizimana', 'Mulisa', 'Mashami', 'Kimenyi', 'Ndayishimiye', 'Mutsinzi',
  'Imanishimwe', 'Rutanga', 'Rwatubyaye', 'Nsabimana', 'Mukunzi',
  // The Amavubi squad of September 2022 (AllAfrica, above: Fiacre Ntwali, Bryan Ngwabije, Claude
  // Niyomugabo, Ally Serumogo, Steven Rubanguka) and of August 2019 (Michezo Forum, "Kagere,
  // Sibomana uso kwa uso", https://michezoforum.blogspot.com/2019/08/kagere-sibomana-uso-kwa-uso.html:
  // Meddie Kagere, Patrick Sibomana, Salomon Nirisarike, Emery Bayisenge)
  'Ntwali', 'Ngwabije', 'Niyomugabo', 'Serumogo', 'Rubanguka', 'Kagere', 'Sibomana', 'Nirisarike',
  'Bayisenge',
  // Senators: the Office of the President's release of 17 October 2019 (above); The New Times,
  // "Who are the new Senators?", 12 October 2012, https://www.newtimes.co.rw/article/81622; The
  // New Times, "New Senate term begins Thursday with swearing-in ceremony" (September 2024),
  // https://www.newtimes.co.rw/article/20435; The New Times, "Makuza elected Senate president"
  // (2014), https://www.newtimes.co.rw/article/112345; Virunga News, "Rwanda: President Kagame
  // calls for integrated efforts" (2010); paulkagame.com, "President Kagame officiates at
  // swearing-in of new Senate, Ministers" (10 October 2011)
  'Ndangiza', 'Mukabaramba', 'Nyirasafari', 'Mureshyankwano', 'Nyinawamwiza', 'Iyamuremye',
  'Dushimimana', 'Bideri', 'Ntidendereza', 'Habiyakare', 'Kanyarukiga', 'Uyisenga', 'Mukakalisa',
  'Karangwa', 'Kalimba', 'Nyagahura', 'Karemera', 'Kamanzi', 'Umulisa', 'Gacinya', 'Mukabaranga',
  'Sebishwi', 'Dusingizemungu', 'Kanziza', 'Twahirwa', 'Mukakarangwa', 'Rugira', 'Cyitatire',
  'Havugimana', 'Kalinda', 'Gahamanyi', 'Kaitesi', 'Uwimbabazi', 'Ntawukuriryayo', 'Mushinzimana',
  'Isumbagabo', 'Mutimura', 'Semahundo', 'Nibishaka',
  // Team Rwanda's cyclists and officials (the New Times and KT Press articles above; APA News,
  // "Cycling: Team Rwanda departs for Cameroon Tour de l'Espoir", 3 February 2019)
  'Areruya', 'Ndayisenga', 'Munyaneza', 'Byukusenge', 'Uwizeyimana', 'Nsengimana', 'Manizabayo',
  'Ruberwa', 'Nkurunziza', 'Hakizimana', 'Uwihirwe', 'Niyonkuru', 'Rugamba', 'Bayingana',
  'Sempoma', 'Ngendahimana', 'Uhiriwe',
  // The New Times, "Child naming ..." (above)
  'Hagenimana', 'Harerimana', 'Habonimana', 'Hatungimana',
  // AllAfrica / The New Times, "Why do some Rwandans have only one name?" (above)
  'Nambajimana', 'Kabagema', 'Kanyandekwe', 'Nyamuhenda', 'Kajeje', 'Ruvuzacyuma', 'Semuzigura',
  // H. Oglesby, "kwita izina" (above)
  'Nzayisenga', 'Twizeyimana', 'Dusabimana', 'Habimana',
  // The two studies this detector builds on, and their authors' and supervisors' names:
  // J. L. Kayigema, "Loanword allocation in Kinyarwanda", MA dissertation, University of South
  // Africa, 2010; H. Habyarimana, "An analysis of the socio-pragmatic motivations for
  // code-switching in Rwanda", MA dissertation, University of South Africa, 2017
  'Kayigema', 'Lwaboshi', 'Nyirahabimana', 'Habyarimana', 'Ntakirutimana',
  // Wikipedia, "President of Rwanda" and "Prime Minister of Rwanda": Grégoire Kayibanda,
  // Dominique Mbonyumutwa, Juvénal Habyarimana, Théodore Sindikubwabo, Pasteur Bizimungu,
  // Sylvestre Nsanzimana, Dismas Nsengiyaremye, Agathe Uwilingiyimana, Jean Kambanda, Faustin
  // Twagiramungu, Pierre-Célestin Rwigema, Bernard Makuza, Pierre Habumuremyi, Anastase Murekezi
  'Kayibanda', 'Mbonyumutwa', 'Sindikubwabo', 'Bizimungu', 'Nsanzimana', 'Nsengiyaremye',
  'Uwilingiyimana', 'Kambanda', 'Twagiramungu', 'Rwigema', 'Makuza', 'Murekezi',
  // Wikipedia, "List of kings of Rwanda": regnal and personal names of the Banyiginya kings and
  // queen Rosalie Gicanda (Gihanga, Ruganzu Ndori, Cyirima Rujugira, Kigeli Rwabugiri, Yuhi
  // Musinga, Mutara Rudahigwa, Kigeli Ndahindurwa, Mibambwe, Gahindiro, Rwogera, Mazimpaka)
  'Gihanga', 'Ruganzu', 'Ndori', 'Cyirima', 'Cyilima', 'Rujugira', 'Kigeli', 'Rwabugiri', 'Yuhi',
  'Musinga', 'Mutara', 'Rudahigwa', 'Ndahindurwa', 'Mibambwe', 'Gahindiro', 'Rwogera',
  'Mazimpaka', 'Gicanda',
  // Public figures with an English Wikipedia biography: Louise Mushikiwabo, Agnes Kalibata,
  // Richard Sezibera, James Kabarebe, Tito Rutaremara, Paul Rusesabagina, Scholastique Mukasonga,
  // Yolande Mukagasana, Immaculée Ilibagiza, Cécile Kayirebwa, Kizito Mihigo, Frank Habineza,
  // Diane Rwigara, Donatille Mukabalisa, Clare Akamanzi, Édouard Bamporiki, Valentine Rugwabiza,
  // Adrien Niyonshuti, Salima Mukansanga, Jean-Marie Vianney Gatabazi, Protais Musoni, Charles
  // Murigande, Knowless Butera, Jacques Tuyisenge, Fidèle Ndayisaba
  'Mushikiwabo', 'Kalibata', 'Sezibera', 'Kabarebe', 'Rutaremara', 'Rusesabagina', 'Mukasonga',
  'Mukagasana', 'Ilibagiza', 'Kayirebwa', 'Mihigo', 'Habineza', 'Rwigara', 'Mukabalisa',
  'Akamanzi', 'Bamporiki', 'Rugwabiza', 'Niyonshuti', 'Mukansanga', 'Gatabazi', 'Musoni',
  'Murigande', 'Butera', 'Tuyisenge', 'Ndayisaba',
  // Examples given in this project's issue 37 (common surnames, not checked against a published
  // list)
  'Niyonsaba', 'Mukamana', 'Nshimiyimana',
];
