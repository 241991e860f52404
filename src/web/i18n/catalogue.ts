import { readFileSync } from 'node:fs';
import { type MessageFormatElement, parse, TYPE } from '@formatjs/icu-messageformat-parser';
import { FORMAT_LOCALES, SITE_LANGUAGES, type SiteLanguage } from './languages.ts';

/** The name of a message: the English catalogue's keys are the complete list. */
export type MessageKey = keyof typeof import('./en.json', { with: { type: 'json' }});

/** A language's messages as written: ICU MessageFormat, keyed by name. */
export type Catalogue = Readonly<Record<string, unknown>>;

/** Every language's catalogue as its file holds it, read once at start. */
export function readCatalogues(): Readonly<Record<SiteLanguage, Catalogue>> {
  const read = (language: SiteLanguage): Catalogue =>
    JSON.parse(readFileSync(new URL(`./${language}.json`, import.meta.url), 'utf8')) as Catalogue;
  return { rw: read('rw'), fr: read('fr'), en: read('en') };
}

/** What a message takes: each argument and tag by name, with its kind ("count:plural", "link:tag"). */
function signatureOf(elements: readonly MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const element of elements) {
    switch (element.type) {
      case TYPE.argument:
        into.add(`${element.value}:argument`);
        break;
      case TYPE.number:
      case TYPE.date:
      case TYPE.time:
        into.add(`${element.value}:${TYPE[element.type]}`);
        break;
      case TYPE.plural:
      case TYPE.select:
        into.add(`${element.value}:${TYPE[element.type]}`);
        for (const option of Object.values(element.options)) signatureOf(option.value, into);
        break;
      case TYPE.tag:
        into.add(`${element.value}:tag`);
        signatureOf(element.children, into);
        break;
      default:
        break;
    }
  }
  return into;
}

/** Plural selectors a language has no category for (`few` in French), which would never be chosen. */
function unknownPluralCategories(
  elements: readonly MessageFormatElement[],
  categories: Set<string>,
): string[] {
  return elements.flatMap((element) => {
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      const own =
        element.type === TYPE.plural
          ? Object.keys(element.options).filter((s) => !s.startsWith('=') && !categories.has(s))
          : [];
      return [
        ...own,
        ...Object.values(element.options).flatMap((o) => unknownPluralCategories(o.value, categories)),
      ];
    }
    return element.type === TYPE.tag ? unknownPluralCategories(element.children, categories) : [];
  });
}

/** The parsed messages of every language, once they have passed `catalogueProblems`. */
export type ParsedCatalogues = Readonly<
  Record<SiteLanguage, ReadonlyMap<MessageKey, readonly MessageFormatElement[]>>
>;

/**
 * Everything wrong with a set of catalogues, as sentences (none: they are fit to serve), and
 * their parsed messages. A message must exist in every language that English has (and nowhere
 * else), parse as ICU MessageFormat, take exactly the arguments and tags of its English original
 * (a translation that drops `{count}` or a link would silently lose it), and use only the plural
 * categories its language has.
 */
export function checkCatalogues(catalogues: Readonly<Record<SiteLanguage, Catalogue>>): {
  problems: string[];
  parsed: ParsedCatalogues;
} {
  const problems: string[] = [];
  const keys = Object.keys(catalogues.en) as MessageKey[];
  const english = new Map<MessageKey, readonly MessageFormatElement[]>();
  const parsed = {} as Record<SiteLanguage, Map<MessageKey, readonly MessageFormatElement[]>>;
  for (const language of ['en', ...SITE_LANGUAGES.filter((l) => l !== 'en')] as const) {
    const catalogue = catalogues[language];
    const messages = new Map<MessageKey, readonly MessageFormatElement[]>();
    parsed[language] = messages;
    const categories = new Set(
      new Intl.PluralRules([...FORMAT_LOCALES[language]]).resolvedOptions().pluralCategories,
    );
    for (const extra of Object.keys(catalogue).filter((key) => !Object.hasOwn(catalogues.en, key))) {
      problems.push(`${language}: ${extra} is not in the English catalogue`);
    }
    for (const key of keys) {
      const source = catalogue[key];
      if (typeof source !== 'string' || source.trim() === '') {
        problems.push(`${language}: ${key} is missing`);
        continue;
      }
      let elements: MessageFormatElement[];
      try {
        elements = parse(source, { requiresOtherClause: true });
      } catch (error) {
        problems.push(`${language}: ${key} does not parse: ${(error as Error).message}`);
        continue;
      }
      messages.set(key, elements);
      for (const category of unknownPluralCategories(elements, categories)) {
        problems.push(`${language}: ${key} has a plural case "${category}" that ${language} does not have`);
      }
      if (language === 'en') {
        english.set(key, elements);
        continue;
      }
      const original = english.get(key);
      if (original === undefined) continue;
      const [want, got] = [signatureOf(original), signatureOf(elements)];
      const differs = [...want].some((s) => !got.has(s)) || [...got].some((s) => !want.has(s));
      if (differs) {
        problems.push(
          `${language}: ${key} takes ${[...got].sort().join(', ') || 'nothing'}, English takes ${[...want].sort().join(', ') || 'nothing'}`,
        );
      }
    }
  }
  return { problems, parsed };
}
