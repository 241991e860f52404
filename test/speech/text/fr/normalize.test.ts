import { describe } from 'node:test';
import { frenchVerbalizer } from '../../../../src/speech/text/fr/verbalizer.ts';
import { createNormalizer } from '../../../../src/speech/text/normalize.ts';
import { expectCases } from '../../../helpers/cases.ts';

const normalize = createNormalizer(frenchVerbalizer);

const check = (cases: readonly (readonly [string, string])[]) => expectCases(normalize, cases);

describe('French normalisation', () => {
  describe('cardinal numbers', () => {
    // Académie française, "Dire, ne pas dire" and OQLF, Banque de dépannage linguistique (BDL):
    // "Accord de vingt et cent", "Trait d'union dans les numéraux", "Et dans les numéraux";
    // traditional spelling (hyphens only below one hundred, no hyphen around "et").
    check([
      ['0', 'zéro'],
      ['17', 'dix-sept'],
      ['21', 'vingt et un'],
      ['71', 'soixante et onze'],
      ['80', 'quatre-vingts'],
      ['81', 'quatre-vingt-un'],
      ['91', 'quatre-vingt-onze'],
      ['200', 'deux cents'],
      ['201', 'deux cent un'],
      ['80 000', 'quatre-vingt mille'],
      ['200 000', 'deux cent mille'],
      ['1 001', 'mille un'],
      ['2 000 000', 'deux millions'],
      ['280 000 000', 'deux cent quatre-vingts millions'],
      ['1.000.000', 'un million'],
      ['-42', 'moins quarante-deux'],
    ]);
  });

  describe('decimals and percentages', () => {
    // BDL, "Lecture des nombres décimaux" (virgule; zéros en tête lus) and "Pourcentage"
    // (12,5 % : douze virgule cinq pour cent).
    check([
      ['3,5', 'trois virgule cinq'],
      ['3,05', 'trois virgule zéro cinq'],
      ['3,25', 'trois virgule vingt-cinq'],
      ['15 %', 'quinze pour cent'],
      ['12,5 %', 'douze virgule cinq pour cent'],
    ]);
  });

  describe('money', () => {
    // Wikipedia (fr), "Franc rwandais"; BDL, "Symboles des unités monétaires" (12,50 $) and
    // "Million" (a noun: "un million de francs").
    check([
      ['5 000 Frw', 'cinq mille francs rwandais'],
      ['Frw 5.000', 'cinq mille francs rwandais'],
      ['RWF 12 500', 'douze mille cinq cents francs rwandais'],
      ['1 Frw', 'un franc rwandais'],
      ['1 000 000 Frw', 'un million de francs rwandais'],
      ['12,50 $', 'douze dollars cinquante'],
      ['12,50 €', 'douze euros cinquante'],
      ['0,50 €', 'cinquante centimes'],
      ['2 000 000 €', "deux millions d'euros"],
      // Past the hundreds of milliards no amount is said: its digits are read one by one.
      ['1000000000000000 Frw', `un ${'zéro '.repeat(15)}francs rwandais`],
      ['99999999999999999999 %', `${'neuf '.repeat(20)}%`],
    ]);
  });

  describe('phone numbers', () => {
    // Rwanda numbering plan (RURA), ITU-T E.164 (+250); groups read as numbers, pairs in the
    // four-digit group, as French speakers read numbers in pairs.
    check([
      ['0788 123 456', 'zéro sept quatre-vingt-huit, cent vingt-trois, quatre cent cinquante-six'],
      ['0788123456', 'zéro sept quatre-vingt-huit, cent vingt-trois, quatre cent cinquante-six'],
      [
        '+250 788 123 456',
        'plus deux cent cinquante, sept cent quatre-vingt-huit, cent vingt-trois, quatre cent cinquante-six',
      ],
      ['0722 005 010', 'zéro sept vingt-deux, zéro zéro cinq, zéro dix'],
    ]);
  });

  describe('times', () => {
    // BDL, "Heure" (14 h 30 : quatorze heures trente; midi, minuit; "une heure" au féminin).
    check([
      ['14h30', 'quatorze heures trente'],
      ['14 h 30', 'quatorze heures trente'],
      ['14:30', 'quatorze heures trente'],
      ['9h05', 'neuf heures cinq'],
      ['14h', 'quatorze heures'],
      ['21h', 'vingt et une heures'],
      ['1:00', 'une heure'],
      ['12:00', 'midi'],
      ['0:00', 'minuit'],
    ]);
  });

  describe('dates', () => {
    // BDL, "Date" (le 1er mai, le douze mai deux mille vingt-six; day first, cardinal days
    // except "premier").
    check([
      ['12/05/2026', 'le douze mai deux mille vingt-six'],
      ['2026-05-12', 'le douze mai deux mille vingt-six'],
      ['Le 12.05.2026', 'Le douze mai deux mille vingt-six'],
      [
        'du 01/05/2026 au 03/05/2026',
        'du premier mai deux mille vingt-six au trois mai deux mille vingt-six',
      ],
      ['le 1er mai', 'le premier mai'],
      ['de 2020-2021', 'de deux mille vingt à deux mille vingt et un'],
    ]);
  });

  describe('ordinals', () => {
    // BDL, "Abréviations des adjectifs numéraux ordinaux" (1er, 1re, 2e); "2ème", "3ème" still
    // common and read the same; ordinals in -ième (Grevisse, "Le bon usage", numéraux ordinaux).
    check([
      ['1er', 'premier'],
      ['1re', 'première'],
      ['1ère', 'première'],
      ['2e', 'deuxième'],
      ['3ème', 'troisième'],
      ['5e', 'cinquième'],
      ['9e', 'neuvième'],
      ['21e', 'vingt et unième'],
      ['80e', 'quatre-vingtième'],
    ]);
  });

  describe('abbreviations and units', () => {
    // BDL, "Abréviations des titres de civilité" (M., MM., Mme, Mlle, Dr) and "Numéro" (n°);
    // SI Brochure (BIPM) for unit symbols.
    check([
      ['M. Habimana', 'Monsieur Habimana'],
      ['J. M. Kagame', 'J. M. Kagame'],
      ['Mme Uwase', 'Madame Uwase'],
      ['Dr Mugabo', 'Docteur Mugabo'],
      ['n°5', 'numéro cinq'],
      ['5 km', 'cinq kilomètres'],
      ['1 km', 'un kilomètre'],
      ['1 min', 'une minute'],
    ]);
  });

  describe('acronyms', () => {
    // BDL, "Sigle et acronyme": sigles épelés (BNR, SNCF), acronymes lus comme un mot (ONU, OTAN).
    check([
      ['la BNR', 'la bé enne erre'],
      ['la SNCF', 'la esse enne cé effe'],
      ["l'ONU", "l'Onu"],
      ["l'OTAN", "l'OTAN"],
    ]);
  });

  describe('un and une with the noun counted', () => {
    // Académie française, "Dire, ne pas dire" ("vingt et une pages"); OQLF, BDL, "Accord de un
    // dans les numéraux": un becomes une before a feminine noun, alone or at the end of a number.
    check([
      ['il reste 1 place', 'il reste une place'],
      ['21 personnes', 'vingt et une personnes'],
      ['31 nuits', 'trente et une nuits'],
      ['41 chambres', 'quarante et une chambres'],
      ['81 pages', 'quatre-vingt-une pages'],
      ['1 consultation', 'une consultation'],
      ['1 fois par jour', 'une fois par jour'],
      ['101 ordonnances', 'cent une ordonnances'],
      ['1 médecin', 'un médecin'],
      ['11 places', 'onze places'],
      ['21 jours', 'vingt et un jours'],
    ]);
  });

  describe('Roman centuries', () => {
    // BDL, "Siècle": les siècles s'écrivent en chiffres romains (XXIe siècle) et se lisent comme
    // des ordinaux; Ier et Ire pour le premier.
    check([
      ['au XXIe siècle', 'au vingt et unième siècle'],
      ['le XIXe siècle', 'le dix-neuvième siècle'],
      ['au Ier siècle', 'au premier siècle'],
      ['le IIIe millénaire', 'le troisième millénaire'],
      ['les XVe et XVIe siècles', 'les quinzième et seizième siècles'],
    ]);
  });

  describe('abbreviations of days and months', () => {
    // BDL, "Abréviations des noms de mois" (janv., févr., avr., juil., sept., oct., nov., déc.)
    // and "Abréviations des noms de jours" (lun., mar., mer., jeu., ven., sam., dim.). Read in a
    // date or where a day is expected only: "la mer." is the sea, "nous sommes sept." a number.
    check([
      ['le 3 nov. 2026', 'le trois novembre deux mille vingt-six'],
      ['en janv. 2027', 'en janvier deux mille vingt-sept'],
      ['le 14 févr.', 'le quatorze février'],
      ['lun.-ven.', 'du lundi au vendredi'],
      ['ouvert du lun. au sam.', 'ouvert du lundi au samedi'],
      ['le sam. matin', 'le samedi matin'],
      ['Nous allons à la mer.', 'Nous allons à la mer.'],
      ['Nous sommes sept.', 'Nous sommes sept.'],
    ]);
  });

  describe('ranges of clock times', () => {
    // BDL, "Heure": de 8 h à 17 h; a dash between two times is read "de ... à".
    check([
      ['8h-17h', 'de huit heures à dix-sept heures'],
      ['de 8h30-12h', 'de huit heures trente à midi'],
      ['ouvert 7 h – 19 h', 'ouvert de sept heures à dix-neuf heures'],
    ]);
  });

  describe('units and temperatures', () => {
    // BDL, "Symboles des unités de mesure" (L ou l, mL, g, mg, m) and "Degré Celsius"; a unit
    // takes the singular below two ("1,5 litre").
    check([
      ['2 L', 'deux litres'],
      ["1 L d'eau", "un litre d'eau"],
      ['1,5 L', 'un virgule cinq litre'],
      ['500 mL', 'cinq cents millilitres'],
      ['250 mg', 'deux cent cinquante milligrammes'],
      ['10 g', 'dix grammes'],
      ['100 m', 'cent mètres'],
      ['25 °C', 'vingt-cinq degrés Celsius'],
      ['-3 °C', 'moins trois degrés Celsius'],
      ['1,5 °C', 'un virgule cinq degré Celsius'],
      ["L'hôpital", "L'hôpital"],
    ]);
  });

  describe('e-mail and web addresses', () => {
    // BDL, "Arobase" (contact arobase exemple point com), "Point" and "Tiret"; "www" said "trois
    // double vé"; a part of three letters or fewer spelled letter by letter (rdv), as in English.
    check([
      ['contact@clinique.rw', 'contact arobase clinique point erre double vé'],
      ['rdv@ijwi-sante.com', 'erre dé vé arobase ijwi tiret sante point com'],
      ['www.ijwi.rw', 'trois double vé point ijwi point erre double vé'],
      ['accueil_kigali@gov.rw', 'accueil tiret bas kigali arobase gov point erre double vé'],
    ]);
  });

  describe('pounds sterling', () => {
    // BDL, "Livre sterling": livre(s) sterling; the hundredth is the penny, plural pence.
    check([
      ['5 £', 'cinq livres sterling'],
      ['GBP 20', 'vingt livres sterling'],
      ['0,50 £', 'cinquante pence'],
    ]);
  });

  describe('numbers that name rather than count', () => {
    // Numbers written in pairs are read in those pairs (Wikipédia, "Numéros de téléphone en
    // France": "01 23 45 67 89" is said "zéro un, vingt-trois, ..."); a flight, an extension
    // ("poste") or a post-office box ("B.P.", boîte postale) of four digits in pairs, of three or
    // fewer as a number; an airline code spelled.
    check([
      ['01 23 45 67 89', 'zéro un, vingt-trois, quarante-cinq, soixante-sept, quatre-vingt-neuf'],
      ['01.23.45.67.89', 'zéro un, vingt-trois, quarante-cinq, soixante-sept, quatre-vingt-neuf'],
      [
        '+33 1 23 45 67 89',
        'plus trente-trois, un, vingt-trois, quarante-cinq, soixante-sept, quatre-vingt-neuf',
      ],
      ['0788 123 456', 'zéro sept quatre-vingt-huit, cent vingt-trois, quatre cent cinquante-six'],
      ['le vol AF 1234', 'le vol a effe douze trente-quatre'],
      ['vol WB 464', 'vol double vé bé quatre cent soixante-quatre'],
      ['poste 2045', 'poste vingt quarante-cinq'],
      ['B.P. 3502 Kigali', 'boîte postale trente-cinq zéro deux Kigali'],
      ['BP 567', 'boîte postale cinq cent soixante-sept'],
    ]);
  });

  describe('Roman numerals after a name and ordinals', () => {
    // BDL, "Chiffres romains": a king's or pope's number is a cardinal but the first ("Ier",
    // premier); a Roman numeral with an ordinal ending is an ordinal (XIXe, Ve République).
    check([
      ['Louis XIV', 'Louis quatorze'],
      ['François Ier', 'François premier'],
      ['le pape Jean-Paul II', 'le pape Jean-Paul deux'],
      ['Benoît XVI', 'Benoît seize'],
      ['le lycée Henri-IV', 'le lycée Henri-quatre'],
      ['au XIXe', 'au dix-neuvième'],
      ['la Ve République', 'la cinquième République'],
      ['la Ire armée', 'la première armée'],
      ['Vitamine C', 'Vitamine C'],
      ['Louis IIII', 'Louis IIII'],
    ]);
  });

  describe('sentences', () => {
    check([
      [
        'Votre rendez-vous est le 12/05/2026 à 14h30 ; le tarif est de 5 000 Frw.',
        'Votre rendez-vous est le douze mai deux mille vingt-six à quatorze heures trente ; le tarif est de cinq mille francs rwandais.',
      ],
    ]);
  });
});
