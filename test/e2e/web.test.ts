import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import type { EnginePool } from '../../src/speech/pool/engine-pool.ts';
import { CHROMIUM, CHROMIUM_ARGS, noChromium } from '../helpers/chromium.ts';
import { noDecoder, probe } from '../helpers/decoder.ts';
import { lowContrastTexts } from '../helpers/page-checks.ts';
import { unusedPort } from '../helpers/ports.ts';
import { startTestPool } from '../helpers/tts-fixture.ts';
import { buildWebTestApp, type WebFixture } from '../helpers/web-fixture.ts';

// The website in headless Chromium: a person signs up, gets a key, uses it, hears the studio,
// runs out of free generations, revokes the key; a forged form from elsewhere is refused. One
// story, in order, in one browser profile. Screenshots of every page go to ARTIFACTS.

// What the functions run in the page below use; they run in the browser, which has the real ones.
interface MediaElement {
  readonly currentTime: number;
  readonly duration: number;
  play(): Promise<void>;
}
declare const document: {
  querySelector(selector: string): MediaElement | null;
  readonly activeElement: unknown;
  readonly documentElement: { readonly scrollWidth: number };
};
declare const window: { readonly innerWidth: number };
declare const navigator: { readonly clipboard: { readText(): Promise<string> } };
declare function getComputedStyle(element: unknown): { readonly boxShadow: string };

const ARTIFACTS = new URL('../../test-artifacts/e2e/', import.meta.url);
const EMAIL = 'amina@kigali-clinic.example';
const PASSWORD = 'umuhanda mwiza cyane';
const LONG_RW = Array(18)
  .fill(
    'Muraho neza! Murakaza neza ku ivuriro ryacu. Turafungura saa mbiri za mu gitondo, tugafunga saa kumi n’imwe.',
  )
  .join(' ');

/** A page elsewhere that posts a forged key-creation form to the dashboard as soon as it loads. */
function forgedFormPage(target: string): string {
  return `<!doctype html><html><body><h1>You won a prize!</h1>
<form id="f" method="post" action="${target}/dashboard/keys"><input type="hidden" name="name" value="stolen"></form>
<script>document.getElementById('f').submit();</script></body></html>`;
}

describe('the website in a browser', {
  skip: noChromium,
}, () => {
  let pool: EnginePool;
  let web: WebFixture;
  let base: string;
  let attacker: Server;
  let attackerPort: number;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let apiKey = '';
  const policyViolations: string[] = [];

  const shot = async (name: string, target: Page = page) => {
    await target.screenshot({ path: new URL(`${name}.png`, ARTIFACTS).pathname, fullPage: true });
  };
  const accountId = async () => {
    const row = await web.db.kysely
      .selectFrom('users')
      .select('account_id')
      .where('email', '=', EMAIL)
      .executeTakeFirstOrThrow();
    return row.account_id;
  };
  const balance = async () => {
    const result = await web.billing.balance(await accountId());
    assert.ok(result.ok);
    return { tokens: result.balance, free: result.freeUsesRemaining };
  };
  const callApi = (key: string) =>
    fetch(`${base}/api/v1/tts.php`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: 'Hello from the test.', language: 'en', speaker_id: 1 }),
    });

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
    attacker = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' }).end(forgedFormPage(base));
    });
    attackerPort = await unusedPort();
    await new Promise<void>((resolve) => attacker.listen(attackerPort, '127.0.0.1', resolve));
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    page = await context.newPage();
    page.on('pageerror', (error) => assert.fail(`script error on ${page.url()}: ${error.message}`));
    context.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) policyViolations.push(message.text());
    });
  });

  after(async () => {
    await browser?.close();
    await new Promise((resolve) => attacker?.close(resolve));
    await web?.close();
    await pool?.close();
  });

  it('shows the landing page, keyboard first: the skip link is the first stop and visibly focused', async () => {
    await page.goto(`${base}/`);
    assert.equal(await page.locator('h1').textContent(), 'Voices for Kinyarwanda, English and French');
    await page.keyboard.press('Tab');
    const skip = page.locator('.skip-link');
    assert.equal(await skip.evaluate((el) => el === document.activeElement), true);
    const box = await skip.boundingBox();
    assert.ok(box && box.y >= 0, 'the focused skip link is on screen');
    assert.notEqual(await skip.evaluate((el) => getComputedStyle(el).boxShadow), 'none', 'focus is visible');
    await shot('landing');
  });

  it('signs up with labelled fields', async () => {
    await page.goto(`${base}/signup`);
    await shot('signup');
    await page.getByLabel('Name or organisation').fill('Kigali Clinic');
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await Promise.all([
      page.waitForURL(`${base}/dashboard?notice=welcome`),
      page.getByRole('button', { name: 'Create account' }).click(),
    ]);
    assert.equal((await page.locator('#free-uses').textContent())?.trim(), '5 of 5');
    assert.deepEqual(await balance(), { tokens: 0, free: 5 });
  });

  it('creates an API key, shows it once with a copy button, then only its hint', async () => {
    await page.getByLabel('New key name').fill('receptionist');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.locator('#new-key').waitFor();
    apiKey = await page.locator('#new-key-value').inputValue();
    assert.match(apiKey, /^ijwi_sk_[0-9A-Za-z]{34}$/);
    assert.match((await page.locator('#new-key').textContent()) ?? '', /only time it is shown/);
    await page.getByRole('button', { name: 'Copy' }).click();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), apiKey);
    await shot('dashboard-new-key');
    // Post/redirect/get: reloading the page shows no key and creates none.
    assert.match(page.url(), /\/dashboard\?notice=key_created/);
    await page.reload();
    const content = await page.content();
    assert.ok(!content.includes(apiKey), 'the key is not shown again');
    assert.ok(content.includes(`ijwi_sk_…${apiKey.slice(-4)}`));
    assert.equal((content.match(/ijwi_sk_…/g) ?? []).length, 1, 'one key, however often it reloads');
  });

  it('calls the API with the key', async () => {
    const response = await callApi(apiKey);
    assert.equal(response.status, 200);
    const body = (await response.json()) as { output_url: string; billing: { free_uses_remaining: number } };
    assert.equal(body.billing.free_uses_remaining, 4);
    const file = await fetch(body.output_url);
    assert.equal(file.status, 200);
    assert.equal(file.headers.get('content-type'), 'audio/wav');
  });

  it('speaks Kinyarwanda in the studio while it is generated, plays it, and charges nothing', async () => {
    await page.goto(`${base}/studio`);
    const before = await balance();
    assert.equal(
      await page.locator('#language').inputValue(),
      'en',
      'the voice starts in the page’s language',
    );
    await page.locator('#language').selectOption('rw');
    await page.getByLabel('Text to speak').fill(LONG_RW);
    assert.equal(await page.locator('#price').textContent(), 'Free in the studio');
    assert.equal(
      await page.locator('#char-count').textContent(),
      [...LONG_RW].length.toLocaleString('en-US'),
    );
    await page.getByRole('button', { name: 'Speak' }).click();
    // The media element advances while the form still says the rest is being generated.
    await page.waitForFunction(() => (document.querySelector('#player')?.currentTime ?? 0) > 0.05);
    assert.equal(await page.locator('#studio-form').getAttribute('data-state'), 'streaming');

    // A short text replaces it; wait until the finished WAV is in the player.
    await page.getByLabel('Text to speak').fill('Muraho neza! Murakaza neza kuri Ijwi.');
    await page.getByRole('button', { name: 'Speak' }).click();
    await page.waitForSelector('#studio-form[data-state="done"]', { timeout: 20_000 });
    const player = page.locator('#player');
    const duration = await player.evaluate((el: MediaElement) => el.duration);
    assert.ok(Number.isFinite(duration) && duration > 1 && duration < 10, `duration ${duration}`);
    await player.evaluate((el: MediaElement) => el.play());
    await page.waitForFunction(() => (document.querySelector('#player')?.currentTime ?? 0) > 0.3);
    assert.equal(await page.locator('#download').isVisible(), true);
    assert.match((await page.locator('#download').getAttribute('href')) ?? '', /^blob:/);
    // Another format: the page has the server encode the WAV it holds, and saves what comes back.
    await page.getByLabel('Download as').selectOption('opus');
    const [file] = await Promise.all([page.waitForEvent('download'), page.locator('#download').click()]);
    assert.match(file.suggestedFilename(), /^ijwi-rw-\w+\.opus$/);
    const opus = await readFile(await file.path());
    assert.equal(opus.toString('latin1', 0, 4), 'OggS');
    if (!noDecoder) assert.equal((await probe(opus)).codec, 'opus');
    assert.deepEqual(await balance(), before, 'studio Kinyarwanda is free');
    assert.equal((await page.locator('#free-uses').textContent())?.trim(), '4 of 5 left');
    await shot('studio');
  });

  it('plays at the rate chosen, shows progress and length, stops on Stop, and keeps the last generations', async () => {
    await page.goto(`${base}/studio`);
    await page.locator('#language').selectOption('rw');
    await page.getByLabel('Text to speak').fill('Muraho neza! Murakaza neza kuri Ijwi.');
    await page.getByRole('button', { name: 'Speak' }).click();
    await page.waitForSelector('#studio-form[data-state="done"]', { timeout: 20_000 });
    const normal = await page.locator('#player').evaluate((el: MediaElement) => el.duration);
    await page.getByLabel('Speaking rate').selectOption('150');
    await page.getByRole('button', { name: 'Speak' }).click();
    await page.waitForSelector('#studio-form[data-state="done"]', { timeout: 20_000 });
    const fast = await page.locator('#player').evaluate((el: MediaElement) => el.duration);
    assert.ok(fast < normal * 0.85, `faster: ${fast} s against ${normal} s`);
    assert.match((await page.locator('#progress').textContent()) ?? '', /^\d:\d\d \/ \d:\d\d$/);
    assert.equal(await page.locator('#history li').count(), 2, 'both generations kept to replay');
    assert.equal(await page.locator('#history li a[download]').count(), 2);

    await page.getByLabel('Speaking rate').selectOption('100');
    await page.getByLabel('Text to speak').fill(LONG_RW);
    await page.getByRole('button', { name: 'Speak' }).click();
    await page.waitForSelector('#studio-form[data-state="streaming"]', { timeout: 20_000 });
    await page.getByRole('button', { name: 'Stop playback' }).click();
    assert.equal(await page.locator('#studio-form').getAttribute('data-state'), 'stopped');
    assert.equal(await page.getByRole('button', { name: 'Speak' }).isEnabled(), true);
    await shot('studio-history');
  });

  it('speaks in live mode as text is typed or pasted, and Stop cuts it off with nothing after', async () => {
    const live = page.locator('#live');
    const frames = async () => Number(await live.getAttribute('data-frames'));
    const until = async (test: () => Promise<boolean>) => {
      for (let i = 0; i < 400 && !(await test()); i++) await sleep(50);
      assert.ok(await test(), 'timed out');
    };
    const before = await balance();
    await page.locator('#language').selectOption('rw');
    await page.getByRole('button', { name: 'Start live' }).click();
    await page.waitForSelector('#live[data-state="open"]');
    const typed = 'Muraho neza, murakaza neza kuri Ijwi. ';
    await page.getByLabel('Live text').pressSequentially(typed, { delay: 15 });
    await until(async () => (await frames()) > 10);
    // A pasted reply goes out word by word; Stop while it is being spoken.
    await page.getByLabel('Live text').fill(`${typed}${LONG_RW.slice(0, 600)}`);
    const spoken = await frames();
    await until(async () => (await frames()) > spoken + 20);
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await page.waitForSelector('#live[data-state="cleared"]');
    const atClear = await frames();
    await sleep(1500);
    assert.equal(await frames(), atClear, 'no audio after the clear');
    await shot('studio-live');
    assert.deepEqual(await balance(), before, 'studio Kinyarwanda is free live too');
  });

  it('speaks English in the studio and the trial count goes down', async () => {
    await page.locator('#language').selectOption('en');
    await page.getByLabel('Voice').selectOption({ label: 'Amani · female, African English' });
    await page.getByLabel('Text to speak').fill('Hello, thank you for calling the clinic.');
    assert.equal(await page.locator('#price').textContent(), 'Uses 1 of your 4 free generations');
    await page.getByRole('button', { name: 'Speak' }).click();
    await page.waitForSelector('#studio-form[data-state="streamed"], #studio-form[data-state="done"]');
    assert.equal((await page.locator('#free-uses').textContent())?.trim(), '3 of 5 left');
    assert.deepEqual(await balance(), { tokens: 0, free: 3 });
  });

  it('explains a 402 with the top-up minimum once the trial is used up', async () => {
    const id = await accountId();
    for (let i = 0; i < 3; i++) {
      const used = await web.billing.commitCharge(id, {
        tokens: 1,
        seconds: 1,
        characters: 12,
        language: 'fr',
        requestId: `req_e2e_trial_${i}`,
        studio: true,
      });
      assert.ok(used.ok);
    }
    await page.goto(`${base}/studio`);
    // A clip first (Kinyarwanda, free), so the refusal below has one it must stop offering.
    await page.locator('#language').selectOption('rw');
    await page.getByLabel('Text to speak').fill('Muraho neza.');
    await page.getByRole('button', { name: 'Speak' }).click();
    await page.waitForSelector('#studio-form[data-state="done"]', { timeout: 20_000 });
    assert.equal(await page.locator('#download').isVisible(), true);
    await page.locator('#language').selectOption('fr');
    await page.getByLabel('Text to speak').fill('Bonjour et bienvenue.');
    assert.equal(await page.locator('#price').textContent(), '1 token · 0.04 USD · your balance is 0 tokens');
    await page.getByRole('button', { name: 'Speak' }).click();
    const error = page.locator('#studio-error');
    await error.waitFor();
    const text = (await error.textContent()) ?? '';
    assert.match(text, /289 tokens \(11\.56 USD\)/);
    assert.match(text, /Kinyarwanda stays free/);
    assert.ok(!text.includes('insufficient_tokens'), 'explained, not a raw error');
    assert.equal(
      await page.locator('#download').isVisible(),
      false,
      'the earlier clip is not offered as this one',
    );
    assert.equal(await page.locator('#player').getAttribute('src'), null);
    await shot('studio-402');
    // The way out of the 402: ask for tokens in the dashboard, quoting a reference.
    await page.getByRole('link', { name: 'Buy tokens' }).click();
    await page.getByLabel('Tokens', { exact: true }).fill('289');
    await page.getByRole('button', { name: 'Ask for tokens' }).click();
    await page.waitForURL(/notice=topup_requested/);
    assert.match((await page.locator('#topup-requests').textContent()) ?? '', /IJW-\w{8}\s*289\s*11\.56 USD/);
    await shot('dashboard-topup');
    await page.goto(`${base}/studio`);
  });

  it('shows the studio’s limit before it bites, and refuses an over-long paste whole instead of cutting it', async () => {
    await page.getByLabel('Text to speak').fill('');
    assert.equal(await page.locator('#price').textContent(), '', 'nothing is priced for an empty text');
    assert.match((await page.locator('#meter').textContent()) ?? '', /0 of 10,000 characters/);
    const long = 'Bonjour et bienvenue à la clinique. '.repeat(300).trim();
    await page.getByLabel('Text to speak').fill(long);
    assert.equal((await page.getByLabel('Text to speak').inputValue()).length, long.length, 'nothing is cut');
    assert.equal(await page.locator('#over-limit').isVisible(), true);
    assert.equal(await page.locator('#char-count').textContent(), [...long].length.toLocaleString('en-US'));
    await page.getByRole('button', { name: 'Speak' }).click();
    assert.match((await page.locator('#studio-error').textContent()) ?? '', /at most 10,000/);
    await shot('studio-too-long');
  });

  it('lists usage from the ledger on the dashboard', async () => {
    await page.goto(`${base}/dashboard`);
    const rows = page.locator('#usage tbody tr');
    assert.equal(await rows.count(), 5, 'the API call, studio English and three French generations');
    assert.match((await rows.last().textContent()) ?? '', /English[\s\S]*20[\s\S]*Free/);
    await shot('dashboard');
  });

  it('keeps pronunciations: errors beside their fields, added once however often it reloads, heard in the studio, deleted', async () => {
    await page.goto(`${base}/dashboard`);
    await page.getByRole('link', { name: 'Edit pronunciations' }).click();
    await page.waitForURL(`${base}/dashboard/lexicon`);
    await page.locator('#lex-language').selectOption('en');
    await page.locator('#lex-phrase').fill('Uwase');
    await page.locator('#lex-kind').selectOption('ipa');
    await page.locator('#lex-says').fill('ʘ');
    await page.getByRole('button', { name: 'Add entry' }).click();
    assert.match(
      (await page.locator('#lex-says-error').textContent()) ?? '',
      /a sound a voice of this language cannot say/,
    );
    assert.equal(await page.locator('#lex-says').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.locator('#lex-phrase').inputValue(), 'Uwase', 'what was typed is kept');

    await page.locator('#lex-kind').selectOption('respelling');
    await page.locator('#lex-says').fill('oo wah seh');
    await page.getByRole('button', { name: 'Add entry' }).click();
    await page.waitForURL(`${base}/dashboard/lexicon?notice=added`);
    await page.reload();
    // The default dictionary's entries; the list of the account's dictionaries is a table too.
    const entries = page.locator('section[aria-labelledby="entries-title"] tbody tr');
    assert.equal(await entries.count(), 1, 'a reload never adds it twice');
    await shot('lexicon');

    await page.getByRole('link', { name: 'Hear it' }).click();
    await page.waitForURL(/\/studio\?/);
    assert.equal(await page.getByLabel('Text to speak').inputValue(), 'Uwase');
    assert.equal(await page.locator('#language').inputValue(), 'en');

    await page.goto(`${base}/dashboard/lexicon`);
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(`${base}/dashboard/lexicon?notice=deleted`);
    assert.equal(await page.getByText('No entries yet.').isVisible(), true);
    await page.goto(`${base}/dashboard`);
  });

  it('revokes the key, after which the API answers 401', async () => {
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: /Revoke/ }).click();
    await page.waitForURL(/notice=key_revoked/);
    const response = await callApi(apiKey);
    assert.equal(response.status, 401);
    assert.equal(response.headers.get('www-authenticate'), 'Bearer');
  });

  it('refuses a form posted from another site, and from another origin of the same site', async () => {
    for (const host of ['localhost', '127.0.0.1']) {
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.url() === `${base}/dashboard/keys`),
        page.goto(`http://${host}:${attackerPort}/`),
      ]);
      assert.equal(response.status(), 403, host);
      await page.waitForURL(`${base}/dashboard/keys`);
      assert.match((await page.locator('h1').textContent()) ?? '', /Request refused/);
    }
    await page.goto(`${base}/dashboard`);
    assert.ok(!(await page.content()).includes('stolen'), 'no key was created');
  });

  it('shows every voice with a sample that plays', async () => {
    await page.getByRole('link', { name: 'Voices', exact: true }).first().click();
    await page.waitForURL(`${base}/voices`);
    const samples = page.locator('audio[src^="/samples/"]');
    assert.equal(await samples.count(), 11);
    // Every player lies inside its voice's card at this width (1280 px), none cut off at the edge.
    for (let i = 0; i < 11; i++) {
      const player = await samples.nth(i).boundingBox();
      const card = await page.locator('.voice-card').nth(i).boundingBox();
      assert.ok(player && card, 'laid out');
      assert.ok(
        player.x >= card.x && player.x + player.width <= card.x + card.width + 0.5,
        `player ${i} fits its card`,
      );
    }
    await samples.first().evaluate((el: MediaElement) => el.play());
    await page.waitForFunction(() => {
      const audio = document.querySelector('audio[src^="/samples/"]');
      return audio !== null && Number.isFinite(audio.duration) && audio.currentTime > 0.2;
    });
    await shot('voices');
  });

  it('shows the API docs with copyable curl calls for both endpoints', async () => {
    await page.goto(`${base}/docs`);
    assert.match(
      (await page.locator('#curl-tts').textContent()) ?? '',
      /^curl -s http:\/\/127\.0\.0\.1:\d+\/api\/v1\/tts\.php/,
    );
    assert.match((await page.locator('#curl-tts-stream').textContent()) ?? '', /\/api\/v1\/tts-stream\.php/);
    await page.locator('[data-copy="curl-tts-stream"]').click();
    assert.match(await page.evaluate(() => navigator.clipboard.readText()), /tts-stream\.php/);
    assert.equal(await page.locator('#tts-stream').count(), 1, 'the reference has the stream endpoint');
    await shot('docs');
  });

  it('signs out, and signs in again with the keyboard alone', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${base}/`);
    await page.goto(`${base}/dashboard`);
    await page.waitForURL(/\/signin\?next=%2Fdashboard/);
    await shot('signin');
    await page.getByLabel('Email').focus();
    await page.keyboard.type(EMAIL);
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await Promise.all([page.waitForURL(`${base}/dashboard`), page.keyboard.press('Enter')]);
  });

  it('fits a phone screen', async () => {
    const phone = await context.newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    for (const [name, path] of [
      ['landing-phone', '/'],
      ['studio-phone', '/studio'],
      ['dashboard-phone', '/dashboard'],
      ['voices-phone', '/voices'],
      ['lexicon-phone', '/dashboard/lexicon'],
      ['error-phone', '/no-such-page'],
      ['status-phone', '/status'],
    ] as const) {
      await phone.goto(`${base}${path}`);
      const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${path} scrolls sideways by ${overflow}px`);
      await shot(name, phone);
    }
    await phone.close();
  });

  it('gives every text on every page a contrast of at least 4.5:1 against what is behind it', async () => {
    const failures: string[] = [];
    for (const path of [
      '/',
      '/studio',
      '/dashboard',
      '/dashboard/lexicon',
      '/api/v1/voices.php',
      '/docs',
      '/status',
      '/no-such-page',
    ]) {
      await page.goto(`${base}${path}`);
      if (path === '/no-such-page') await shot('error');
      if (path === '/status') await shot('status');
      // The test runner's compiler names functions through a helper the page does not have.
      await page.evaluate('globalThis.__name ??= (f) => f');
      failures.push(...(await page.evaluate(lowContrastTexts)).map((f) => `${path}: ${f}`));
    }
    assert.deepEqual(failures, []);
  });

  it('broke no rule of the pages’ content security policy on the way', () => {
    assert.deepEqual(policyViolations, []);
  });
});
