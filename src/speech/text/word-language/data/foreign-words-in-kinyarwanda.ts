/**
 * English and French words that Rwandans write the foreign way inside Kinyarwanda sentences
 * ("Nyohereza email", "Mfite meeting", "Tuzahurira kuri pharmacie"), each with its language. A
 * word of a Kinyarwanda sentence found here is said with its own language's sounds, adapted to the
 * voice. Words that fit Kinyarwanda spelling (open syllables: video, online, email, salary,
 * delivery, camera, madame, frigo, salade, limonade, avocat ...) matter most: phonotactics alone
 * cannot tell them from Kinyarwanda.
 *
 * Sources: J. L. Kayigema, "Loanword allocation in Kinyarwanda", MA dissertation, University of
 * South Africa, 2010 (French and English loans by domain: administration, commerce, health,
 * education, technology; French the larger source), and J. L. Kayigema and D. E. Mutasa,
 * "Allocation of loanwords into Kinyarwanda: specific areas of influence", South African Journal
 * of African Languages 31(2), 2011; H. Habyarimana, "An analysis of the socio-pragmatic
 * motivations for code-switching in Rwanda", MA dissertation, University of South Africa, 2017,
 * and L. Barnes, H. Habyarimana and E. Ntakirutimana, "A sociolinguistic analysis of
 * code-switching in Rwanda", Language Matters 48(3), 2017, 49-72 (switches to English and French
 * by customer-care officers, receptionists and secretaries). The studies give the domains and
 * the kind of word; the words themselves were chosen within those domains from everyday use,
 * not copied from the studies' examples.
 *
 * A word written the same in English and French (internet, taxi, bus, radio, photo, message,
 * service, budget, code ...) is left out: its language cannot be told from its spelling. Loans
 * written the Kinyarwanda way (telefoni, radiyo, banki, bisi, tagisi, farumasi, minisitiri) are
 * Kinyarwanda words and are not here either. A hyphenated word appears as its parts, as the
 * detector reads it ("rendez-vous" -> rendez, vous).
 */
// biome-ignore format: a word list reads best filled, many words a line
export const foreignWordsInKinyarwanda: readonly (readonly [word: string, language: 'en' | 'fr'])[] = [
  // English: messaging, the web and devices
  ['email', 'en'], ['Gmail', 'en'], ['Google', 'en'], ['WhatsApp', 'en'], ['Facebook', 'en'],
  ['YouTube', 'en'], ['Instagram', 'en'], ['TikTok', 'en'], ['Twitter', 'en'], ['online', 'en'],
  ['offline', 'en'], ['password', 'en'], ['account', 'en'], ['phone', 'en'], ['smartphone', 'en'],
  ['iPhone', 'en'], ['laptop', 'en'], ['computer', 'en'], ['printer', 'en'], ['battery', 'en'],
  ['screen', 'en'], ['keyboard', 'en'], ['website', 'en'], ['link', 'en'], ['download', 'en'],
  ['upload', 'en'], ['update', 'en'], ['software', 'en'], ['app', 'en'], ['network', 'en'],
  ['wifi', 'en'], ['airtime', 'en'], ['bundle', 'en'], ['video', 'en'], ['camera', 'en'],
  ['screenshot', 'en'], ['selfie', 'en'], ['post', 'en'], ['like', 'en'], ['share', 'en'],
  ['follow', 'en'], ['group', 'en'], ['status', 'en'],
  // English: work, office and customer care
  ['meeting', 'en'], ['deadline', 'en'], ['weekend', 'en'], ['manager', 'en'], ['boss', 'en'],
  ['supervisor', 'en'], ['team', 'en'], ['training', 'en'], ['workshop', 'en'], ['project', 'en'],
  ['proposal', 'en'], ['report', 'en'], ['feedback', 'en'], ['deal', 'en'], ['business', 'en'],
  ['booking', 'en'], ['appointment', 'en'], ['reception', 'en'], ['customer', 'en'], ['care', 'en'],
  ['delivery', 'en'], ['order', 'en'], ['cancel', 'en'], ['confirm', 'en'], ['driver', 'en'],
  ['traffic', 'en'],
  // English: money
  ['receipt', 'en'], ['cash', 'en'], ['bank', 'en'], ['loan', 'en'], ['salary', 'en'],
  ['invoice', 'en'], ['payment', 'en'], ['transfer', 'en'], ['card', 'en'], ['money', 'en'],
  ['shopping', 'en'], ['supermarket', 'en'], ['shop', 'en'],
  // English: talk
  ['okay', 'en'], ['sorry', 'en'], ['please', 'en'], ['thanks', 'en'], ['hello', 'en'],
  ['welcome', 'en'], ['bye', 'en'], ['call', 'en'], ['party', 'en'], ['birthday', 'en'],
  ['music', 'en'], ['show', 'en'], ['smart', 'en'], ['fresh', 'en'], ['cool', 'en'],
  ['anyway', 'en'], ['actually', 'en'], ['exactly', 'en'], ['really', 'en'],
  // French: greetings and talk
  ['bonjour', 'fr'], ['bonsoir', 'fr'], ['salut', 'fr'], ['merci', 'fr'], ["d'accord", 'fr'],
  ['monsieur', 'fr'], ['madame', 'fr'], ['mademoiselle', 'fr'], ['ça', 'fr'], ['bon', 'fr'],
  ['donc', 'fr'], ['mais', 'fr'], ['alors', 'fr'], ['voilà', 'fr'], ['vraiment', 'fr'],
  ['exactement', 'fr'], ['déjà', 'fr'], ['problème', 'fr'], ['rendez', 'fr'], ['vous', 'fr'],
  // French: town, administration and work
  ['pharmacie', 'fr'], ['bureau', 'fr'], ['boutique', 'fr'], ['quartier', 'fr'], ['secteur', 'fr'],
  ['cellule', 'fr'], ['mairie', 'fr'], ['ministère', 'fr'], ['ministre', 'fr'], ['directeur', 'fr'],
  ['président', 'fr'], ['secrétaire', 'fr'], ['comptable', 'fr'], ['chauffeur', 'fr'],
  ['stagiaire', 'fr'], ['voiture', 'fr'], ['carburant', 'fr'],
  // French: money and shopping
  ['facture', 'fr'], ['reçu', 'fr'], ['caisse', 'fr'], ['banque', 'fr'], ['monnaie', 'fr'],
  ['billet', 'fr'], ['cadeau', 'fr'], ['gâteau', 'fr'], ['frigo', 'fr'], ['salade', 'fr'],
  ['limonade', 'fr'], ['avocat', 'fr'],
  // French: family, school and health
  ['famille', 'fr'], ['tonton', 'fr'], ['mariage', 'fr'], ['anniversaire', 'fr'], ['fête', 'fr'],
  ['école', 'fr'], ['université', 'fr'], ['étudiant', 'fr'], ['professeur', 'fr'], ['cours', 'fr'],
  ['examen', 'fr'], ['vacances', 'fr'], ['congé', 'fr'], ['hôpital', 'fr'], ['médecin', 'fr'],
  ['docteur', 'fr'], ['infirmière', 'fr'], ['médicament', 'fr'], ['ordonnance', 'fr'],
  ['mutuelle', 'fr'], ['santé', 'fr'],
];
