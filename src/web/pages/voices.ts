import { FREE_GENERATIONS, MINIMUM_TOP_UP } from '../../accounts/billing.ts';
import { engines } from '../../speech/engines/registry.ts';
import { html, type SafeHtml } from '../html.ts';
import type { Translator } from '../i18n/translator.ts';
import { type PageContext, page } from '../layout.ts';
import { engineMethodKey, genderName, groupName, languageName } from '../words.ts';

/** The parts of the voices listing (`?format=json`) the page shows. */
export interface VoiceCatalogueView {
  readonly languages: readonly {
    readonly code: string;
    readonly name: string;
    readonly default_speaker_id: number;
    readonly billing: { readonly api: string; readonly studio: string };
    readonly voices: readonly {
      readonly speaker_id: number;
      readonly name: string;
      readonly group: string;
      readonly gender: string;
      readonly sample_rate: number;
      readonly engine: keyof typeof engines;
      readonly loudness_lufs: number | null;
      readonly licence: {
        readonly name: string;
        readonly url: string | null;
        readonly commercial: boolean | null;
      };
      readonly voice_pack: {
        readonly name: string;
        readonly speaker: string;
        readonly attribution: string;
      } | null;
    }[];
  }[];
  readonly formats: readonly {
    readonly format: string;
    readonly content_type: string;
    readonly sample_rate: number;
    readonly encoding: string;
    readonly default: boolean;
  }[];
  readonly limits: {
    readonly file_max_chars: number;
    readonly stream_max_chars: number;
    readonly requests_per_minute: number;
  };
}

type VoiceView = VoiceCatalogueView['languages'][number]['voices'][number];

/** How a voice is made, for people: the engine's method, or the neural voice pack that speaks it. */
function madeBy(t: Translator, v: VoiceView): SafeHtml {
  const engine = engines[v.engine];
  const name = html`<span translate="no">${engine.name}</span>`;
  if (!v.voice_pack)
    return t.rich('voices.madeBy.engine', { method: t.text(engineMethodKey[v.engine]), engine: name });
  // The pack's own names and attribution are its publisher's words, shown as they are.
  return t.rich('voices.madeBy.pack', {
    speaker: html`<span translate="no">${v.voice_pack.speaker}</span>`,
    pack: html`<span translate="no">${v.voice_pack.name}</span>`,
    engine: name,
    attribution: html`<span translate="no">${v.voice_pack.attribution}</span>`,
  });
}

/** A voice's licence, a link when it has one, saying so when it forbids commercial use or is unknown. */
function licenceOf(t: Translator, v: VoiceView): SafeHtml {
  const { name, url, commercial } = v.licence;
  const shown =
    name === 'unknown'
      ? html`${t.text('voices.licence.unknown')}`
      : html`<span translate="no">${name}</span>`;
  const named = url ? html`<a href="${url}" rel="noopener noreferrer">${shown}</a>` : shown;
  if (commercial === true) return named;
  return t.rich(commercial === false ? 'voices.licence.notCommercial' : 'voices.licence.commercialUnknown', {
    licence: named,
  });
}

/** Where a voice's sample is served; the sample route parses the same shape. */
export function sampleUrl(language: string, speakerId: number): string {
  return `/samples/${language}-${speakerId}.wav`;
}

/** What a voice says in its sample: it introduces itself, in its own language. */
export function sampleSentence(language: string, name: string): string {
  switch (language) {
    case 'rw':
      return `Muraho! Nitwa ${name}. Murakaza neza kuri Ijwi, tubafashe iki uyu munsi?`;
    case 'fr':
      return `Bonjour, je m'appelle ${name}. Merci de votre appel ; comment puis-je vous aider ?`;
    default:
      return `Hello, I'm ${name}. Thank you for calling; how can I help you today?`;
  }
}

/** The readable page of `GET /api/v1/voices.php`: every voice with a sample to play, formats, prices and limits. */
export function voicesPage(
  context: PageContext,
  catalogue: VoiceCatalogueView,
  options: { charsPerToken: number },
): SafeHtml {
  const { t } = context;
  // For people: each voice as a card with its name, who it sounds like and how it is made, and a
  // player the width of the card. The API names follow in a table for developers.
  const sections = catalogue.languages.map((l) => {
    const language = languageName(t, l.code);
    return html`<section class="card voice-language" aria-labelledby="lang-${l.code}">
  <div class="card-head">
    <h2 id="lang-${l.code}">${language}</h2>
    <p class="muted">${t.text(l.billing.studio === 'free' ? 'voices.billing.studioFree' : 'voices.billing.tokens')}</p>
  </div>
  <ul class="voice-cards">
    ${l.voices.map(
      (v) => html`<li class="voice-card">
      <h3 translate="no">${v.name}</h3>
      <p class="muted">${genderName(t, v.gender)} · ${groupName(t, v.group)}</p>
      <p class="small">${madeBy(t, v)}</p>
      <audio controls preload="none" src="${sampleUrl(l.code, v.speaker_id)}" aria-label="${t.text('voices.sampleOf', { voice: v.name, language })}"></audio>
    </li>`,
    )}
  </ul>
</section>`;
  });
  const columns = {
    voice: t.text('voices.column.voice'),
    rate: t.text('voices.column.rate'),
    engine: t.text('voices.column.engine'),
    contentType: t.text('voices.column.contentType'),
    encoding: t.text('voices.column.encoding'),
  };
  const developerRows = catalogue.languages.flatMap((l) =>
    l.voices.map(
      (v) =>
        html`<tr><td data-label="${columns.voice}" translate="no">${v.name}</td><td data-label="language"><code>${l.code}</code></td><td data-label="speaker_id"><code>${v.speaker_id}</code></td><td data-label="group"><code>${v.group}</code></td><td data-label="${columns.rate}">${t.text('format.hertz', { hz: t.number(v.sample_rate) })}</td><td data-label="${columns.engine}"><span translate="no">${engines[v.engine].name}</span>, ${licenceOf(t, v)}</td></tr>`,
    ),
  );
  const main = html`<section class="page-head">
  <div class="container page-head-inner">
    <div>
      <h1>${t.text('voices.title')}</h1>
      <p class="muted">${t.rich('voices.lede', { json: html`<a href="?format=json"><code>?format=json</code></a>` })}</p>
    </div>
    <a class="btn btn-primary" href="/studio">${t.text('voices.tryOwn')}</a>
  </div>
</section>
<section class="section section-tight">
  <div class="container stack-lg">
    ${sections}
    <section class="card" aria-labelledby="developers-title">
      <div class="card-head">
        <h2 id="developers-title">${t.text('voices.developers.title')}</h2>
        <p class="muted">${t.rich('voices.developers.text', { language: html`<code>language</code>`, speakerId: html`<code>speaker_id</code>` })}</p>
      </div>
      <div class="table-wrap"><table class="table table-stack">
        <thead><tr><th scope="col">${columns.voice}</th><th scope="col"><code>language</code></th><th scope="col"><code>speaker_id</code></th><th scope="col"><code>group</code></th><th scope="col">${columns.rate}</th><th scope="col">${columns.engine}</th></tr></thead>
        <tbody>${developerRows}</tbody>
      </table></div>
    </section>
    <section class="card" aria-labelledby="formats-title">
      <div class="card-head">
        <h2 id="formats-title">${t.text('voices.formats.title')}</h2>
        <p class="muted">${t.rich('voices.formats.text', { stream: html`<code>POST /api/v1/tts-stream.php</code>`, file: html`<code>tts.php</code>` })}</p>
      </div>
      <div class="table-wrap"><table class="table table-stack">
        <thead><tr><th scope="col"><code>format</code></th><th scope="col">${columns.contentType}</th><th scope="col">${columns.rate}</th><th scope="col">${columns.encoding}</th></tr></thead>
        <tbody>
        ${catalogue.formats.map(
          (f) =>
            html`<tr><td data-label="format"><code>${f.format}</code>${f.default ? html` ${t.text('voices.formats.default')}` : ''}</td><td data-label="${columns.contentType}"><code>${f.content_type}</code></td><td data-label="${columns.rate}">${t.text('format.hertz', { hz: t.number(f.sample_rate) })}</td><td data-label="${columns.encoding}"><code>${f.encoding}</code></td></tr>`,
        )}
        </tbody>
      </table></div>
    </section>
    <div class="grid grid-2">
      <section class="card" aria-labelledby="prices-title">
        <h2 id="prices-title">${t.text('voices.prices.title')}</h2>
        <ul class="plain-list">
          <li>${t.text('voices.prices.rule', { chars: options.charsPerToken, price: t.usd(1) })}</li>
          <li>${t.text('voices.prices.free', { free: FREE_GENERATIONS })}</li>
          <li>${t.text('voices.prices.studio')}</li>
          <li>${t.text('voices.prices.topUp', { minimum: MINIMUM_TOP_UP, price: t.usd(MINIMUM_TOP_UP) })}</li>
        </ul>
      </section>
      <section class="card" aria-labelledby="limits-title">
        <h2 id="limits-title">${t.text('voices.limits.title')}</h2>
        <ul class="plain-list">
          <li>${t.text('voices.limits.file', { chars: catalogue.limits.file_max_chars })}</li>
          <li>${t.text('voices.limits.stream', { chars: catalogue.limits.stream_max_chars })}</li>
          <li>${t.text('voices.limits.rate', { requests: catalogue.limits.requests_per_minute })}</li>
        </ul>
      </section>
    </div>
  </div>
</section>`;
  return page(context, {
    title: t.text('voices.pageTitle'),
    description: t.text('voices.description'),
    section: 'voices',
    main,
  });
}
