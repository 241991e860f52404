import { describe } from 'node:test';
import { createNormalizer } from '../../../../src/speech/text/normalize.ts';
import { kinyarwandaVerbalizer } from '../../../../src/speech/text/rw/verbalizer.ts';
import { expectCases } from '../../../helpers/cases.ts';

const normalize = createNormalizer(kinyarwandaVerbalizer);

const table = (cases: readonly (readonly [string, string])[]) => expectCases(normalize, cases);

describe('Kinyarwanda normalisation: numbers in running text', () => {
  // Counting forms: French Wikibooks "Enseignement du kinyarwanda – Nombres"; gusoma README (1195);
  // grouping by dots or spaces and the decimal comma: CLDR rw number symbols ("," decimal, "." group).
  table([
    ['Ni 1195.', "Ni igihumbi n'ijana na mirongo icyenda na gatanu."],
    ['Abantu 21.000 baje.', 'Abantu ibihumbi makumyabiri na kimwe baje.'],
    ['Ni 2 500 000.', "Ni miliyoni ebyiri n'ibihumbi magana atanu."],
    ['Amanota 0 gusa.', 'Amanota zeru gusa.'],
  ]);

  // Decimals: CLDR rw writes "." and Rwandan texts write both marks, so both are decimal signs
  // except before exactly three digits; read with "n'ibice" (anzeyimana/morphokin `spell_decimal`),
  // a half "n'igice" (see amounts.ts and README.md).
  table([
    ['Ni 3,5.', "Ni gatatu n'igice."],
    ['Ni 3.5.', "Ni gatatu n'igice."],
    ['Ni 0,25.', "Ni zeru n'ibice makumyabiri na bitanu."],
    ['Hari 1,500.', 'Hari igihumbi na magana atanu.'],
  ]);

  // Percentages "ku ijana" (per hundred): Harvard ELIAS "Grammar: Fundamental mathematics"
  // (1/100 kimwe cy'ijana, 1%), product issue example 15% -> "cumi na gatanu ku ijana".
  table([
    ['Byiyongereyeho 15%.', 'Byiyongereyeho cumi na gatanu ku ijana.'],
    ['Ni 2,5%.', "Ni kabiri n'igice ku ijana."],
    ['100%', 'ijana ku ijana'],
  ]);
});

describe('Kinyarwanda normalisation: money', () => {
  // Noun first, number agreeing in class 6: Rwandan Penal Code ("amafaranga y'u Rwanda ... miliyoni
  // imwe (1.000.000 FRW)"); umuseke.rw ("amafaranga y'u Rwanda 150 000"); the spellings Frw, FRW, RWF
  // are those of Rwandan laws and media.
  table([
    ['Yishyuye 5000 Frw.', 'Yishyuye amafaranga ibihumbi bitanu.'],
    ['Yishyuye 5.000 FRW.', 'Yishyuye amafaranga ibihumbi bitanu.'],
    ['RWF 1,000', 'amafaranga igihumbi'],
    ['1.000.000 FRW', 'amafaranga miliyoni imwe'],
    ['1 Frw', 'ifaranga rimwe'],
    ['Amafaranga 5 gusa.', 'Amafaranga atanu gusa.'],
  ]);

  // Dollars and euros take the same class 6 agreement (amadolari, amayero); cents are amasenti.
  table([
    ['$25', "amadolari makumyabiri n'atanu"],
    ['25 USD', "amadolari makumyabiri n'atanu"],
    ['$5.50', "amadolari atanu n'amasenti mirongo itanu"],
    ['€10', 'amayero icumi'],
    ['2 EUR', 'amayero abiri'],
  ]);
});

describe('Kinyarwanda normalisation: phone numbers', () => {
  // Rwandan mobile numbers as written by operators (07xx xxx xxx, +250 7xx xxx xxx), read digit by digit
  // group by group; digit names from Harvard ELIAS "Grammar: Cardinal and ordinal numbers".
  const local = 'zeru karindwi umunani umunani, rimwe kabiri gatatu, kane gatanu gatandatu';
  const international = `kongeraho kabiri gatanu zeru, karindwi umunani umunani, rimwe kabiri gatatu, kane gatanu gatandatu`;
  table([
    ['Hamagara 0788 123 456.', `Hamagara ${local}.`],
    ['Hamagara 0788123456.', `Hamagara ${local}.`],
    ['Hamagara +250 788 123 456.', `Hamagara ${international}.`],
    ['Hamagara +250788123456.', `Hamagara ${international}.`],
  ]);
});

describe('Kinyarwanda normalisation: clock times', () => {
  // Hours from sunrise (Harvard ELIAS unit 3; NeMo rw hours.tsv), minutes in class 4 (NeMo rw
  // minutes.tsv), parts of the day as in Rwandan media: "saa kumi n'ebyiri n'igice z'umugoroba (18h30)"
  // (yegob.rw), "saa sita z'amanywa" (kigalitoday.com), "saa tanu z'amanywa" (therwandan.com).
  table([
    ['Inama ni 14:30.', "Inama ni saa munani n'igice z'amanywa."],
    ['Inama ni saa 14:30.', "Inama ni saa munani n'igice z'amanywa."],
    ['Ni 14:00.', "Ni saa munani z'amanywa."],
    ['Ni 07:15.', "Ni saa moya n'iminota cumi n'itanu za mu gitondo."],
    ['Ni 18h30.', "Ni saa kumi n'ebyiri n'igice z'umugoroba."],
    ['Ni 00:00.', "Ni saa sita z'ijoro."],
    ['Ni 9:05.', "Ni saa tatu n'iminota itanu za mu gitondo."],
  ]);
});

describe('Kinyarwanda normalisation: the Rwandan clock, hour by hour', () => {
  // Every hour name after saa (Harvard ELIAS unit 3; NeMo rw hours.tsv): the first hour is 07:00,
  // saa moya; 10:00 and 22:00 are saa yine.
  table([
    ['07:00', 'saa moya za mu gitondo'],
    ['08:00', 'saa mbiri za mu gitondo'],
    ['09:00', 'saa tatu za mu gitondo'],
    ['10:00', 'saa yine za mu gitondo'],
    ['11:00', "saa tanu z'amanywa"],
    ['12:00', "saa sita z'amanywa"],
    ['13:00', "saa saba z'amanywa"],
    ['14:00', "saa munani z'amanywa"],
    ['15:00', "saa cyenda z'amanywa"],
    ['16:00', "saa kumi z'umugoroba"],
    ['17:00', "saa kumi n'imwe z'umugoroba"],
    ['18:00', "saa kumi n'ebyiri z'umugoroba"],
    ['22:00', "saa yine z'ijoro"],
    ['10:30', "saa yine n'igice za mu gitondo"],
  ]);
});

describe('Kinyarwanda normalisation: a number agrees with the noun it counts', () => {
  // The numeral takes its noun's class concord (French Wikibooks, "Enseignement du kinyarwanda –
  // Nombres", agreement table; Kimenyi 1980 and Overdulve 1975 for the classes); only the units
  // digit of a larger number agrees ("ibiyaga makumyabiri na bitatu", Kinyarwanda Wikipedia).
  // After a singular noun only 1 agrees: another number there is a label (icyumba 5, room 5).
  table([
    // Class 1/2: people.
    ['umuntu 1', 'umuntu umwe'],
    ['umwana 1', 'umwana umwe'],
    ['abantu 2', 'abantu babiri'],
    ['abantu 3', 'abantu batatu'],
    ['abana 4', 'abana bane'],
    ['abana 5', 'abana batanu'],
    ['abaganga 6', 'abaganga batandatu'],
    ['abarwayi 7', 'abarwayi barindwi'],
    ['abakozi 8', 'abakozi umunani'],
    ['abantu 12', 'abantu cumi na babiri'],
    ['abantu 21', "abantu makumyabiri n'umwe"],
    ['abantu 32', 'abantu mirongo itatu na babiri'],
    // Class 3/4: days, years, minutes, medicines.
    ['umunsi 1', 'umunsi umwe'],
    ['iminsi 2', 'iminsi ibiri'],
    ['iminsi 3', 'iminsi itatu'],
    ['iminsi 14', "iminsi cumi n'ine"],
    ['imyaka 5', 'imyaka itanu'],
    ['imiti 6', 'imiti itandatu'],
    ['iminota 45', "iminota mirongo ine n'itanu"],
    // Class 5/6: houses (amazu), hours, months, francs.
    ['ifaranga 1', 'ifaranga rimwe'],
    ['ishuri 1', 'ishuri rimwe'],
    ['amazu 2', 'amazu abiri'],
    ['amazu 4', 'amazu ane'],
    ['amasaha 2', 'amasaha abiri'],
    ['amasaha 24', "amasaha makumyabiri n'ane"],
    ['amezi 3', 'amezi atatu'],
    ['amezi 6', 'amezi atandatu'],
    ['amafaranga 5', 'amafaranga atanu'],
    // Class 7/8: books, rooms, weeks.
    ['igitabo 1', 'igitabo kimwe'],
    ['icyumba 1', 'icyumba kimwe'],
    ['ibitabo 2', 'ibitabo bibiri'],
    ['ibitabo 5', 'ibitabo bitanu'],
    ['ibyumba 3', 'ibyumba bitatu'],
    ['ibyumweru 2', 'ibyumweru bibiri'],
    ['ibyumba 23', 'ibyumba makumyabiri na bitatu'],
    // Class 9/10: houses (inzu), cars, cows, chairs, hours (isaha), dates.
    ['inzu 1', 'inzu imwe'],
    ['inzu 2', 'inzu ebyiri'],
    ['imodoka 1', 'imodoka imwe'],
    ['imodoka 2', 'imodoka ebyiri'],
    ['imodoka 3', 'imodoka eshatu'],
    ['inka 4', 'inka enye'],
    ['intebe 5', 'intebe eshanu'],
    ['intebe 6', 'intebe esheshatu'],
    ['imbwa 7', 'imbwa zirindwi'],
    ['isaha 1', 'isaha imwe'],
    ['inzu 11', "inzu cumi n'imwe"],
    // Class 11: uru-.
    ['urugo 1', 'urugo rumwe'],
    ['urupapuro 1', 'urupapuro rumwe'],
    // Class 12/13: small things.
    ['akana 1', 'akana kamwe'],
    ['utwana 2', 'utwana tubiri'],
    ['utuntu 3', 'utuntu dutatu'],
    ['utuntu 4', 'utuntu tune'],
    ['utuntu 5', 'utuntu dutanu'],
    // Class 14 and 15.
    ['ubwato 1', 'ubwato bumwe'],
    ['ukwezi 1', 'ukwezi kumwe'],
    ['ukuboko 1', 'ukuboko kumwe'],
    // Class 16: places.
    ['ahantu 2', 'ahantu habiri'],
    ['ahantu 3', 'ahantu hatatu'],
    // Labels and words of no known class keep the counting form.
    ['icyumba 5', 'icyumba gatanu'],
    ['umurongo 3', 'umurongo gatatu'],
    ['nomero 5', 'nomero gatanu'],
    ['Ni 5.', 'Ni gatanu.'],
    ['Abana 3 baje.', 'Abana batatu baje.'],
  ]);
});

describe('Kinyarwanda normalisation: dates', () => {
  // Month names: CLDR rw; date shape "tariki 09 Gicurasi 2020" (kigalitoday.com), "tariki ya 17 Ukuboza
  // 2015" (yegob.rw); years after umwaka with elision, "mu mwaka w'1994" (kigalitoday.com); itariki
  // agrees in class 9/10 from 11 on (cumi n'ebyiri), 1 is "mbere" (Harvard ELIAS unit 3).
  const may12 = "tariki ya cumi n'ebyiri gicurasi umwaka w'ibihumbi bibiri na makumyabiri na gatandatu";
  table([
    ['12/05/2026', may12],
    ['12.05.2026', may12],
    ['2026-05-12', may12],
    ['tariki ya 12/05/2026', may12],
    ['12 Gicurasi 2026', may12],
    ['Tariki 9 Gicurasi 2020', "Tariki ya cyenda gicurasi umwaka w'ibihumbi bibiri na makumyabiri"],
    ['tariki ya 1 Mutarama', 'tariki ya mbere mutarama'],
    [
      '31 Ukuboza 1999',
      "tariki ya mirongo itatu n'imwe ukuboza umwaka w'igihumbi na magana cyenda na mirongo icyenda n'icyenda",
    ],
    ["mu mwaka w'1994", "mu mwaka w'igihumbi na magana cyenda na mirongo icyenda na kane"],
  ]);
});

describe('Kinyarwanda normalisation: ordinals', () => {
  // Connective + ordinal: CLDR rw weekdays ("Kuwa mbere", "Kuwa kabiri"); Harvard ELIAS unit 3
  // ("ukwezi kwa mbere", "umwaka wa (uwa)", "icyumweru cya"); the product issue ("wa 1" -> "wa mbere").
  table([
    ['Umwana wa 1.', 'Umwana wa mbere.'],
    ['Ku wa 2 tuzahura.', 'Ku wa kabiri tuzahura.'],
    ['Umwaka wa 3.', 'Umwaka wa gatatu.'],
    ['ukwezi kwa 8', 'ukwezi kwa munani'],
    ['icyiciro cya 10', 'icyiciro cya cumi'],
  ]);
});

describe('Kinyarwanda normalisation: units, abbreviations and acronyms', () => {
  // Units noun first: "ibiro 130", "ikiro 1" (inyarwanda.com), "ibirometero" (REB Kinyarwanda senior
  // textbook, unit 5); titles as Rwandan media write them ("Dogiteri", "Nyakubahwa").
  table([
    ['5 km', 'ibirometero bitanu'],
    ['1 kg', 'ikiro kimwe'],
    ['12 kg', 'ibiro cumi na bibiri'],
    ['Dr. Mukamana', 'dogiteri Mukamana'],
    ['Nyak. Perezida', 'nyakubahwa Perezida'],
    ['Prof. Kayumba', 'porofeseri Kayumba'],
    ['No 5', 'nomero gatanu'],
    ['n° 12', 'nomero cumi na kabiri'],
  ]);

  // Acronyms of Rwandan institutions, spelled with the letter names chosen in letters.ts.
  table([
    ['MTN', 'emu ti eni'],
    ['RDB na REB', 'ari di bi na ari i bi'],
  ]);
});

describe('Kinyarwanda normalisation: what is not an address', () => {
  // A name read as an address must end in a known top-level domain, start with a letter and stand
  // alone: a decimal, a missing space after a full stop or a longer word is left to other passes.
  table([
    ['Ni 2.5 gusa.', "Ni kabiri n'igice gusa."],
    ['Murakoze.Mwiriwe', 'Murakoze.Mwiriwe'],
    ['ijwi.rwanda', 'ijwi.rwanda'],
    ['Dr. Mukamana', 'dogiteri Mukamana'],
  ]);

  // Digits in an address: a number as a number, an identifier from a trillion up digit by digit.
  table([
    ['info2026@ijwi.rw', 'info ibihumbi bibiri na makumyabiri na gatandatu kuri ijwi akadomo ari dabuliyu'],
    [
      '1234567890123@ijwi.rw',
      'rimwe kabiri gatatu kane gatanu gatandatu karindwi umunani icyenda zeru rimwe kabiri gatatu kuri ijwi akadomo ari dabuliyu',
    ],
  ]);
});
