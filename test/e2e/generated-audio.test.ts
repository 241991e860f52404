import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Browser, chromium, type Page } from 'playwright-core';
import type { EnginePool } from '../../src/speech/pool/engine-pool.ts';
import { CHROMIUM, CHROMIUM_ARGS, noChromium } from '../helpers/chromium.ts';
import {
  buildTtsTestApp,
  listenOnLoopback,
  startTestPool,
  type TtsFixture,
  withKey,
} from '../helpers/tts-fixture.ts';

// The file endpoint's MP3 and Opus files as a browser plays them: Chromium's audio element reads
// them through byte ranges (to find the length, to seek), plays them to their end, and knows
// their duration.

/** What the function run in the page gives back. */
interface Played {
  readonly duration: number;
  readonly ended: boolean;
}

/**
 * Runs in the page: loads `src` in an audio element, seeks to 80% of it (a range the player has
 * not read yet, for the Ogg file also its end, to find the length), and plays it to its end.
 */
async function playToEnd(src: string): Promise<Played> {
  type Audio = {
    src: string;
    muted: boolean;
    preload: string;
    duration: number;
    currentTime: number;
    ended: boolean;
    error: { code: number } | null;
    play(): Promise<void>;
    addEventListener(type: string, listener: () => void, options?: { once: boolean }): void;
  };
  const audio = new (globalThis as unknown as { Audio: new () => Audio }).Audio();
  const next = (event: string) =>
    new Promise<void>((resolve, reject) => {
      audio.addEventListener(event, resolve, { once: true });
      audio.addEventListener('error', () => reject(new Error(`media error ${audio.error?.code}`)), {
        once: true,
      });
    });
  audio.muted = true;
  audio.preload = 'metadata';
  const loaded = next('loadedmetadata');
  audio.src = src;
  await loaded;
  const seeked = next('seeked');
  audio.currentTime = audio.duration * 0.8;
  await seeked;
  const ended = next('ended');
  await audio.play();
  await ended;
  return { duration: audio.duration, ended: audio.ended };
}

describe('generated MP3 and Opus files in Chromium', { skip: noChromium }, () => {
  let pool: EnginePool;
  let fixture: TtsFixture;
  let base: string;
  let key: string;
  let browser: Browser;
  let page: Page;

  before(async () => {
    [pool, browser] = await Promise.all([
      startTestPool(),
      chromium.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: [...CHROMIUM_ARGS, '--autoplay-policy=no-user-gesture-required'],
      }),
    ]);
    fixture = await buildTtsTestApp({ pool: () => pool });
    base = await listenOnLoopback(fixture.app);
    ({ key } = await fixture.newPayingAccount({ topUp: 1000 }));
    page = await browser.newPage();
    // Any page of the service: the files are then of the page's own origin.
    await page.goto(`${base}/api/v1/health.php`);
    // The TypeScript loader names inner functions through a helper the page does not have.
    await page.evaluate('globalThis.__name ??= (f) => f');
  });
  after(async () => {
    await browser?.close();
    await fixture?.close();
    await pool?.close();
  });

  for (const format of ['mp3', 'opus'] as const) {
    it(`plays a ${format} file to its end through range requests`, async () => {
      const made = await fetch(`${base}/api/v1/tts.php`, {
        method: 'POST',
        headers: withKey(key),
        body: JSON.stringify({
          input: 'Your appointment is on Tuesday at ten thirty. Please arrive a little early.',
          language: 'en',
          output_format: format,
        }),
      });
      assert.equal(made.status, 200);
      const { output_url: url, seconds } = (await made.json()) as { output_url: string; seconds: number };
      const path = new URL(url).pathname;
      const ranges: { range: string | undefined; status: number }[] = [];
      const onResponse = async (response: import('playwright-core').Response) => {
        if (new URL(response.url()).pathname !== path) return;
        ranges.push({ range: (await response.request().allHeaders()).range, status: response.status() });
      };
      page.on('response', onResponse);
      const played = await page.evaluate(playToEnd, `${base}${path}`);
      page.off('response', onResponse);
      assert.ok(played.ended, 'played to its end');
      assert.ok(
        Math.abs(played.duration - seconds) <= seconds * 0.03,
        `duration ${played.duration} s, file ${seconds} s`,
      );
      assert.ok(
        ranges.some((r) => r.range !== undefined && r.status === 206),
        `the player read byte ranges: ${JSON.stringify(ranges)}`,
      );
    });
  }
});
