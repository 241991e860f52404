import type { LanguageCode } from '../../../src/speech/text/verbalizer.ts';

/**
 * Replies as language models write them for a receptionist (bookings, opening hours, prices,
 * directions, apologies, lists, links, tables, emoji, keypad codes), each with what a person
 * reading the rendered reply to a caller says: `says`, written plainly (a line per sentence the
 * reply's blocks make), which is also the reply's plain twin. A keypad code in `says` is written
 * in words, as it is to be heard.
 */
export interface ModelReply {
  readonly language: LanguageCode;
  readonly reply: string;
  readonly says: string;
}

const en: readonly string[][] = [
  [
    '**Great news!** Your table for four is booked for Friday at 7pm.',
    'Great news! Your table for four is booked for Friday at 7pm.',
  ],
  [
    '### Great news!\nYour appointment with Dr. Uwase is confirmed.',
    'Great news!\nYour appointment with Dr. Uwase is confirmed.',
  ],
  [
    'Our opening hours:\n\n- **Monday to Friday:** 8am to 6pm\n- **Saturday:** 9am to 1pm\n- *Sunday:* closed',
    'Our opening hours:\nMonday to Friday: 8am to 6pm\nSaturday: 9am to 1pm\nSunday: closed',
  ],
  [
    'You can pay online at [our payment page](https://example.rw/pay?ref=123).',
    'You can pay online at our payment page.',
  ],
  [
    'To pay with MoMo, dial *182*7# and follow the prompts.',
    'To pay with MoMo, dial star one eight two star seven hash and follow the prompts.',
  ],
  [
    'Press # to confirm, or press * to hear the menu again.',
    'Press hash to confirm, or press star to hear the menu again.',
  ],
  [
    'I am so sorry for the wait 🙏 A nurse will call you back within 10 minutes.',
    'I am so sorry for the wait A nurse will call you back within 10 minutes.',
  ],
  [
    '| Service | Price |\n|---|---|\n| Consultation | 15,000 Frw |\n| Blood test | 8,000 Frw |',
    'Service, Price\nConsultation, 15,000 Frw\nBlood test, 8,000 Frw',
  ],
  [
    'Here is how to find us:\n\n1. Take the KN 3 road towards Remera.\n2. Turn left after the petrol station.\n3. We are the blue building on your right.',
    'Here is how to find us:\nTake the KN 3 road towards Remera.\nTurn left after the petrol station.\nWe are the blue building on your right.',
  ],
  [
    'Your booking code is `KGL-4821`. Please keep it safe.',
    'Your booking code is KGL-4821. Please keep it safe.',
  ],
  ['The room costs ~~$120~~ **$95** per night this week.', 'The room costs $95 per night this week.'],
  [
    'Email us at info@kigali-clinic.rw or visit www.kigali-clinic.rw for details.',
    'Email us at info@kigali-clinic.rw or visit www.kigali-clinic.rw for details.',
  ],
  [
    'Sure! 😊 I have booked you in for **Tuesday, 14 May** at *10:30*.',
    'Sure! I have booked you in for Tuesday, 14 May at 10:30.',
  ],
  [
    '> Note: parking is free for patients.\n\nSee you tomorrow!',
    'Note: parking is free for patients.\nSee you tomorrow!',
  ],
  [
    'Thank you for calling.\n\n---\n\nIs there anything else I can help with?',
    'Thank you for calling.\nIs there anything else I can help with?',
  ],
  ['- [x] Deposit received\n- [ ] Form to sign on arrival', 'Deposit received\nForm to sign on arrival'],
  [
    'A family ticket is 3 * 5,000 Frw, so 15,000 Frw in all.',
    'A family ticket is 3 times 5,000 Frw, so 15,000 Frw in all.',
  ],
  [
    'To check your balance, dial *131# from your phone.',
    'To check your balance, dial star one three one hash from your phone.',
  ],
  ['<b>Important:</b> bring your ID card.<br>Thank you!', 'Important: bring your ID card.\nThank you!'],
  [
    'Here is the form:\n\n```\nName:\nPhone:\n```\n\nJust tell me your name and phone number.',
    'Here is the form:\nJust tell me your name and phone number.',
  ],
  ['## Our prices\n\n* Haircut: $10\n* Braids: $25 ✂️', 'Our prices\nHaircut: $10\nBraids: $25'],
  [
    'Call us on 0788 123 456 👍 or write to __bookings@hotel-mille.rw__.',
    'Call us on 0788 123 456 or write to bookings@hotel-mille.rw.',
  ],
];

const fr: readonly string[][] = [
  ['**Bonjour.** Merci de votre appel.', 'Bonjour. Merci de votre appel.'],
  [
    '### Bonne nouvelle !\nVotre rendez-vous est confirmé pour lundi à 9h30.',
    'Bonne nouvelle !\nVotre rendez-vous est confirmé pour lundi à 9h30.',
  ],
  [
    'Nos horaires :\n\n- Du lundi au vendredi : 8h à 18h\n- Le samedi : 9h à 13h',
    'Nos horaires :\nDu lundi au vendredi : 8h à 18h\nLe samedi : 9h à 13h',
  ],
  [
    'Vous pouvez réserver sur [notre site](https://hotel-mille.rw/reserver).',
    'Vous pouvez réserver sur notre site.',
  ],
  [
    'Pour payer, composez le *182*7# puis suivez les instructions.',
    'Pour payer, composez le étoile un huit deux étoile sept dièse puis suivez les instructions.',
  ],
  ['Appuyez sur # pour confirmer.', 'Appuyez sur dièse pour confirmer.'],
  [
    'Toutes nos excuses pour l’attente 🙏 Un conseiller vous rappelle dans 10 minutes.',
    'Toutes nos excuses pour l’attente Un conseiller vous rappelle dans 10 minutes.',
  ],
  [
    '| Chambre | Prix |\n|---|---|\n| Simple | 45 000 Frw |\n| Double | 60 000 Frw |',
    'Chambre, Prix\nSimple, 45 000 Frw\nDouble, 60 000 Frw',
  ],
  [
    'Pour venir :\n\n1. Prenez la route de Remera.\n2. Tournez à gauche après la station.\n3. Nous sommes le bâtiment bleu.',
    'Pour venir :\nPrenez la route de Remera.\nTournez à gauche après la station.\nNous sommes le bâtiment bleu.',
  ],
  ['Votre code de réservation est `BK-2207`.', 'Votre code de réservation est BK-2207.'],
  ['La chambre coûte ~~80 €~~ **65 €** la nuit.', 'La chambre coûte 65 € la nuit.'],
  [
    'Écrivez-nous à contact@hotel-mille.rw ou visitez www.hotel-mille.rw.',
    'Écrivez-nous à contact@hotel-mille.rw ou visitez www.hotel-mille.rw.',
  ],
  [
    'Parfait ! 😊 Je vous ai inscrit pour *mardi 14 mai* à **10h**.',
    'Parfait ! Je vous ai inscrit pour mardi 14 mai à 10h.',
  ],
  [
    '> Le parking est gratuit pour les clients.\n\nÀ demain !',
    'Le parking est gratuit pour les clients.\nÀ demain !',
  ],
  [
    'Merci de votre appel.\n\n***\n\nPuis-je vous aider pour autre chose ?',
    'Merci de votre appel.\nPuis-je vous aider pour autre chose ?',
  ],
  ['- [x] Acompte reçu\n- [ ] Formulaire à signer', 'Acompte reçu\nFormulaire à signer'],
  [
    'Pour consulter votre solde, composez le *131#.',
    'Pour consulter votre solde, composez le étoile un trois un dièse.',
  ],
  [
    '## Nos tarifs\n\n* Coupe : 5 000 Frw\n* Tresses : 20 000 Frw 💇',
    'Nos tarifs\nCoupe : 5 000 Frw\nTresses : 20 000 Frw',
  ],
  ['<i>Attention :</i> apportez votre carte d’identité.', 'Attention : apportez votre carte d’identité.'],
  ['Le billet famille coûte 4 * 2 500 Frw.', 'Le billet famille coûte 4 fois 2 500 Frw.'],
];

const rw: readonly string[][] = [
  ['**Muraho!** Murakoze guhamagara.', 'Muraho! Murakoze guhamagara.'],
  [
    '### Inkuru nziza!\nGahunda yanyu yemejwe ku wa mbere.',
    'Inkuru nziza!\nGahunda yanyu yemejwe ku wa mbere.',
  ],
  [
    'Amasaha dukoreraho:\n\n- Kuva ku wa mbere kugeza ku wa gatanu: saa mbiri kugeza saa kumi\n- Ku wa gatandatu: saa tatu kugeza saa saba',
    'Amasaha dukoreraho:\nKuva ku wa mbere kugeza ku wa gatanu: saa mbiri kugeza saa kumi\nKu wa gatandatu: saa tatu kugeza saa saba',
  ],
  [
    'Mushobora kwishyura kuri [urubuga rwacu](https://ivuriro.rw/kwishyura).',
    'Mushobora kwishyura kuri urubuga rwacu.',
  ],
  [
    'Kugira ngo mwishyure, kanda *182*7# hanyuma mukurikize amabwiriza.',
    'Kugira ngo mwishyure, kanda akanyenyeri rimwe umunani kabiri akanyenyeri karindwi urwego hanyuma mukurikize amabwiriza.',
  ],
  ['Kanda # kugira ngo wemeze.', 'Kanda urwego kugira ngo wemeze.'],
  [
    'Mutwihanganire gutegereza 🙏 Umuforomo arabahamagara vuba.',
    'Mutwihanganire gutegereza Umuforomo arabahamagara vuba.',
  ],
  [
    '| Serivisi | Igiciro |\n|---|---|\n| Kwisuzumisha | 5000 Frw |',
    'Serivisi, Igiciro\nKwisuzumisha, 5000 Frw',
  ],
  [
    'Uko mwatugeraho:\n\n1. Mufate umuhanda ujya i Remera.\n2. Mukate ibumoso nyuma ya sitasiyo.\n3. Turi mu nyubako y’ubururu.',
    'Uko mwatugeraho:\nMufate umuhanda ujya i Remera.\nMukate ibumoso nyuma ya sitasiyo.\nTuri mu nyubako y’ubururu.',
  ],
  ['Kode yanyu ni `AB`. Muyibike neza.', 'Kode yanyu ni AB. Muyibike neza.'],
  [
    'Icyumba ni ~~amafaranga menshi~~ **igiciro gito** muri iki cyumweru.',
    'Icyumba ni igiciro gito muri iki cyumweru.',
  ],
  [
    'Mutwandikire kuri info@ivuriro.rw cyangwa musure www.ivuriro.rw.',
    'Mutwandikire kuri info@ivuriro.rw cyangwa musure www.ivuriro.rw.',
  ],
  ['Ni byiza! 😊 Twabanditse ku *wa kabiri*.', 'Ni byiza! Twabanditse ku wa kabiri.'],
  [
    '> Parikingi ni ubuntu ku barwayi.\n\nTuzabonana ejo!',
    'Parikingi ni ubuntu ku barwayi.\nTuzabonana ejo!',
  ],
  ['Murakoze guhamagara.\n\n---\n\nHari ikindi nabafasha?', 'Murakoze guhamagara.\nHari ikindi nabafasha?'],
  ['- [x] Avansi yakiriwe\n- [ ] Ifishi yo gusinya', 'Avansi yakiriwe\nIfishi yo gusinya'],
  [
    'Kureba amafaranga musigaranye, kanda *131#.',
    'Kureba amafaranga musigaranye, kanda akanyenyeri rimwe gatatu rimwe urwego.',
  ],
  [
    '## Ibiciro byacu\n\n* Kogosha: 2000 Frw\n* Gusuka: 10000 Frw 💇',
    'Ibiciro byacu\nKogosha: 2000 Frw\nGusuka: 10000 Frw',
  ],
  ['<b>Icyitonderwa:</b> muzane indangamuntu.', 'Icyitonderwa: muzane indangamuntu.'],
  [
    'Mwandikire __abakiriya__ cyangwa muhamagare kuri 0788 123 456.',
    'Mwandikire abakiriya cyangwa muhamagare kuri 0788 123 456.',
  ],
];

const as = (language: LanguageCode, pairs: readonly string[][]): ModelReply[] =>
  pairs.map(([reply = '', says = '']) => ({ language, reply, says }));

export const modelReplies: readonly ModelReply[] = [...as('en', en), ...as('fr', fr), ...as('rw', rw)];
