import { z } from 'zod';
import { html, type SafeHtml } from '../html.ts';
import type { MessageKey } from '../i18n/catalogue.ts';
import type { Translator } from '../i18n/translator.ts';
import { type PageContext, page } from '../layout.ts';

// The parts of an OpenAPI 3 document the page reads. Loose on purpose: the document has more,
// and a field this page does not know must not stop it from rendering the rest.
interface JsonSchema {
  readonly type?: string | readonly string[];
  readonly description?: string;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly enum?: readonly unknown[];
  readonly default?: unknown;
  readonly anyOf?: readonly JsonSchema[];
  readonly oneOf?: readonly JsonSchema[];
  readonly $ref?: string;
}

const jsonSchema: z.ZodType<JsonSchema> = z.lazy(() =>
  z.looseObject({
    type: z.union([z.string(), z.array(z.string())]).optional(),
    description: z.string().optional(),
    properties: z.record(z.string(), jsonSchema).optional(),
    required: z.array(z.string()).optional(),
    enum: z.array(z.unknown()).optional(),
    default: z.unknown().optional(),
    anyOf: z.array(jsonSchema).optional(),
    oneOf: z.array(jsonSchema).optional(),
    $ref: z.string().optional(),
  }),
);

const mediaType = z.looseObject({ schema: jsonSchema.optional() });
const operation = z.looseObject({
  summary: z.string().optional(),
  description: z.string().optional(),
  requestBody: z.looseObject({ content: z.record(z.string(), mediaType).optional() }).optional(),
  parameters: z
    .array(
      z.looseObject({
        name: z.string(),
        in: z.string(),
        description: z.string().optional(),
        required: z.boolean().optional(),
        schema: jsonSchema.optional(),
      }),
    )
    .optional(),
  responses: z
    .record(
      z.string(),
      z.looseObject({
        description: z.string().optional(),
        content: z.record(z.string(), mediaType).optional(),
        headers: z
          .record(
            z.string(),
            z.looseObject({ description: z.string().optional(), schema: jsonSchema.optional() }),
          )
          .optional(),
      }),
    )
    .optional(),
});

const openApiDocument = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string(), description: z.string().optional() }),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  components: z.looseObject({ schemas: z.record(z.string(), jsonSchema).optional() }).optional(),
});

type OpenApiDocument = z.infer<typeof openApiDocument>;
type Operation = z.infer<typeof operation>;

// The live protocol in brief (api-v1.md, "Live streaming over WebSocket"; the README has it whole).
const LIVE_CLIENT_MESSAGES: readonly (readonly [string, MessageKey])[] = [
  [
    '{"type":"text","context_id":"t1","text":"Hello, ","language":"en","format":"mulaw_8k"}',
    'docs.live.send.text',
  ],
  ['{"type":"flush","context_id":"t1"}', 'docs.live.send.flush'],
  ['{"type":"end","context_id":"t1"}', 'docs.live.send.end'],
  ['{"type":"clear","context_id":"t1"}', 'docs.live.send.clear'],
  ['{"type":"close"}', 'docs.live.send.close'],
];
const LIVE_SERVER_MESSAGES: readonly (readonly [string, MessageKey])[] = [
  ['{"type":"audio","context_id":"t1","seq":0,"audio":"…","ttfa_ms":12}', 'docs.live.receive.audio'],
  ['{"type":"words","context_id":"t1","words":[…]}', 'docs.live.receive.words'],
  ['{"type":"done","context_id":"t1","seconds":2.31,"billing":{…}}', 'docs.live.receive.done'],
  ['{"type":"cleared","context_id":"t1"}', 'docs.live.receive.cleared'],
  ['{"type":"error","context_id":"t1","code":"…","message":"…"}', 'docs.live.receive.error'],
];

const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete'] as const;
// The endpoints people come for first; everything else follows in the document's order.
const FIRST = ['/api/v1/tts.php', '/api/v1/tts-stream.php'];

/** The anchor of an endpoint's section: `/api/v1/tts-stream.php` is `#tts-stream`. */
export function endpointAnchor(path: string): string {
  const last = path.split('/').filter(Boolean).at(-1) ?? 'endpoint';
  return last.replace(/\.php$/, '').replace(/[^A-Za-z0-9_-]/g, '-');
}

function resolve(schema: JsonSchema | undefined, doc: OpenApiDocument): JsonSchema | undefined {
  const ref = schema?.$ref;
  if (ref === undefined) return schema;
  const name = ref.replace(/^#\/components\/schemas\//, '');
  return doc.components?.schemas?.[name];
}

function typeOf(schema: JsonSchema | undefined, doc: OpenApiDocument): string {
  const s = resolve(schema, doc);
  if (!s) return '';
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  const variants = s.anyOf ?? s.oneOf;
  if (variants) return [...new Set(variants.map((v) => typeOf(v, doc)))].join(' | ');
  return [s.type ?? (s.properties ? 'object' : 'any')].flat().join(' | ');
}

// Descriptions mark code with backticks, as Markdown does; that is the only markup rendered.
function inline(text: string | undefined): SafeHtml {
  return html`${(text ?? '').split('`').map((part, i) => (i % 2 === 1 ? html`<code>${part}</code>` : part))}`;
}

function fieldsTable(t: Translator, schema: JsonSchema | undefined, doc: OpenApiDocument): SafeHtml {
  const s = resolve(schema, doc);
  const properties = Object.entries(s?.properties ?? {});
  if (properties.length === 0) return html``;
  const required = new Set(s?.required ?? []);
  const column = {
    field: t.text('docs.reference.field'),
    type: t.text('docs.reference.type'),
    required: t.text('docs.reference.required'),
    description: t.text('docs.reference.description'),
  };
  return html`<div class="table-wrap"><table class="table table-stack">
  <thead><tr><th scope="col">${column.field}</th><th scope="col">${column.type}</th><th scope="col">${column.required}</th><th scope="col">${column.description}</th></tr></thead>
  <tbody>${properties.map(([name, field]) => {
    const resolved = resolve(field, doc);
    const fallback =
      resolved?.default === undefined
        ? ''
        : html` <span class="muted">${t.rich('docs.reference.default', { value: html`<code>${JSON.stringify(resolved.default)}</code>` })}</span>`;
    return html`<tr><td data-label="${column.field}"><code class="nowrap">${name}</code></td><td data-label="${column.type}"><code>${typeOf(field, doc)}</code></td><td data-label="${column.required}">${t.text(required.has(name) ? 'common.yes' : 'common.no')}</td><td data-label="${column.description}"><span lang="en">${inline(resolved?.description)}</span>${fallback}</td></tr>`;
  })}</tbody>
</table></div>`;
}

function operationSection(
  t: Translator,
  path: string,
  method: string,
  op: Operation,
  doc: OpenApiDocument,
): SafeHtml {
  const body = op.requestBody?.content?.['application/json']?.schema;
  const parameters = op.parameters ?? [];
  const responses = Object.entries(op.responses ?? {});
  return html`<section class="card endpoint" id="${endpointAnchor(path)}" aria-labelledby="${endpointAnchor(path)}-title">
  <h3 id="${endpointAnchor(path)}-title"><span class="method method-${method}" translate="no">${method.toUpperCase()}</span> <code>${path}</code></h3>
  ${op.summary ? html`<p class="endpoint-summary" lang="en">${inline(op.summary)}</p>` : ''}
  ${op.description ? html`<p class="endpoint-description" lang="en">${inline(op.description)}</p>` : ''}
  ${
    parameters.length > 0
      ? html`<h4>${t.text('docs.reference.parameters')}</h4><ul class="plain-list">${parameters.map(
          (p) =>
            html`<li><code>${p.name}</code> <span class="muted">${t.rich(p.required ? 'docs.reference.inRequired' : 'docs.reference.in', { in: html`<code>${p.in}</code>` })}</span> <span lang="en">${inline(p.description)}</span></li>`,
        )}</ul>`
      : ''
  }
  ${body ? html`<h4>${t.text('docs.reference.body')}</h4>${fieldsTable(t, body, doc)}` : ''}
  ${
    responses.length > 0
      ? html`<h4>${t.text('docs.reference.responses')}</h4><ul class="responses">${responses.map(
          ([status, response]) =>
            html`<li class="response"><span class="status-code status-${status.charAt(0)}xx">${status}</span> <span lang="en">${inline(response.description)}</span></li>`,
        )}</ul>`
      : ''
  }
</section>`;
}

function codeBlock(t: Translator, id: string, title: string, code: string): SafeHtml {
  return html`<div class="code-block card-dark">
  <div class="code-head"><p class="code-title"><code>${title}</code></p><button type="button" class="btn btn-small btn-on-dark" data-copy="${id}">${t.text('common.copy')}</button></div>
  <pre><code id="${id}">${code}</code></pre>
</div>`;
}

function curlExamples(baseUrl: string): { file: string; stream: string } {
  return {
    file: `curl -s ${baseUrl}/api/v1/tts.php \\
  -H "Authorization: Bearer $IJWI_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"input": "Muraho neza, murakaza neza kuri Ijwi.", "language": "rw", "speaker_id": 1}'`,
    stream: `curl -s -D - -o reply.ulaw ${baseUrl}/api/v1/tts-stream.php \\
  -H "Authorization: Bearer $IJWI_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"input": "Hello, thank you for calling. How can I help?", "language": "en", "format": "mulaw_8k"}'`,
  };
}

/** The OpenAPI document in `value`, or undefined when it does not have an OpenAPI document's shape. */
export function parseOpenApi(value: unknown): OpenApiDocument | undefined {
  const parsed = openApiDocument.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The API docs page: quick start with copyable curl calls for both TTS endpoints, then a
 * reference of every endpoint rendered from the OpenAPI document (`undefined` while the service
 * has none: the page then says so instead of the reference). The page's prose is in the reader's
 * language; code, field names and curl calls are the API's and stay as they are, and so do the
 * OpenAPI document's own descriptions (English, marked so), which the reference shows as published.
 */
export function docsPage(
  context: PageContext,
  options: { publicBaseUrl: string; openApi: OpenApiDocument | undefined },
): SafeHtml {
  const { t } = context;
  const { openApi } = options;
  const examples = curlExamples(options.publicBaseUrl);
  const code = (text: string) => html`<code>${text}</code>`;
  const operations = openApi
    ? Object.entries(openApi.paths)
        .sort(([a], [b]) => {
          const rank = (p: string) => (FIRST.includes(p) ? FIRST.indexOf(p) : FIRST.length);
          return rank(a) - rank(b);
        })
        .flatMap(([path, item]) =>
          METHODS.flatMap((method) => {
            const parsed = operation.safeParse(item[method]);
            return item[method] !== undefined && parsed.success
              ? [operationSection(t, path, method, parsed.data, openApi)]
              : [];
          }),
        )
    : [];
  const liveTable = (rows: typeof LIVE_CLIENT_MESSAGES, heading: MessageKey) => {
    const [first, meaning] = [t.text(heading), t.text('docs.live.meaning')];
    return html`<div class="table-wrap"><table class="table table-stack">
          <thead><tr><th scope="col">${first}</th><th scope="col">${meaning}</th></tr></thead>
          <tbody>
            ${rows.map(([message, words]) => html`<tr><td data-label="${first}"><code>${message}</code></td><td data-label="${meaning}">${t.text(words)}</td></tr>`)}
          </tbody>
        </table></div>`;
  };
  const main = html`<section class="page-head">
  <div class="container page-head-inner">
    <div>
      <h1>${t.text('docs.title')}</h1>
      <p class="muted">${openApi ? html`<span>${t.rich('docs.version', { title: html`<span translate="no">${openApi.info.title}</span>`, version: code(openApi.info.version) })}</span> ` : ''}<span>${t.rich('docs.lede', { prefix: code('/api/v1/'), document: html`<a href="/api/v1/openapi.json"><code>/api/v1/openapi.json</code></a>` })}</span></p>
    </div>
    <a class="btn btn-primary" href="/dashboard">${t.text('docs.getKey')}</a>
  </div>
</section>
<section class="section section-tight">
  <div class="container docs-layout">
    <nav class="docs-nav card" aria-label="${t.text('docs.onThisPage')}">
      <ul class="plain-list">
        <li><a href="#quick-start">${t.text('docs.quickStart')}</a></li>
        <li><a href="#authentication">${t.text('docs.authentication')}</a></li>
        <li><a href="#billing">${t.text('docs.billing')}</a></li>
        <li><a href="#live">${t.text('docs.live')}</a></li>
        <li><a href="#reference">${t.text('docs.reference')}</a></li>
      </ul>
    </nav>
    <div class="stack-lg docs-main">
      <section id="quick-start" class="stack">
        <h2>${t.text('docs.quickStart')}</h2>
        <p>${t.rich('docs.quickStart.key', { dashboard: (words) => html`<a href="/dashboard">${words}</a>`, export: code('export IJWI_KEY=ijwi_sk_…') })}</p>
        <h3 id="example-file">${t.text('docs.quickStart.file')}</h3>
        <p>${t.rich('docs.quickStart.fileText', { url: code('output_url') })}</p>
        ${codeBlock(t, 'curl-tts', 'POST /api/v1/tts.php', examples.file)}
        <h3 id="example-stream">${t.text('docs.quickStart.stream')}</h3>
        <p>${t.rich('docs.quickStart.streamText', { headers: code('-D -'), ttfa: code('X-Voice-Ttfa-Ms') })}</p>
        ${codeBlock(t, 'curl-tts-stream', 'POST /api/v1/tts-stream.php', examples.stream)}
      </section>
      <section id="authentication" class="stack">
        <h2>${t.text('docs.authentication')}</h2>
        <p>${t.rich('docs.authentication.text', {
          bearer: code('Authorization: Bearer <key>'),
          header: code('X-Voice-Api-Key: <key>'),
          prefix: code('ijwi_sk_'),
          status: code('401'),
        })}</p>
      </section>
      <section id="billing" class="stack">
        <h2>${t.text('docs.billing')}</h2>
        <p>${t.rich('docs.billing.text', {
          prices: (words) => html`<a href="/#pricing-title">${words}</a>`,
          voices: (words) => html`<a href="/api/v1/voices.php">${words}</a>`,
          payment: code('402'),
          balance: code('balance'),
          needed: code('tokens_needed'),
          minimum: code('minimum_top_up'),
          limited: code('429'),
          retry: code('Retry-After'),
        })}</p>
      </section>
      <section id="live" class="stack">
        <h2>${t.text('docs.live')}</h2>
        <p>${t.rich('docs.live.text', {
          url: code(`${options.publicBaseUrl.replace(/^http/, 'ws')}/api/v1/tts-live`),
          auth: code('{"type": "auth", "api_key": "…"}'),
        })}</p>
        ${liveTable(LIVE_CLIENT_MESSAGES, 'docs.live.send')}
        ${liveTable(LIVE_SERVER_MESSAGES, 'docs.live.receive')}
        <p>${t.text('docs.live.billing')}</p>
      </section>
      <section id="reference" class="stack">
        <h2>${t.text('docs.reference')}</h2>
        ${
          operations.length > 0
            ? html`${t.language === 'en' ? '' : html`<p class="muted">${t.text('docs.reference.english')}</p>`}<div id="reference-operations">${operations}</div>`
            : html`<div class="alert alert-warning"><p>${t.text('docs.reference.missing')}</p></div>`
        }
      </section>
    </div>
  </div>
</section>`;
  return page(context, { title: t.text('docs.pageTitle'), section: 'docs', main });
}
