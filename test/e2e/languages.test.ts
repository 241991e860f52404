import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { type Browser, chromium, type Page } from 'playwright-core';
import type { EnginePool } from '../../src/speech/pool/engine-pool.ts';
import { allVoices } from '../../src/speech/voices/voices.ts';
import { SITE_LANGUAGES, type SiteLanguage } from '../../src/web/i18n/languages.ts';
import { translatorFor } from '../../src/web/i18n/translator.ts';
import { catalogueMatcher } from '../helpers/catalogue-text.ts';
import { CHROMIUM, CHROMIUM_ARGS, noChromium } from '../helpers/chromium.ts';
import { lowContrastTexts, overflowingElements, pageTexts } from '../helpers/page-checks.ts';
import { unusedPort } from '../helpers/ports.ts';
import { startTestPool } from '../helpers/tts-fixture.ts';
import { buildWebTestApp, type WebFixture } from '../helpers/web-fixture.ts';

// The website in each of its languages, in headless Chromium: a person picks the language with
// the switcher, signs up and uses every page in it; each page says its language in <html lang>,
// every word on it comes from that language's catalogue, every text is readable (4.5:1) and
// nothing spills out of its box on a phone (360 px) or a desktop (1280 px). One browser and one
// server for the file; screenshots of each page in each language go to ARTIFACTS.

declare const document: { readonly documentElement: { getAttribute(name: string): string | null } };
interface MediaElement {
  readonly duration: number;
}

const ARTIFACTS = new URL('../../test-artifacts/e2e/languages/', import.meta.url);
const PASSWORD = 'umuhanda mwiza cyane';
const ACCOUNT = (language: SiteLanguage) => `Ivuriro ${language.toUpperCase()}`;
const EMAIL = (language: SiteLanguage) => `ivuriro-${language}@kigali.example`;
const KEY_NAME = 'receptionist';
const PHRASE = 'Uwase';

const PUBLIC_PAGES = ['/', '/voices', '/docs', '/signin', '/signup', '/status', '/no-such-page'];
const SIGNED_IN_PAGES = ['/dashboard?notice=welcome', '/dashboard/lexicon', '/studio'];

describe('the website in Kinyarwanda, French and English, in a browser', { skip: noChromium }, () => {
  let pool: EnginePool;
  let web: WebFixture;
  let base: string;
  let browser: Browser;
  const notFromCatalogue = catalogueMatcher([
    ...allVoices().map((v) => v.name),
    ...SITE_LANGUAGES.flatMap((l) => [ACCOUNT(l), EMAIL(l)]),
    KEY_NAME,
    PHRASE,
  ]);

  before(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    const port = await unusedPort();
    base = `http://127.0.0.1:${port}`;
    [pool, browser] = await Promise.all([
      startTestPool(),
      chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS }),
    ]);
    web = await buildWebTestApp({ pool: () => pool, publicBaseUrl: base });
    await web.app.listen({ port, host: '127.0.0.1' });
  });

  after(async () => {
    await browser?.close();
    await web?.close();
    await pool?.close();
  });

  /** A fresh browser profile whose own language is English, as most are. */
  const newPage = async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    const page = await context.newPage();
    page.on('pageerror', (error) => assert.fail(`script error on ${page.url()}: ${error.message}`));
    return page;
  };
  const lang = (page: Page) => page.evaluate(() => document.documentElement.getAttribute('lang'));
  /** Picks a language with the switcher in the page's header. */
  const switchTo = async (page: Page, language: SiteLanguage) => {
    const name = translatorFor(language).text('language.autonym');
    const at = new URL(page.url());
    await Promise.all([
      page.waitForURL((url) => url.pathname === at.pathname),
      page.locator('.language-switcher').getByRole('link', { name, exact: true }).click(),
    ]);
  };

  /** Everything wrong with the page now on screen, in `language`, at 1280 and 360 px wide. */
  const problemsOf = async (page: Page, language: SiteLanguage, name: string): Promise<string[]> => {
    const problems: string[] = [];
    const where = `${language} ${new URL(page.url()).pathname}`;
    if ((await lang(page)) !== language) problems.push(`${where}: <html lang="${await lang(page)}">`);
    // The test runner's compiler names functions through a helper the page does not have.
    await page.evaluate('globalThis.__name ??= (f) => f');
    const texts = await page.evaluate(pageTexts);
    assert.ok(texts.length > 5, `${where} has text`);
    problems.push(...texts.flatMap((text) => notFromCatalogue(text) ?? []).map((p) => `${where}: ${p}`));
    problems.push(...(await page.evaluate(lowContrastTexts)).map((p) => `${where} contrast: ${p}`));
    problems.push(...(await page.evaluate(overflowingElements)).map((p) => `${where} at 1280 px: ${p}`));
    await page.screenshot({ path: new URL(`${name}-${language}.png`, ARTIFACTS).pathname, fullPage: true });
    await page.setViewportSize({ width: 360, height: 740 });
    problems.push(...(await page.evaluate(overflowingElements)).map((p) => `${where} at 360 px: ${p}`));
    await page.screenshot({
      path: new URL(`${name}-${language}-360.png`, ARTIFACTS).pathname,
      fullPage: true,
    });
    await page.setViewportSize({ width: 1280, height: 800 });
    return problems;
  };

  for (const language of SITE_LANGUAGES) {
    it(`serves every page in ${language}, public and signed in, from the ${language} catalogue, readable and fitting`, async () => {
      const t = translatorFor(language);
      const page = await newPage();
      await page.goto(`${base}/`);
      await switchTo(page, language);
      const problems: string[] = [];
      for (const path of PUBLIC_PAGES) {
        await page.goto(`${base}${path}`);
        problems.push(
          ...(await problemsOf(page, language, path.replace(/^\//, '').replace(/\W+/g, '-') || 'landing')),
        );
      }

      // Sign up with the form's own labels, then make the signed-in pages as full as they get.
      await page.goto(`${base}/`);
      await page.getByRole('link', { name: t.text('nav.getStarted') }).click();
      await page.getByLabel(t.text('signup.name')).fill(ACCOUNT(language));
      await page.getByLabel(t.text('auth.email')).fill(EMAIL(language));
      await page.getByLabel(t.text('auth.password')).fill(PASSWORD);
      await Promise.all([
        page.waitForURL(`${base}/dashboard?notice=welcome`),
        page.getByRole('button', { name: t.text('signup.submit') }).click(),
      ]);
      await page.locator('#key-name').fill(KEY_NAME);
      await page.getByRole('button', { name: t.text('dashboard.keys.create') }).click();
      await page.locator('#new-key').waitFor();
      problems.push(...(await problemsOf(page, language, 'dashboard-new-key')));
      await page.goto(`${base}/dashboard/lexicon`);
      await page.locator('#lex-phrase').fill(PHRASE);
      await page.locator('#lex-says').fill('oo wah seh');
      await page.getByRole('button', { name: t.text('lexicon.add') }).click();
      await page.waitForURL(/notice=added/);
      for (const path of SIGNED_IN_PAGES) {
        await page.goto(`${base}${path}`);
        problems.push(...(await problemsOf(page, language, path.replace(/^\//, '').replace(/\W+/g, '-'))));
      }
      assert.deepEqual(problems, []);
      await page.context().close();
    });
  }

  it('keeps the page and the choice when the switcher is used, for the visitor and then for the account', async () => {
    const page = await newPage();
    await page.goto(`${base}/docs#live`);
    assert.equal(await lang(page), 'en', 'an English browser gets English first');
    await switchTo(page, 'fr');
    assert.equal(new URL(page.url()).pathname, '/docs', 'the same page');
    assert.equal(await lang(page), 'fr');
    assert.equal(
      await page.locator('.language-switcher [aria-current="true"]').textContent(),
      'Français',
      'the switcher shows the choice',
    );
    // Links lead to pages in the chosen language.
    await page
      .locator('.main-nav')
      .getByRole('link', { name: translatorFor('fr').text('nav.voices') })
      .click();
    await page.waitForURL(`${base}/voices`);
    assert.equal(await lang(page), 'fr');

    // Signed in (the French account made above), the switch is kept with the account: another
    // browser, English by its own settings, gets Kinyarwanda after signing in.
    await page.goto(`${base}/signin`);
    await page.locator('#email').fill(EMAIL('fr'));
    await page.locator('#password').fill(PASSWORD);
    await Promise.all([page.waitForURL(`${base}/dashboard`), page.locator('form.stack button').click()]);
    await switchTo(page, 'rw');
    assert.equal(new URL(page.url()).pathname, '/dashboard');
    assert.equal(await lang(page), 'rw');
    const other = await newPage();
    await other.goto(`${base}/signin`);
    assert.equal(await lang(other), 'en');
    await other.locator('#email').fill(EMAIL('fr'));
    await other.locator('#password').fill(PASSWORD);
    await Promise.all([other.waitForURL(`${base}/dashboard`), other.locator('form.stack button').click()]);
    assert.equal(await lang(other), 'rw', 'the account’s choice follows it to another browser');
    await other.goto(`${base}/voices`);
    assert.equal(await lang(other), 'rw', 'and to the pages that read no session');
    await page.context().close();
    await other.context().close();
  });

  for (const language of ['rw', 'fr'] as const) {
    it(`signs up and generates speech in the studio in ${language}, end to end`, async () => {
      const t = translatorFor(language);
      const page = await newPage();
      await page.goto(`${base}/signup`);
      await switchTo(page, language);
      await page.getByLabel(t.text('signup.name')).fill(`Studio ${language}`);
      await page.getByLabel(t.text('auth.email')).fill(`studio-${language}@kigali.example`);
      await page.getByLabel(t.text('auth.password')).fill(PASSWORD);
      await Promise.all([
        page.waitForURL(`${base}/dashboard?notice=welcome`),
        page.getByRole('button', { name: t.text('signup.submit') }).click(),
      ]);
      assert.equal(
        (await page.locator('.alert').textContent())?.trim(),
        t.text('dashboard.notice.welcome'),
        'welcomed in the language signed up in',
      );
      await page
        .locator('.main-nav')
        .getByRole('link', { name: t.text('nav.studio') })
        .click();
      await page.waitForURL(`${base}/studio`);
      // The voice's language starts as the page's, and the example is in it.
      assert.equal(await page.locator('#language').inputValue(), language);
      await page.getByRole('button', { name: t.text('studio.example') }).click();
      const price = await page.locator('#price').textContent();
      assert.equal(
        price,
        language === 'rw'
          ? t.text('studio.script.price.free')
          : t.text('studio.script.price.freeUse', { count: 5 }),
      );
      await page.getByRole('button', { name: t.text('studio.speak') }).click();
      await page.waitForSelector('#studio-form[data-state="done"]', { timeout: 30_000 });
      const duration = await page.locator('#player').evaluate((el: MediaElement) => el.duration);
      assert.ok(Number.isFinite(duration) && duration > 1, `audio of ${duration} s`);
      const status = (await page.locator('#status').textContent()) ?? '';
      const seconds = Number(/\d+(?:[.,]\d+)?/.exec(status)?.[0]?.replace(',', '.'));
      assert.equal(status, t.text('studio.script.state.done', { seconds }), 'the state in the page’s words');
      assert.equal(
        (await page.locator('#free-uses').textContent())?.trim(),
        t.text('studio.freeLeft', { count: language === 'rw' ? 5 : 4, total: 5 }),
        language === 'rw' ? 'Kinyarwanda is free in the studio' : 'French used a free generation',
      );
      const row = await web.db.kysely
        .selectFrom('users')
        .select('language')
        .where('email', '=', `studio-${language}@kigali.example`)
        .executeTakeFirstOrThrow();
      assert.equal(row.language, language, 'the account keeps the language it signed up in');
      await page.screenshot({
        path: new URL(`studio-done-${language}.png`, ARTIFACTS).pathname,
        fullPage: true,
      });
      await page.context().close();
    });
  }
});
