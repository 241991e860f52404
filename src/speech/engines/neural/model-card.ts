/**
 * What a voice's model card says of its licence and its dataset. Piper's voices publish a
 * `MODEL_CARD` in Markdown beside the model:
 *
 *     # Model card for amy (medium)
 *     * Language: en_US (English, United States)
 *     ...
 *     ## Dataset
 *     * URL: https://github.com/MycroftAI/mimic3-voices
 *     * License: See URL
 *
 * (the licence a name, `CC BY 4.0`, a URL, or "See URL"), and sherpa-onnx's converted voices
 * sometimes a README with a Hugging Face front matter (`license: cc-by-4.0`) or a "License"
 * section of prose. A card is text from anyone: it is only searched for those lines, never
 * rendered or followed; what is taken is plain text, without control characters or Markdown
 * marks, of bounded length, and a link only when it is http(s).
 */

export interface PackLicence {
  readonly name: string;
  /** An http(s) page of the licence or of the dataset that states it; null when none is known. */
  readonly url: string | null;
  /** Whether it allows commercial use; null when that is not known. */
  readonly commercial: boolean | null;
}

/** A licence nobody stated: shown as unknown. */
export const UNKNOWN_LICENCE: PackLicence = { name: 'unknown', url: null, commercial: null };

export interface ModelCard {
  /** The licence the card states, when it states one. */
  readonly licence: PackLicence | undefined;
  /** The dataset's page, when the card gives one. */
  readonly datasetUrl: string | undefined;
}

const MAX_NAME = 100;

/** Names of licences by what they allow: anything else is not known. */
const NON_COMMERCIAL = /\bnc\b|non-?commercial|research[- ]only/i;
const COMMERCIAL =
  /\b(cc0|cc[- ]?by(-sa)?(\b|[- ]\d)|public[- ]domain|apache|bsd|isc|odc-by|pddl|unlicense)\b|creativecommons\.org\/(licenses\/by(-sa)?\/|publicdomain\/)/i;
// "mit" is also a word (German "frei mit Namensnennung"): the MIT licence only in capitals, or as
// a licence id alone (`license: mit` in a card's front matter).
const MIT = /\bMIT\b|^\s*mit\s*$/;

/** Whether `text` (a licence's name or address) allows commercial use, when that can be told. */
export function allowsCommercialUse(text: string): boolean | null {
  if (NON_COMMERCIAL.test(text)) return false;
  return COMMERCIAL.test(text) || MIT.test(text) ? true : null;
}

/** Plain text of a card's value: no control characters, no Markdown emphasis or code marks. */
function plain(text: string, max = MAX_NAME): string {
  const cleaned = text
    .replace(/\p{Cc}|\p{Cf}/gu, ' ')
    .replace(/[*_`<>]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return cleaned.length > max ? `${cleaned.slice(0, max - 1).trimEnd()}…` : cleaned;
}

/** An http(s) address, or undefined for anything else (`javascript:`, `file:`, text). */
function webAddress(text: string): string | undefined {
  const candidate = text.trim().replace(/^<|>$/g, '');
  if (candidate.length > 500 || /\s/.test(candidate)) return undefined;
  try {
    const url = new URL(candidate);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** The Creative Commons licence an address names, as people write it (`CC BY-NC 4.0`). */
function creativeCommonsName(url: string): string | undefined {
  const match = /creativecommons\.org\/licenses\/([a-z-]+)\/(\d\.\d)/i.exec(url);
  if (match) return `CC ${match[1]?.toUpperCase()} ${match[2]}`;
  return /creativecommons\.org\/publicdomain\/zero/i.test(url) ? 'CC0 1.0' : undefined;
}

const MARKDOWN_LINK = /\[([^\]]{1,200})\]\(([^)\s]{1,500})\)/;

/** How a licence at an address is named: the Creative Commons licence, else by its site. */
function nameOfAddress(url: string): string {
  return creativeCommonsName(url) ?? `the licence at ${new URL(url).host}`;
}

/**
 * A licence from the text a card gives for it: a name (`CC BY 4.0`, `cc-by-nc-4.0`), an
 * address, a Markdown link, or "See URL" (the dataset's page).
 */
function licenceFrom(value: string, datasetUrl: string | undefined): PackLicence | undefined {
  const link = MARKDOWN_LINK.exec(value);
  const label = plain(link ? (link[1] ?? '') : value);
  if (/^see (the )?url\.?$/i.test(label)) {
    return datasetUrl
      ? { name: "the dataset's licence (see its page)", url: datasetUrl, commercial: null }
      : undefined;
  }
  const bare = link ? undefined : webAddress(value);
  const url = link ? webAddress(link[2] ?? '') : (bare ?? findAddress(value));
  const named = bare || (url && creativeCommonsName(url)) ? nameOfAddress(url ?? '') : label;
  // Hugging Face cards give SPDX ids in lower case (`cc-by-4.0`).
  const name = /^cc[\w.-]*$/i.test(named) ? named.toUpperCase() : named;
  if (!name) return undefined;
  return { name, url: url ?? null, commercial: allowsCommercialUse(`${name} ${url ?? ''}`) };
}

/** The first http(s) address in prose. */
function findAddress(text: string): string | undefined {
  for (const match of text.matchAll(/https?:\/\/[^\s)\]>"']+/g)) {
    const url = webAddress(match[0].replace(/[.,;:]+$/, ''));
    if (url) return url;
  }
  return undefined;
}

/** A `Key: value` line of a card's list (`* License: CC BY 4.0`, `- **URL:** ...`, `license: mit`). */
function field(line: string, keys: RegExp): string | undefined {
  const match = /^\s*(?:[-*+]\s+)?(?:\*\*|__)?([A-Za-z ]{2,20}?)(?:\*\*|__)?\s*:(?:\*\*|__)?\s*(.+)$/.exec(
    line,
  );
  return match && keys.test(match[1] ?? '') ? match[2]?.trim() : undefined;
}

/**
 * Reads a model card (a Piper `MODEL_CARD`, a README): its licence line or "License" section,
 * and its dataset's URL. Never throws; a card that says nothing of either gives neither.
 */
export function readModelCard(text: string): ModelCard {
  const lines = text.slice(0, 64 * 1024).split(/\r?\n/);
  let datasetUrl: string | undefined;
  let licenceText: string | undefined;
  let section = '';
  let sectionProse = '';
  for (const line of lines) {
    const heading = /^\s*#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      section = (heading[1] ?? '').toLowerCase();
      continue;
    }
    const url = field(line, /^(dataset )?url$/i);
    if (url && datasetUrl === undefined) datasetUrl = webAddress(url);
    const licence = field(line, /^licen[cs]e$/i);
    if (licence && licenceText === undefined) licenceText = licence;
    if (/^licen[cs]e/.test(section) && line.trim() && sectionProse.length < 2000)
      sectionProse += ` ${line.trim()}`;
  }
  const licence =
    (licenceText === undefined ? undefined : licenceFrom(licenceText, datasetUrl)) ??
    (sectionProse ? licenceFromProse(sectionProse) : undefined);
  return { licence, datasetUrl };
}

/** A "License" section of prose: its first link, or the Creative Commons licence it names. */
function licenceFromProse(prose: string): PackLicence | undefined {
  const link = MARKDOWN_LINK.exec(prose);
  if (link) return licenceFrom(link[0], undefined);
  const named = /\bCC[- ]BY(?:-[A-Z]{2})*[- ]\d\.\d|\bCC0\b|\bMIT\b|\bApache[- ]2\.0\b/i.exec(prose);
  if (named) return licenceFrom(named[0], undefined);
  const url = findAddress(prose);
  return url ? licenceFrom(url, undefined) : undefined;
}
