import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { startMetricsListener } from '../../src/http/metrics-listener.ts';
import { PrometheusMetrics } from '../../src/metrics/prometheus.ts';
import type { EnginePool } from '../../src/speech/pool/engine-pool.ts';
import { buildTestApp } from '../helpers/build-test-app.ts';
import { LiveClient } from '../helpers/live-client.ts';
import { METRICS_TOKEN, Scrape, scrape } from '../helpers/metrics.ts';
import {
  buildTtsTestApp,
  listenOnLoopback,
  startTestPool,
  type TtsFixture,
  withKey,
} from '../helpers/tts-fixture.ts';

// GET /metrics: who may read it, that Prometheus can parse it (read here by an independent
// parser, not by eye), that each kind of request moves its metrics, and that nothing a client
// sends becomes a label value or a new series.

describe('GET /metrics', () => {
  it('does not exist when metrics are not configured', async () => {
    const app = await buildTestApp();
    try {
      const response = await app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      assert.equal(response.statusCode, 404);
    } finally {
      await app.close();
    }
  });

  describe('on the service port, behind METRICS_TOKEN', () => {
    let pool: EnginePool;
    let fixture: TtsFixture;
    let base: string;
    const metrics = new PrometheusMetrics();

    before(async () => {
      pool = await startTestPool(2, { metrics });
      metrics.observePool(pool);
      fixture = await buildTtsTestApp({
        pool: () => pool,
        metrics: { recorder: metrics, token: METRICS_TOKEN },
      });
      base = await listenOnLoopback(fixture.app);
    });
    after(async () => {
      await fixture.close();
      await pool.close();
    });

    const post = (url: string, key: string, payload: Record<string, unknown>) =>
      fixture.app.inject({ method: 'POST', url, headers: withKey(key), payload });

    it('refuses a scraper without the token, or with another, and shows it nothing', async () => {
      for (const authorization of [
        undefined,
        'Bearer wrong-token-of-the-same-length-0000000',
        `Bearer ${METRICS_TOKEN}x`,
        METRICS_TOKEN,
        `Basic ${METRICS_TOKEN}`,
      ]) {
        const response = await fixture.app.inject({
          method: 'GET',
          url: '/metrics',
          headers: authorization === undefined ? {} : { authorization },
        });
        assert.equal(response.statusCode, 401, String(authorization));
        assert.equal(response.headers['www-authenticate'], 'Bearer');
        assert.equal(response.json().error.code, 'invalid_api_key');
        assert.doesNotMatch(response.body, /ijwi_|process_/);
      }
    });

    it('parses as Prometheus text, with memory, event-loop lag, the pool and the health checks', async () => {
      const scraped = await scrape(fixture.app);
      assert.equal(scraped.typeOf('ijwi_http_requests_total'), 'COUNTER');
      assert.equal(scraped.typeOf('ijwi_first_audio_seconds'), 'HISTOGRAM');
      assert.equal(scraped.typeOf('ijwi_clause_lateness_seconds'), 'HISTOGRAM');
      assert.ok(scraped.value('process_resident_memory_bytes') > 0, 'resident memory');
      assert.ok(scraped.value('nodejs_heap_size_used_bytes') > 0, 'heap');
      assert.equal(scraped.typeOf('nodejs_eventloop_lag_seconds'), 'GAUGE');
      assert.equal(scraped.value('ijwi_pool_workers'), 2);
      assert.equal(scraped.value('ijwi_pool_queued_clauses'), 0);
      for (const check of ['engine', 'database', 'rate_limit', 'storage']) {
        assert.equal(scraped.value('ijwi_health_check_up', { check }), 1, check);
        assert.equal(scraped.value('ijwi_health_check_degraded', { check }), 0, check);
      }
      // The neural voices' call limit: 4 per worker they may use, all but one of 2.
      assert.equal(scraped.value('ijwi_engine_call_limit', { engine: 'neural' }), 4);
    });

    it('counts a file request: the request, its audio, its charge, the engine time and its clauses', async () => {
      const account = await fixture.newPayingAccount({ topUp: 300 });
      const before = await scrape(fixture.app);
      const response = await post('/api/v1/tts.php', account.key, {
        input: 'Bonjour, merci de votre appel.',
        language: 'fr',
      });
      assert.equal(response.statusCode, 200, response.body);
      const after = await scrape(fixture.app);
      const moved = (name: string, labels: Record<string, string> = {}) =>
        after.value(name, labels) - before.value(name, labels);
      const request = { route: '/api/v1/tts.php', status: '200', language: 'fr' };
      assert.equal(moved('ijwi_http_requests_total', request), 1);
      const seconds = moved('ijwi_audio_delivered_seconds_total', { path: 'file', engine: 'espeak-ng' });
      assert.ok(Math.abs(seconds - response.json().seconds) < 0.01, `${seconds} s of audio`);
      assert.equal(moved('ijwi_charges_total', { kind: 'charge' }), 1);
      assert.equal(moved('ijwi_charged_tokens_total'), 1);
      assert.ok(moved('ijwi_engine_seconds_total', { engine: 'espeak-ng' }) > 0, 'engine time');
      assert.ok(moved('ijwi_clause_lateness_seconds_count', { engine: 'espeak-ng' }) >= 1, 'clauses');
      assert.equal(after.value('ijwi_calls_in_flight', { path: 'file' }), 0, 'the call has ended');
    });

    it('times the first audio of a stream and of an OpenAI request per engine, and counts their audio', async () => {
      const account = await fixture.newPayingAccount({ topUp: 300 });
      const before = await scrape(fixture.app);
      const stream = await fetch(`${base}/api/v1/tts-stream.php`, {
        method: 'POST',
        headers: withKey(account.key),
        body: JSON.stringify({
          input: 'Good morning, thank you for calling.',
          language: 'en',
          format: 'pcm16_8k',
        }),
      });
      assert.equal(stream.status, 200);
      const ttfaMs = Number(stream.headers.get('x-voice-ttfa-ms'));
      const streamed = (await stream.arrayBuffer()).byteLength / 16_000;
      const openAi = await fetch(`${base}/v1/audio/speech`, {
        method: 'POST',
        headers: withKey(account.key),
        body: JSON.stringify({
          model: 'tts-1',
          voice: 'claire',
          input: 'Bonjour à tous.',
          response_format: 'pcm',
        }),
      });
      assert.equal(openAi.status, 200);
      await openAi.arrayBuffer();
      const after = await scrape(fixture.app);
      const moved = (name: string, labels: Record<string, string>) =>
        after.value(name, labels) - before.value(name, labels);

      const stream1 = { path: 'stream', engine: 'flite' };
      assert.equal(moved('ijwi_first_audio_seconds_count', stream1), 1);
      // The histogram holds what X-Voice-Ttfa-Ms said, to the millisecond it was rounded to.
      const observed = moved('ijwi_first_audio_seconds_sum', stream1) * 1000;
      assert.ok(Math.abs(observed - ttfaMs) <= 1, `${observed} ms recorded, ${ttfaMs} ms sent`);
      const heard = moved('ijwi_audio_delivered_seconds_total', stream1);
      assert.ok(Math.abs(heard - streamed) < 0.05, `${heard} s counted, ${streamed} s streamed`);
      assert.equal(moved('ijwi_first_audio_seconds_count', { path: 'openai', engine: 'espeak-ng' }), 1);
      assert.ok(moved('ijwi_audio_delivered_seconds_total', { path: 'openai', engine: 'espeak-ng' }) > 0.3);
      const streamRoute = { route: '/api/v1/tts-stream.php', status: '200', language: 'en' };
      assert.equal(moved('ijwi_http_requests_total', streamRoute), 1);
      const openAiRoute = { route: '/v1/audio/speech', status: '200', language: 'fr' };
      assert.equal(moved('ijwi_http_requests_total', openAiRoute), 1);
      assert.equal(after.value('ijwi_calls_in_flight', { path: 'stream' }), 0);
      assert.equal(after.value('ijwi_calls_in_flight', { path: 'openai' }), 0);
    });

    it('counts a live context while it is open, its first audio and its audio', async () => {
      const account = await fixture.newPayingAccount({ topUp: 300 });
      const before = await scrape(fixture.app);
      const client = await LiveClient.connect(base, { authorization: `Bearer ${account.key}` });
      try {
        client.send({ type: 'text', context_id: 'm', text: 'Muraho, ', language: 'rw', format: 'mulaw_8k' });
        await client.next((m) => m.type === 'audio');
        const open = await scrape(fixture.app);
        assert.equal(open.value('ijwi_calls_in_flight', { path: 'live' }), 1, 'one context open');
        client.send({ type: 'text', context_id: 'm', text: 'murakaza neza.' });
        client.send({ type: 'end', context_id: 'm' });
        const done = await client.ended('m');
        const after = await scrape(fixture.app);
        const live = { path: 'live', engine: 'espeak-ng' };
        assert.equal(
          after.value('ijwi_first_audio_seconds_count', live) -
            before.value('ijwi_first_audio_seconds_count', live),
          1,
        );
        const seconds =
          after.value('ijwi_audio_delivered_seconds_total', live) -
          before.value('ijwi_audio_delivered_seconds_total', live);
        assert.ok(Math.abs(seconds - (done.seconds as number)) < 0.02, `${seconds} s for ${done.seconds} s`);
        assert.equal(after.value('ijwi_calls_in_flight', { path: 'live' }), 0, 'the context has finished');
      } finally {
        client.socket.close();
      }
    });

    it('counts a 402 as a payment refusal and a 429 as a rate-limit refusal', async () => {
      const broke = await fixture.newPayingAccount();
      const limited = await fixture.newAccount();
      const before = await scrape(fixture.app);
      const refused = await post('/api/v1/tts.php', broke.key, { input: 'Hello there.', language: 'en' });
      assert.equal(refused.statusCode, 402);
      // 30 requests a minute per key, whatever they ask: the 31st is refused.
      for (let i = 0; i < 30; i++)
        assert.equal((await post('/api/v1/tts.php', limited.key, {})).statusCode, 400);
      assert.equal((await post('/api/v1/tts.php', limited.key, {})).statusCode, 429);
      const after = await scrape(fixture.app);
      const moved = (name: string, labels: Record<string, string> = {}) =>
        after.value(name, labels) - before.value(name, labels);
      assert.equal(moved('ijwi_payment_refusals_total'), 1);
      assert.equal(
        moved('ijwi_http_requests_total', { route: '/api/v1/tts.php', status: '402', language: 'en' }),
        1,
      );
      assert.equal(moved('ijwi_rate_limited_total', { path: 'file' }), 1);
      assert.equal(
        moved('ijwi_http_requests_total', { route: '/api/v1/tts.php', status: '429', language: 'none' }),
        1,
      );
      assert.equal(
        moved('ijwi_http_requests_total', { route: '/api/v1/tts.php', status: '400', language: 'none' }),
        30,
      );
    });

    it('counts refunds, and neural calls admitted and refused at the call limit', async () => {
      const account = await fixture.newPayingAccount({ topUp: 300 });
      const before = await scrape(fixture.app);
      const charge = await fixture.billing.commitCharge(account.accountId, {
        tokens: 3,
        seconds: 2,
        characters: 250,
        language: 'en',
        requestId: 'req_metrics_refund',
        studio: false,
      });
      assert.ok(charge.ok);
      assert.ok((await fixture.billing.refundCharge(account.accountId, 'req_metrics_refund')).ok);
      // Given back once: a second refund of the same request writes nothing and counts nothing.
      assert.ok((await fixture.billing.refundCharge(account.accountId, 'req_metrics_refund')).ok);
      const calls = Array.from({ length: 5 }, () => pool.openCall('neural'));
      const open = await scrape(fixture.app);
      for (const call of calls) call?.close();
      const after = await scrape(fixture.app);
      const moved = (name: string, labels: Record<string, string> = {}) =>
        after.value(name, labels) - before.value(name, labels);
      assert.equal(moved('ijwi_refunds_total', { kind: 'refund' }), 1);
      assert.equal(moved('ijwi_refunded_tokens_total'), 3);
      assert.equal(calls.filter((c) => c === undefined).length, 1);
      assert.equal(moved('ijwi_engine_call_admissions_total', { engine: 'neural', outcome: 'admitted' }), 4);
      assert.equal(moved('ijwi_engine_call_admissions_total', { engine: 'neural', outcome: 'refused' }), 1);
      assert.equal(open.value('ijwi_engine_calls', { engine: 'neural' }), 4);
      assert.equal(after.value('ijwi_engine_calls', { engine: 'neural' }), 0);
    });

    it('never makes a label value or a series from what a client sends', async () => {
      const account = await fixture.newPayingAccount({ topUp: 1000 });
      /** Every kind of request a client controls, each carrying `marker` where it can. */
      const hostileRound = async (marker: string) => {
        const hostile = `${marker}"} 1\n# TYPE x counter\nx{a="${marker}`;
        const requests = [
          post('/api/v1/tts.php', account.key, { input: `Hello ${marker}.`, language: 'en' }),
          post('/api/v1/tts.php', account.key, { input: hostile, language: marker }),
          post('/api/v1/tts-stream.php', account.key, { input: hostile, language: 'fr', format: 'mulaw_8k' }),
          post('/api/v1/tts-stream.php', account.key, { input: 'Hi.', language: 'en', speaker_id: marker }),
          post('/api/v1/tts-stream.php', account.key, { input: 'Hi.', language: 'en', format: marker }),
          post('/v1/audio/speech', account.key, { model: 'tts-1', voice: marker, input: 'Hello.' }),
          post('/v1/audio/speech', account.key, { model: marker, voice: 'alloy', input: hostile }),
          post('/api/v1/tts.php', `ijwi_sk_${marker}`, { input: 'Hello.', language: 'en' }),
          fixture.app.inject({ method: 'GET', url: `/${marker}` }),
          fixture.app.inject({ method: 'GET', url: `/api/v1/${marker}.php?${marker}=1` }),
          fixture.app.inject({ method: 'GET', url: `/generated/audio_${marker}.wav` }),
          fixture.app.inject({ method: 'DELETE', url: '/api/v1/tts.php' }),
          fixture.app.inject({
            method: 'GET',
            url: '/api/v1/health.php',
            headers: { 'user-agent': marker, 'x-forwarded-for': marker, 'x-request-id': marker },
          }),
          fixture.app.inject({
            method: 'GET',
            url: '/metrics',
            headers: { authorization: `Bearer ${marker}` },
          }),
        ];
        for (const response of await Promise.all(requests))
          assert.ok(response.statusCode < 500, response.body);
        const client = await LiveClient.connect(base, { authorization: `Bearer ${account.key}` });
        client.send({ type: 'text', context_id: marker, text: 'Hi.', language: marker });
        client.send({ type: 'text', context_id: `${marker}2`, text: `Hi ${marker}.`, language: 'en' });
        client.send({ type: 'end', context_id: `${marker}2` });
        await client.ended(`${marker}2`);
        client.socket.close();
        await client.closed;
        return scrape(fixture.app);
      };
      // Request-derived series only: the library's own (garbage collection kinds...) may appear at any time.
      const ours = (scraped: Scrape) => [...scraped.keys()].filter((key) => key.startsWith('ijwi_')).sort();
      const first = await hostileRound('zqfirsthostile');
      const second = await hostileRound('zqsecondhostile');
      assert.deepEqual(ours(second), ours(first), 'the second round of other hostile values added no series');
      for (const scraped of [first, second]) assert.doesNotMatch(scraped.text, /zq/i);
      const labelValues = (label: string) =>
        new Set(
          second.series.filter((s) => s.name.startsWith('ijwi_')).flatMap((s) => s.labels[label] ?? []),
        );
      for (const language of labelValues('language'))
        assert.ok(['rw', 'en', 'fr', 'none'].includes(language));
      for (const status of labelValues('status')) assert.match(status, /^([1-5]\d\d|none)$/);
      assert.ok(labelValues('route').has('unmatched'), 'unknown paths share one value');
      assert.ok(labelValues('route').has('/generated/:file'), 'a route counts as its pattern');
    });
  });

  describe('on a port of its own (METRICS_PORT)', () => {
    const metrics = new PrometheusMetrics();

    it('serves the metrics on loopback, behind the token when one is set', async () => {
      const open = await startMetricsListener({
        exposition: metrics,
        port: 0,
        host: '127.0.0.1',
        token: null,
      });
      const guarded = await startMetricsListener({
        exposition: metrics,
        port: 0,
        host: '127.0.0.1',
        token: METRICS_TOKEN,
      });
      try {
        const plain = await fetch(`http://127.0.0.1:${open.port}/metrics`);
        assert.equal(plain.status, 200);
        assert.ok(new Scrape(await plain.text()).value('process_resident_memory_bytes') > 0);
        assert.equal((await fetch(`http://127.0.0.1:${open.port}/`)).status, 404);
        assert.equal((await fetch(`http://127.0.0.1:${open.port}/metrics`, { method: 'POST' })).status, 405);
        const refused = await fetch(`http://127.0.0.1:${guarded.port}/metrics`);
        assert.equal(refused.status, 401);
        assert.doesNotMatch(await refused.text(), /process_/);
        const allowed = await fetch(`http://127.0.0.1:${guarded.port}/metrics`, {
          headers: { authorization: `Bearer ${METRICS_TOKEN}` },
        });
        assert.equal(allowed.status, 200);
        assert.equal(new Scrape(await allowed.text()).typeOf('ijwi_http_requests_total'), 'COUNTER');
      } finally {
        await open.close();
        await guarded.close();
      }
    });
  });

  describe('a normaliser pass that threw', () => {
    it('is counted by language and pass, and a name that is not a pass name makes no series', async () => {
      const metrics = new PrometheusMetrics();
      metrics.normalizationFailed('en', 'money');
      metrics.normalizationFailed('en', 'money');
      metrics.normalizationFailed('rw', 'e-mail-address');
      metrics.normalizationFailed('fr', 'x"} 1\n# TYPE y counter');
      const scraped = new Scrape((await metrics.render()).body);
      assert.equal(scraped.value('ijwi_normalization_failures_total', { language: 'en', pass: 'money' }), 2);
      assert.equal(
        scraped.value('ijwi_normalization_failures_total', { language: 'rw', pass: 'e-mail-address' }),
        1,
      );
      assert.equal(scraped.value('ijwi_normalization_failures_total', { language: 'fr', pass: 'none' }), 1);
      const series = [...scraped.keys()].filter((k) => k.startsWith('ijwi_normalization_failures_total'));
      assert.equal(series.length, 3, series.join('\n'));
    });
  });

  describe('the dashboard and the alerts', () => {
    it('use only metrics the service serves', async () => {
      const { body } = await new PrometheusMetrics().render();
      const served = new Set(new Scrape(body).families.map((f) => f.name));
      for (const doc of ['docs/grafana-dashboard.json', 'docs/deployment.md']) {
        const text = await readFile(new URL(`../../${doc}`, import.meta.url), 'utf8');
        const used = new Set(
          [...text.matchAll(/\b((?:ijwi|process|nodejs)_[a-z0-9_]+)/g)].map(([, name]) =>
            (name ?? '').replace(/_(bucket|count|sum)$/, ''),
          ),
        );
        assert.ok(used.size > 10, doc);
        for (const name of used) if (!name.endsWith('_')) assert.ok(served.has(name), `${doc}: ${name}`);
      }
    });
  });
});
