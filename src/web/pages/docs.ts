import { z } from 'zod';
import { html, type SafeHtml } from '../html.ts';
import { page, type Viewer } from '../layout.ts';

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
const LIVE_CLIENT_MESSAGES: readonly (readonly [string, string])[] = [
  [
    '{"type":"text","context_id":"t1","text":"Hello, ","language":"en","format":"mulaw_8k"}',
    'adds text; the first opens the context with its voice and format',
  ],
  ['{"type":"flush","context_id":"t1"}', 'speak what waits now, clause complete or not'],
  ['{"type":"end","context_id":"t1"}', 'no more text: speak the rest, then done'],
  ['{"type":"clear","context_id":"t1"}', 'the caller interrupted: drop every frame not yet sent'],
  ['{"type":"close"}', 'end every context, then close'],
];
const LIVE_SERVER_MESSAGES: readonly (readonly [string, string])[] = [
  [
    '{"type":"audio","context_id":"t1","seq":0,"audio":"…","ttfa_ms":12}',
    'whole 20 ms frames, base64, in order',
  ],
  ['{"type":"words","context_id":"t1","words":[…]}', 'timings of words already sent'],
  [
    '{"type":"done","context_id":"t1","seconds":2.31,"billing":{…}}',
    'the reply is finished, and what it cost',
  ],
  ['{"type":"cleared","context_id":"t1"}', 'nothing of the dropped text follows'],
  ['{"type":"error","context_id":"t1","code":"…","message":"…"}', 'this context ended; the others go on'],
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

function fieldsTable(schema: JsonSchema | undefined, doc: OpenApiDocument): SafeHtml {
  const s = resolve(schema, doc);
  const properties = Object.entries(s?.properties ?? {});
  if (properties.length === 0) return html``;
  const required = new Set(s?.required ?? []);
  return html`<div class="table-wrap"><table class="table table-stack">
  <thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col">Description</th></tr></thead>
  <tbody>${properties.map(([name, field]) => {
    const resolved = resolve(field, doc);
    const fallback =
      resolved?.default === undefined
        ? ''
        : html` <span class="muted">Default: <code>${JSON.stringify(resolved.default)}</code>.</span>`;
    return html`<tr><td data-label="Field"><code class="nowrap">${name}</code></td><td data-label="Type">${typeOf(field, doc)}</td><td data-label="Required">${required.has(name) ? 'yes' : 'no'}</td><td data-label="Description">${inline(resolved?.description)}${fallback}</td></tr>`;
  })}</tbody>
</table></div>`;
}

function operationSection(path: string, method: string, op: Operation, doc: OpenApiDocument): SafeHtml {
  const body = op.requestBody?.content?.['application/json']?.schema;
  const parameters = op.parameters ?? [];
  const responses = Object.entries(op.responses ?? {});
  return html`<section class="card endpoint" id="${endpointAnchor(path)}" aria-labelledby="${endpointAnchor(path)}-title">
  <h3 id="${endpointAnchor(path)}-title"><span class="method method-${method}">${method.toUpperCase()}</span> <code>${path}</code></h3>
  ${op.summary ? html`<p class="endpoint-summary">${inline(op.summary)}</p>` : ''}
  ${op.description ? html`<p class="endpoint-description">${inline(op.description)}</p>` : ''}
  ${
    parameters.length > 0
      ? html`<h4>Parameters</h4><ul class="plain-list">${parameters.map(
          (p) =>
            html`<li><code>${p.name}</code> <span class="muted">(${p.in}${p.required ? ', required' : ''})</span> ${inline(p.description)}</li>`,
        )}</ul>`
      : ''
  }
  ${body ? html`<h4>JSON body</h4>${fieldsTable(body, doc)}` : ''}
  ${
    responses.length > 0
      ? html`<h4>Responses</h4><ul class="responses">${responses.map(
          ([status, response]) =>
            html`<li class="response"><span class="status-code status-${status.charAt(0)}xx">${status}</span> <span>${inline(response.description)}</span></li>`,
        )}</ul>`
      : ''
  }
</section>`;
}

function codeBlock(id: string, title: string, code: string): SafeHtml {
  return html`<div class="code-block card-dark">
  <div class="code-head"><p class="code-title">${title}</p><button type="button" class="btn btn-small btn-on-dark" data-copy="${id}">Copy</button></div>
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
 * has none: the page then says so instead of the reference).
 */
export function docsPage(options: {
  viewer: Viewer;
  publicBaseUrl: string;
  openApi: OpenApiDocument | undefined;
}): SafeHtml {
  const { openApi } = options;
  const examples = curlExamples(options.publicBaseUrl);
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
              ? [operationSection(path, method, parsed.data, openApi)]
              : [];
          }),
        )
    : [];
  const main = html`<section class="page-head">
  <div class="container page-head-inner">
    <div>
      <h1>API docs</h1>
      <p class="muted">${openApi ? html`${openApi.info.title}, version ${openApi.info.version}. ` : ''}Every path lives under <code>/api/v1/</code> and will not change.
        The machine-readable document: <a href="/api/v1/openapi.json"><code>/api/v1/openapi.json</code></a>.</p>
    </div>
    <a class="btn btn-primary" href="/dashboard">Get an API key</a>
  </div>
</section>
<section class="section section-tight">
  <div class="container docs-layout">
    <nav class="docs-nav card" aria-label="On this page">
      <ul class="plain-list">
        <li><a href="#quick-start">Quick start</a></li>
        <li><a href="#authentication">Authentication</a></li>
        <li><a href="#billing">Prices and limits</a></li>
        <li><a href="#live">Live WebSocket</a></li>
        <li><a href="#reference">Reference</a></li>
      </ul>
    </nav>
    <div class="stack-lg docs-main">
      <section id="quick-start" class="stack">
        <h2>Quick start</h2>
        <p>Create a key in your <a href="/dashboard">dashboard</a>, then put it in a variable: <code>export IJWI_KEY=ijwi_sk_…</code></p>
        <h3 id="example-file">A WAV file, by URL</h3>
        <p>The reply is JSON with <code>output_url</code>, the duration and what was billed. Files are kept for 24 hours.</p>
        ${codeBlock('curl-tts', 'POST /api/v1/tts.php', examples.file)}
        <h3 id="example-stream">Live audio for a phone call</h3>
        <p>The audio arrives in 20 ms frames while it is being spoken; <code>-D -</code> shows the headers, with
          <code>X-Voice-Ttfa-Ms</code> (time to first audio) and the billing outcome.</p>
        ${codeBlock('curl-tts-stream', 'POST /api/v1/tts-stream.php', examples.stream)}
      </section>
      <section id="authentication" class="stack">
        <h2>Authentication</h2>
        <p>Send your key as <code>Authorization: Bearer &lt;key&gt;</code> or <code>X-Voice-Api-Key: &lt;key&gt;</code>. Keys start
          with <code>ijwi_sk_</code> and end in a checksum, so a mistyped key is refused at once. A missing, unknown or
          revoked key gets <code>401</code>.</p>
      </section>
      <section id="billing" class="stack">
        <h2>Prices and limits</h2>
        <p>See the <a href="/#pricing-title">prices</a> and the <a href="/api/v1/voices.php">voices page</a> for the token rule,
          the free generations and the limits. Not enough tokens gets <code>402</code> with <code>balance</code>,
          <code>tokens_needed</code> and <code>minimum_top_up</code> in the error; too many requests get <code>429</code>
          with <code>Retry-After</code>.</p>
      </section>
      <section id="live" class="stack">
        <h2>Live WebSocket</h2>
        <p>For voice agents whose reply comes from a language model word by word: connect to
          <code>${options.publicBaseUrl.replace(/^http/, 'ws')}/api/v1/tts-live</code> with your key in the headers (or send
          <code>{"type": "auth", "api_key": "…"}</code> first), send text as it is produced, and get audio as soon as a
          clause is complete. Every message is JSON; a connection carries up to 5 contexts, one spoken reply each.</p>
        <div class="table-wrap"><table class="table table-stack">
          <thead><tr><th scope="col">You send</th><th scope="col">Meaning</th></tr></thead>
          <tbody>
            ${LIVE_CLIENT_MESSAGES.map(([message, meaning]) => html`<tr><td data-label="You send"><code>${message}</code></td><td data-label="Meaning">${meaning}</td></tr>`)}
          </tbody>
        </table></div>
        <div class="table-wrap"><table class="table table-stack">
          <thead><tr><th scope="col">You receive</th><th scope="col">Meaning</th></tr></thead>
          <tbody>
            ${LIVE_SERVER_MESSAGES.map(([message, meaning]) => html`<tr><td data-label="You receive"><code>${message}</code></td><td data-label="Meaning">${meaning}</td></tr>`)}
          </tbody>
        </table></div>
        <p>A context is billed as one stream request of all the text it spoke, never more, and counts as one request
          of the rate limit. The README has the full rules and clients in Node and Python.</p>
      </section>
      <section id="reference" class="stack">
        <h2>Reference</h2>
        ${
          operations.length > 0
            ? operations
            : html`<div class="alert alert-warning"><p>The endpoint reference is not available right now. The
                README describes every endpoint.</p></div>`
        }
      </section>
    </div>
  </div>
</section>`;
  return page({ title: 'API docs · Ijwi', viewer: options.viewer, section: 'docs', main });
}
