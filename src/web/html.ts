/**
 * HTML that is safe to send: built only by `html` (which escapes every interpolated value) or
 * by `trusted` (for markup this codebase wrote). Pages never concatenate strings into markup.
 */
export class SafeHtml {
  constructor(readonly value: string) {}

  toString(): string {
    return this.value;
  }
}

/** What may be interpolated into `html`: text (escaped), numbers, nothing (false, null, undefined), or safe HTML. */
export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text as HTML text or attribute value (quoted). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false || value === true) return '';
  return escapeHtml(String(value));
}

/** A template tag: `html`<p>${userText}</p>`` escapes `userText`; nested `html` results pass through. */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** Markup written in this codebase (an inline SVG icon), marked safe. Never pass user input. */
export function trusted(markup: string): SafeHtml {
  return new SafeHtml(markup);
}
