// The studio's words in the page's language: the server hands the page the catalogue's messages
// (ICU MessageFormat) and the locales to format in, and they are formatted here with the library
// the server uses, so a price or a count reads the same whichever side wrote it.

import { IntlMessageFormat } from './intl-messageformat.js';

/**
 * The messages and locales an element carries in `data-messages` and `data-locales`.
 * @param {HTMLElement} element
 */
export function messagesOf(element) {
  const messages = JSON.parse(element.dataset.messages ?? '{}');
  const locales = JSON.parse(element.dataset.locales ?? '["en"]');
  const formats = new Map();
  const money = new Intl.NumberFormat(locales, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const number = new Intl.NumberFormat(locales);

  /** A message with its values; a name the page was not given is a bug, and throws. */
  function text(key, values) {
    let format = formats.get(key);
    if (format === undefined) {
      const source = messages[key];
      if (source === undefined) throw new Error(`the page has no message ${key}`);
      format = new IntlMessageFormat(source, locales);
      formats.set(key, format);
    }
    return String(format.format(values));
  }

  return {
    text,
    /** A whole number with the page language's separators. */
    number: (value) => number.format(value),
    /** The price of `tokens` at `tokenCents` US cents each. */
    usd: (tokens, tokenCents) => text('format.usd', { amount: money.format((tokens * tokenCents) / 100) }),
  };
}
