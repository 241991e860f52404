// Checks run inside a page in Chromium (`page.evaluate(fn)`): what people read on it, whether they
// can read it (contrast), and whether it fits the screen. Each is a plain function with no
// closure over this module, since Playwright sends its source to the page.

/** A piece of text a person meets on a page, with the language the page says it is in. */
export interface PageText {
  /** The `lang` of its nearest element that has one. */
  readonly lang: string;
  readonly text: string;
  /** Where it is: the element's tag, id and class, and the attribute it came from, if any. */
  readonly where: string;
}

/**
 * Runs in the page: every text a person meets, with its language: the visible text of every
 * element, the title, the description, each option of a list, and the words of `aria-label`,
 * `placeholder`, `title` and `data-confirm`. Left out, as not the page's own words: code
 * (`code`, `pre`), content marked `translate="no"` (names, account data), `time` (dates already
 * formatted by Intl in the page's language), what the reader typed (`textarea`), and the OpenAPI
 * document's own English descriptions in the docs' reference (`#reference-operations [lang]`).
 */
export function pageTexts(): PageText[] {
  interface Node {
    readonly nodeType: number;
    readonly textContent: string | null;
    readonly parentElement: Element | null;
  }
  interface Element extends Node {
    readonly tagName: string;
    readonly id: string;
    readonly className: unknown;
    closest(selector: string): Element | null;
    getAttribute(name: string): string | null;
    getClientRects(): ArrayLike<unknown>;
  }
  const view = globalThis as unknown as {
    document: {
      readonly title: string;
      readonly documentElement: Element;
      querySelectorAll(selector: string): ArrayLike<Element>;
      createTreeWalker(root: unknown, what: number): { nextNode(): Node | null };
      readonly body: Element;
    };
    getComputedStyle(element: Element): { visibility: string };
  };
  const { document } = view;
  const skipped =
    'code, pre, [translate="no"], time, textarea, script, style, noscript, #reference-operations [lang]';
  const langOf = (element: Element) => element.closest('[lang]')?.getAttribute('lang') ?? '';
  const describe = (element: Element, attribute?: string) =>
    `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${typeof element.className === 'string' && element.className ? `.${element.className.split(' ')[0]}` : ''}${attribute ? `[${attribute}]` : ''}`;
  const texts: PageText[] = [];
  const add = (element: Element, text: string | null | undefined, attribute?: string) => {
    const clean = (text ?? '').replace(/\s+/g, ' ').trim();
    if (clean !== '' && !element.closest(skipped))
      texts.push({ lang: langOf(element), text: clean, where: describe(element, attribute) });
  };
  const root = document.documentElement;
  add(root, document.title, 'title');
  const description = document.querySelectorAll('meta[name="description"]')[0];
  if (description) add(description, description.getAttribute('content'), 'content');
  const walker = document.createTreeWalker(document.body, 4);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.tagName === 'OPTION') continue;
    const inSvgText = parent.closest('svg') !== null;
    const shown = parent.getClientRects().length > 0 && view.getComputedStyle(parent).visibility !== 'hidden';
    // An SVG's title and description are what a screen reader reads for the picture.
    if (shown || (inSvgText && ['title', 'desc'].includes(parent.tagName.toLowerCase())))
      add(parent, node.textContent);
  }
  for (const option of Array.from(document.querySelectorAll('option'))) add(option, option.textContent);
  for (const attribute of ['aria-label', 'placeholder', 'title', 'data-confirm']) {
    for (const element of Array.from(document.querySelectorAll(`[${attribute}]`))) {
      add(element, element.getAttribute(attribute), attribute);
    }
  }
  return texts;
}

/**
 * Runs in the page: every visible element with text of its own whose colour against the first
 * opaque background behind it (WCAG 2 relative luminance) is under 4.5:1, as "text: ratio".
 */
export function lowContrastTexts(): string[] {
  type Rgba = [number, number, number, number];
  const parse = (css: string): Rgba => {
    const [r = 0, g = 0, b = 0, a = 1] = (css.match(/[\d.]+/g) ?? []).map(Number);
    return [r, g, b, css.startsWith('rgba') ? a : 1];
  };
  const luminance = ([r, g, b]: Rgba) => {
    const channel = (v: number) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  };
  const view = globalThis as unknown as {
    document: { querySelectorAll(s: string): ArrayLike<PageElement> };
    getComputedStyle(e: PageElement): {
      color: string;
      backgroundColor: string;
      backgroundImage: string;
      visibility: string;
    };
  };
  interface PageElement {
    readonly childNodes: ArrayLike<{ nodeType: number; textContent: string | null }>;
    readonly parentElement: PageElement | null;
    getClientRects(): ArrayLike<unknown>;
    readonly tagName: string;
  }
  const failures: string[] = [];
  for (const element of Array.from(view.document.querySelectorAll('body *'))) {
    const text = Array.from(element.childNodes)
      .filter((n) => n.nodeType === 3)
      .map((n) => n.textContent ?? '')
      .join('')
      .trim();
    if (text === '' || element.getClientRects().length === 0 || element.tagName === 'OPTION') continue;
    const style = view.getComputedStyle(element);
    if (style.visibility === 'hidden') continue;
    // The first opaque background behind the text: a colour, or every opaque stop of a gradient.
    let behind: PageElement | null = element;
    let backgrounds: Rgba[] = [[255, 255, 255, 1]];
    while (behind) {
      const own = view.getComputedStyle(behind);
      const stops = (own.backgroundImage.match(/rgba?\([^)]*\)/g) ?? []).map(parse).filter((c) => c[3] > 0.5);
      const colour = parse(own.backgroundColor);
      if (stops.length > 0 || colour[3] > 0.5) {
        backgrounds = stops.length > 0 ? stops : [colour];
        break;
      }
      behind = behind.parentElement;
    }
    const ink = luminance(parse(style.color));
    const ratio = Math.min(
      ...backgrounds.map((b) => {
        const [light, dark] = [ink, luminance(b)].sort((x, y) => y - x);
        return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
      }),
    );
    if (ratio < 4.5) failures.push(`"${text.slice(0, 40)}": ${ratio.toFixed(2)}`);
  }
  return failures;
}

/**
 * Runs in the page: what does not fit. The page must not scroll sideways, and no element whose
 * content is clipped or spills (overflow visible or hidden, not a scroll box) may be wider inside
 * than its box: a long word or label that pushes out of its button, cell or card.
 */
export function overflowingElements(): string[] {
  interface PageElement {
    readonly tagName: string;
    readonly id: string;
    readonly className: unknown;
    readonly scrollWidth: number;
    readonly clientWidth: number;
    readonly childNodes: ArrayLike<{ nodeType: number; textContent: string | null }>;
    getClientRects(): ArrayLike<unknown>;
    closest(selector: string): PageElement | null;
  }
  const view = globalThis as unknown as {
    document: {
      readonly documentElement: { readonly scrollWidth: number };
      querySelectorAll(s: string): ArrayLike<PageElement>;
    };
    readonly innerWidth: number;
    getComputedStyle(e: PageElement): { overflowX: string; display: string };
  };
  const failures: string[] = [];
  const sideways = view.document.documentElement.scrollWidth - view.innerWidth;
  if (sideways > 0) failures.push(`the page scrolls sideways by ${sideways}px`);
  for (const element of Array.from(view.document.querySelectorAll('body *'))) {
    const style = view.getComputedStyle(element);
    if (style.display === 'inline' || element.getClientRects().length === 0) continue;
    // A field's value scrolls inside it by nature (a long API key).
    if (['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName)) continue;
    if (style.overflowX === 'auto' || style.overflowX === 'scroll') continue;
    // Inside a scroll box (a wide table on a phone), content may be wider than the screen by design.
    if (element.closest('.table-wrap, .visually-hidden, pre') !== null) continue;
    if (element.scrollWidth > element.clientWidth + 1 && element.clientWidth > 0) {
      const name = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${typeof element.className === 'string' && element.className ? `.${element.className.split(' ')[0]}` : ''}`;
      failures.push(`${name}: ${element.scrollWidth}px of content in ${element.clientWidth}px`);
    }
  }
  return failures;
}
