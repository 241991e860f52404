import { cardinal } from './numbers.ts';

// Hours are counted from sunrise (East African time): 07:00 is the first hour, "saa moya".
// Names follow NeMo's Kinyarwanda hours.tsv and Harvard ELIAS unit 3. 10:00 is "saa yine": after
// saa the numeral takes the glide, as Rwandan press writes it ("saa yine za mu gitondo"); the bare
// numeral's spelling "ine" was used before and was heard as wrong by a Rwandan reviewer.
const HOURS = [
  "kumi n'ebyiri",
  'moya',
  'mbiri',
  'tatu',
  'yine',
  'tanu',
  'sita',
  'saba',
  'munani',
  'cyenda',
  'kumi',
  "kumi n'imwe",
];

/**
 * The part of the day said after the time (za agrees with saa/amasaha). Attested: "saa sita z'amanywa",
 * "saa tanu z'amanywa" (11:00), "saa kumi n'ebyiri n'igice z'umugoroba (18h30)". The cut-offs between
 * morning, daytime, evening and night are a choice; 19:00 is said both ways and is put in the evening.
 */
function partOfDay(hours: number): string {
  if (hours >= 5 && hours < 11) return 'za mu gitondo';
  if (hours >= 11 && hours < 16) return "z'amanywa";
  if (hours >= 16 && hours < 20) return "z'umugoroba";
  return "z'ijoro";
}

/**
 * A clock time on the 24-hour clock read on the Rwandan clock: 14:30 gives "saa munani n'igice
 * z'amanywa", 07:15 "saa moya n'iminota cumi n'itanu za mu gitondo", 00:00 "saa sita z'ijoro".
 * Minutes agree with iminota (class 4); one minute is "umunota umwe". Out-of-range values are read
 * as plain numbers so nothing is dropped.
 */
export function timeWords(hours: number, minutes: number): string {
  if (
    !Number.isInteger(hours) ||
    !Number.isInteger(minutes) ||
    hours < 0 ||
    hours > 24 ||
    minutes < 0 ||
    minutes > 59
  ) {
    return `${cardinal(hours)} ${cardinal(minutes)}`;
  }
  const h = hours % 24;
  const hourName = HOURS[(h + 6) % 12] ?? '';
  let minutePart = '';
  if (minutes === 30) minutePart = " n'igice";
  else if (minutes === 1) minutePart = " n'umunota umwe";
  else if (minutes > 0) minutePart = ` n'iminota ${cardinal(minutes, 'class4')}`;
  return `saa ${hourName}${minutePart} ${partOfDay(h)}`;
}
