import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { NewLedgerEntry } from '../../src/accounts/repositories.ts';
import { buildWebTestApp, TestBrowser, type WebFixture } from '../helpers/web-fixture.ts';

// The dashboard's chart of the last 30 days, against a ledger this test writes itself: some days
// with charges, refunds and free uses in several languages, top-ups (not use), days without use,
// and entries just outside the 30 days.

const ORIGIN = 'http://127.0.0.1';
const DAY_MS = 24 * 60 * 60 * 1000;
const LANGUAGES = ['rw', 'en', 'fr'] as const;

/** `YYYY-MM-DD` of the UTC day `daysAgo` before today. */
const dayAgo = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY_MS).toISOString().slice(0, 10);

describe('the dashboard’s usage chart', () => {
  let web: WebFixture;
  before(async () => {
    web = await buildWebTestApp({ pool: () => undefined, publicBaseUrl: ORIGIN });
  });
  after(() => web.close());

  it('has a point for each of the last 30 days equal to the ledger’s sums that day, zero on days without use', async () => {
    const browser = new TestBrowser(web.app, ORIGIN);
    await browser.signUp({ email: 'chart@example.org', password: 'a chart test password' });
    const { account_id: accountId } = await web.db.kysely
      .selectFrom('users')
      .select('account_id')
      .where('email', '=', 'chart@example.org')
      .executeTakeFirstOrThrow();
    let n = 0;
    const entry = (
      daysAgo: number,
      rest: Partial<NewLedgerEntry> & Pick<NewLedgerEntry, 'kind' | 'tokens'>,
    ): NewLedgerEntry => ({
      id: `led_chart_${++n}`,
      characters: 10,
      language: null,
      seconds: null,
      requestId: rest.kind === 'top_up' ? null : `req_chart_${n}`,
      // Just after midnight UTC, so the day cannot turn between writing and reading.
      createdAt: `${dayAgo(daysAgo)}T00:00:01.000Z`,
      ...rest,
    });
    const entries: NewLedgerEntry[] = [
      entry(40, { kind: 'top_up', tokens: 1000 }),
      entry(30, { kind: 'charge', tokens: -6, language: 'en', seconds: 3 }),
      entry(29, { kind: 'charge', tokens: -4, language: 'fr', seconds: 9 }),
      entry(12, { kind: 'top_up', tokens: 289 }),
      entry(5, { kind: 'charge', tokens: -5, language: 'en', seconds: 20, requestId: 'req_refunded' }),
      // A refund, as the billing writes it, names no language: what was spoken stays on the charge.
      entry(5, { kind: 'refund', tokens: 5, characters: null, requestId: 'req_refunded' }),
      entry(5, { kind: 'charge', tokens: -2, language: 'rw', seconds: 6.5 }),
      entry(2, { kind: 'free_use', tokens: 0, language: 'rw', seconds: 7.25 }),
      entry(0, { kind: 'charge', tokens: -3, language: 'en', seconds: 12.5 }),
      entry(0, { kind: 'charge', tokens: -12, language: 'fr', seconds: 40 }),
    ];
    await web.db.ledger.withAccountLock(accountId, async (ledger) => {
      for (const e of entries) await ledger.append(e);
    });

    // What the chart must show, summed here from the entries as written.
    const days = Array.from({ length: 30 }, (_, i) => dayAgo(29 - i));
    // A charge and its refund are audio nobody heard: neither tokens nor seconds on the chart.
    const refunded = new Set(entries.filter((e) => e.kind === 'refund').map((e) => e.requestId));
    const onDay = (day: string) =>
      entries.filter((e) => e.createdAt.startsWith(day) && !refunded.has(e.requestId));
    const expected = days.map((day) => ({
      day,
      tokens: onDay(day)
        .filter((e) => e.kind === 'charge' || e.kind === 'refund')
        .reduce((sum, e) => sum - e.tokens, 0),
      seconds: Object.fromEntries(
        LANGUAGES.map((l) => [
          l,
          onDay(day)
            .filter((e) => e.language === l)
            .reduce((sum, e) => sum + (e.seconds ?? 0), 0),
        ]),
      ),
    }));
    assert.ok(expected.filter((d) => d.tokens === 0).length > 20, 'most days have no use');

    const page = (await browser.get('/dashboard')).body;
    // The ledger table beside the chart shows the refunded pair as nothing: one row per other entry.
    const usageTable = /<table [^>]*id="usage">([\s\S]*?)<\/table>/.exec(page)?.[1] ?? '';
    assert.equal((usageTable.match(/<tr>/g) ?? []).length - 1, entries.length - 2, 'rows besides the header');
    const svg = (id: string) => {
      const found = new RegExp(`<svg class="chart"[^>]*id="${id}">([\\s\\S]*?)</svg>`).exec(page)?.[1];
      assert.ok(found, `the page has the chart ${id}`);
      return found;
    };
    const points = (markup: string) =>
      [
        ...markup.matchAll(/<g class="chart-day" data-day="([\d-]+)" data-total="([\d.]+)">([\s\S]*?)<\/g>/g),
      ].map(([, day, total, inner]) => ({
        day,
        total: Number(total),
        rects: [
          ...(inner ?? '').matchAll(
            /<rect [^>]*height="([\d.]+)" data-value="([\d.]+)"(?: data-language="(\w+)")?/g,
          ),
        ].map(([, height, value, language]) => ({ height: Number(height), value: Number(value), language })),
      }));

    const tokens = points(svg('chart-tokens'));
    assert.deepEqual(
      tokens.map((p) => [p.day, p.total]),
      expected.map((d) => [d.day, d.tokens]),
    );
    // Bars are drawn to one scale: height over value is the same for every day with use.
    const scale = tokens.filter((p) => p.total > 0).map((p) => (p.rects[0]?.height ?? 0) / p.total);
    for (const s of scale) assert.ok(Math.abs(s - (scale[0] ?? 0)) < 0.01, `one scale: ${scale.join(', ')}`);
    assert.ok(tokens.filter((p) => p.total === 0).every((p) => p.rects[0]?.height === 0));

    const seconds = points(svg('chart-seconds'));
    assert.deepEqual(
      seconds.map((p) => [p.day, Object.fromEntries(p.rects.map((r) => [r.language, r.value]))]),
      expected.map((d) => [d.day, d.seconds]),
    );

    // The table beside the chart, for screen readers, holds the same numbers (seconds to the tenth).
    const tenths = (value: number | undefined) => Math.round((value ?? 0) * 10) / 10;
    const table = /<table class="table" id="usage-days">([\s\S]*?)<\/table>/.exec(page)?.[1] ?? '';
    const rows = [
      ...table.matchAll(
        /<tr><th scope="row"><time datetime="([\d-]+)">[^<]*<\/time><\/th>((?:<td[^>]*>[^<]*<\/td>)+)<\/tr>/g,
      ),
    ];
    assert.deepEqual(
      rows.map(([, day, cells]) => [
        day,
        [...(cells ?? '').matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((c) => Number(c[1])),
      ]),
      expected.map((d) => [
        d.day,
        [d.tokens, tenths(d.seconds.rw), tenths(d.seconds.en), tenths(d.seconds.fr)],
      ]),
    );
  });
});
