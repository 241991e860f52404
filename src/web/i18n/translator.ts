import { IntlMessageFormat } from 'intl-messageformat';
import { TOKEN_PRICE_US_CENTS } from '../../accounts/billing.ts';
import { html, type SafeHtml } from '../html.ts';
import {
  type Catalogue,
  checkCatalogues,
  type MessageKey,
  type ParsedCatalogues,
  readCatalogues,
} from './catalogue.ts';
import { FORMAT_LOCALES, type SiteLanguage } from './languages.ts';

/** What a rich message takes: text and numbers, markup, and for each tag the markup that wraps its words. */
export type RichValue = string | number | SafeHtml | ((content: SafeHtml) => SafeHtml);

/**
 * The website's words in one language. Pages take one for the request's language and write no
 * visible text of their own: every sentence is a message of `web/i18n/<language>.json`, and every
 * number, price and date goes through `Intl` in that language.
 */
export interface Translator {
  readonly language: SiteLanguage;
  /** The locales `Intl` formats in, best first (see `FORMAT_LOCALES`). */
  readonly locales: readonly string[];
  /** A message as plain text (escaped wherever `html` puts it). */
  text(key: MessageKey, values?: Readonly<Record<string, string | number>>): string;
  /** A message as markup: its tags become the markup given for them, its values are escaped unless already markup. */
  rich(key: MessageKey, values?: Readonly<Record<string, RichValue>>): SafeHtml;
  /** The ICU source of a message, for the studio's script to format in the browser. */
  source(key: MessageKey): string;
  /** A number with this language's separators: `10,000`, `10 000`, `10.000`. */
  number(value: number, options?: Intl.NumberFormatOptions): string;
  /** The price of `tokens` in US dollars: `11.56 USD`, `11,56 USD`, `USD 11,56`. */
  usd(tokens: number): string;
  /**
   * An ISO time as day, month, year and time, always in UTC and saying so: the page is rendered
   * on the server, which cannot know the reader's zone, and a labelled UTC time is never misread.
   */
  dateTime(iso: string): string;
  /** A UTC calendar day (`YYYY-MM-DD`) as this language writes it short: `21 Nov`, `21 nov.`, `21 Ugu.` */
  day(isoDay: string): string;
}

const catalogues = readCatalogues();
const { problems, parsed } = checkCatalogues(catalogues);
// A missing or broken message stops the service at start, never shows as a blank or in English.
if (problems.length > 0)
  throw new Error(`the website's catalogues are not fit to serve:\n${problems.join('\n')}`);

function createTranslator(
  language: SiteLanguage,
  messages: ParsedCatalogues[SiteLanguage],
  catalogue: Catalogue,
): Translator {
  const locales = [...FORMAT_LOCALES[language]];
  const compiled = new Map<MessageKey, IntlMessageFormat>();
  const sources = new Map<MessageKey, string>();
  const numberFormats = new Map<string, Intl.NumberFormat>();
  const formatter = (key: MessageKey): IntlMessageFormat => {
    let found = compiled.get(key);
    if (found === undefined) {
      const elements = messages.get(key);
      if (elements === undefined) throw new Error(`no message ${key} in ${language}`);
      found = new IntlMessageFormat([...elements], locales);
      compiled.set(key, found);
    }
    return found;
  };
  const number = (value: number, options: Intl.NumberFormatOptions = {}) => {
    const id = JSON.stringify(options);
    let format = numberFormats.get(id);
    if (format === undefined) {
      format = new Intl.NumberFormat(locales, options);
      numberFormats.set(id, format);
    }
    return format.format(value);
  };
  const dateTimeFormat = new Intl.DateTimeFormat(locales, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'UTC',
    timeZoneName: 'short',
  });
  const dayFormat = new Intl.DateTimeFormat(locales, { day: 'numeric', month: 'short', timeZone: 'UTC' });
  for (const [key, value] of Object.entries(catalogue)) sources.set(key as MessageKey, String(value));
  const translator: Translator = {
    language,
    locales,
    text(key, values) {
      const out = formatter(key).format(values);
      if (typeof out !== 'string') throw new Error(`${key} holds markup: use rich()`);
      return out;
    },
    rich(key, values = {}) {
      const wrapped = Object.fromEntries(
        Object.entries(values).map(([name, value]) => [
          name,
          typeof value === 'function'
            ? (chunks: readonly (string | SafeHtml)[]) => value(html`${chunks}`)
            : value,
        ]),
      );
      return html`${formatter(key).format<SafeHtml>(wrapped)}`;
    },
    source(key) {
      const found = sources.get(key);
      if (found === undefined) throw new Error(`no message ${key} in ${language}`);
      return found;
    },
    number,
    usd(tokens) {
      const amount = number((tokens * TOKEN_PRICE_US_CENTS) / 100, {
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
      });
      return translator.text('format.usd', { amount });
    },
    dateTime(iso) {
      const date = new Date(iso);
      return Number.isNaN(date.getTime()) ? iso : dateTimeFormat.format(date);
    },
    day(isoDay) {
      return dayFormat.format(new Date(`${isoDay}T00:00:00Z`));
    },
  };
  return translator;
}

// Made when a page in the language is first rendered, not at start: a translator's `Intl`
// formatters pull in their locale's ICU data, and an instance that serves only the API (most
// do) would hold about 20 MB for nothing (measured as the service's resident memory when ready).
const translators = new Map<SiteLanguage, Translator>();

/** The website's words in `language`. */
export function translatorFor(language: SiteLanguage): Translator {
  let translator = translators.get(language);
  if (translator === undefined) {
    translator = createTranslator(language, parsed[language], catalogues[language]);
    translators.set(language, translator);
  }
  return translator;
}
