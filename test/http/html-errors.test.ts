import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildTestApp } from '../helpers/build-test-app.ts';

// A browser never sees raw JSON: an unknown address, an expired file and the status link get the
// site's own pages; API clients, asking for JSON or for anything, keep the one error body.

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

describe('errors and status for browsers and for API clients', () => {
  let app: FastifyInstance;

  before(async () => {
    app = await buildTestApp({ healthChecks: { engine: () => true, database: () => 'unreachable' } });
  });
  after(async () => {
    await app.close();
  });

  const get = (url: string, accept?: string) =>
    app.inject({ method: 'GET', url, headers: accept === undefined ? {} : { accept } });

  it('answers a browser with the site’s 404 page, with the request id, and an API client with JSON', async () => {
    const page = await get('/no-such-page', BROWSER);
    assert.equal(page.statusCode, 404);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(String(page.headers['content-security-policy']), /default-src 'self'/);
    assert.match(page.body, /<h1>Page not found<\/h1>/);
    assert.ok(page.body.includes(String(page.headers['x-request-id'])));
    for (const accept of [undefined, '*/*', 'application/json', 'application/json, text/html;q=0.5']) {
      const api = await get('/no-such-page', accept);
      assert.equal(api.statusCode, 404);
      assert.equal(api.json().error.code, 'not_found', String(accept));
    }
  });

  it('answers an expired or unknown audio file the same way', async () => {
    const page = await get(`/generated/audio_${'A'.repeat(32)}.wav`, BROWSER);
    assert.equal(page.statusCode, 404);
    assert.match(page.body, /no such generated file/i);
    assert.equal((await get(`/generated/audio_${'A'.repeat(32)}.wav`, '*/*')).json().error.code, 'not_found');
  });

  it('escapes what the address holds', async () => {
    const page = await get('/%3Cscript%3Ealert(1)%3C/script%3E', BROWSER);
    assert.ok(!page.body.includes('<script>alert(1)'), 'the path is text on the page');
  });

  it('shows the service status as a page, and keeps the health check JSON for machines', async () => {
    const page = await get('/status', BROWSER);
    assert.equal(page.statusCode, 503);
    assert.match(page.body, /Service status/);
    assert.match(page.body, /Speech engines<\/td><td>Working/);
    assert.match(page.body, /Accounts and billing<\/td><td>Not working: <code>unreachable<\/code>/);
    const health = await get('/api/v1/health.php', BROWSER);
    assert.equal(health.json().status, 'not_ready', 'the health endpoint stays JSON for load balancers');
  });
});
