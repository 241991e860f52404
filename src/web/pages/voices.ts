import { FREE_GENERATIONS, MINIMUM_TOP_UP } from '../../accounts/billing.ts';
import { engines } from '../../speech/engines/registry.ts';
import { usd } from '../format.ts';
import { html, type SafeHtml } from '../html.ts';
import { page } from '../layout.ts';

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

const GROUP_NAMES: Readonly<Record<string, string>> = {
  kinyarwanda: 'Kinyarwanda',
  'us-english': 'US English',
  'african-english': 'African English',
  french: 'French',
};

/** A voice group as people say it: "us-english" is "US English". */
function groupName(group: string): string {
  return GROUP_NAMES[group] ?? group.replace(/-/g, ' ');
}

const capitalised = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

type VoiceView = VoiceCatalogueView['languages'][number]['voices'][number];

/** How a voice is made, for people: the engine's method, or the neural voice pack that speaks it. */
function madeBy(v: VoiceView): SafeHtml {
  const engine = engines[v.engine];
  if (!v.voice_pack) return html`${capitalised(engine.method)} (${engine.name}).`;
  return html`Neural voice: ${v.voice_pack.speaker} of ${v.voice_pack.name} (${engine.name}). ${v.voice_pack.attribution}`;
}

/** What a licence says of commercial use, when it forbids it or nobody knows. */
const COMMERCIAL_USE = { true: '', false: ' (not for commercial use)', null: ' (commercial use not known)' };

/** A voice's licence, a link when it has one, saying so when it forbids commercial use or is unknown. */
function licenceOf(v: VoiceView): SafeHtml {
  const { name, url, commercial } = v.licence;
  const shown = name === 'unknown' ? 'licence unknown' : name;
  const named = url ? html`<a href="${url}" rel="noopener noreferrer">${shown}</a>` : html`${shown}`;
  return html`${named}${COMMERCIAL_USE[`${commercial}`]}`;
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
export function voicesPage(catalogue: VoiceCatalogueView, options: { charsPerToken: number }): SafeHtml {
  // For people: each voice as a card with its name, who it sounds like and how it is made, and a
  // player the width of the card. The API names follow in a table for developers.
  const sections = catalogue.languages.map(
    (l) => html`<section class="card voice-language" aria-labelledby="lang-${l.code}">
  <div class="card-head">
    <h2 id="lang-${l.code}">${l.name}</h2>
    <p class="muted">${l.billing.studio === 'free' ? 'Free in the studio; tokens through the API.' : 'Tokens, in the studio and through the API.'}</p>
  </div>
  <ul class="voice-cards">
    ${l.voices.map((v) => {
      return html`<li class="voice-card">
      <h3>${v.name}</h3>
      <p class="muted">${capitalised(v.gender)} · ${groupName(v.group)}</p>
      <p class="small">${madeBy(v)}</p>
      <audio controls preload="none" src="${sampleUrl(l.code, v.speaker_id)}" aria-label="Sample of ${v.name}, ${l.name}"></audio>
    </li>`;
    })}
  </ul>
</section>`,
  );
  const developerRows = catalogue.languages.flatMap((l) =>
    l.voices.map((v) => {
      return html`<tr><td data-label="Voice">${v.name}</td><td data-label="language"><code>${l.code}</code></td><td data-label="speaker_id"><code>${v.speaker_id}</code></td><td data-label="group"><code>${v.group}</code></td><td data-label="Sample rate">${v.sample_rate} Hz</td><td data-label="Engine and licence">${engines[v.engine].name}, ${licenceOf(v)}</td></tr>`;
    }),
  );
  const main = html`<section class="page-head">
  <div class="container page-head-inner">
    <div>
      <h1>Voices</h1>
      <p class="muted">Text to speech in Kinyarwanda, English and French. Press play to hear each voice.
        For programs: <a href="?format=json"><code>?format=json</code></a>.</p>
    </div>
    <a class="btn btn-primary" href="/studio">Try your own text</a>
  </div>
</section>
<section class="section section-tight">
  <div class="container stack-lg">
    ${sections}
    <section class="card" aria-labelledby="developers-title">
      <div class="card-head">
        <h2 id="developers-title">For developers</h2>
        <p class="muted">The values the API takes for each voice (<code>language</code>, <code>speaker_id</code>) and what it reports.</p>
      </div>
      <div class="table-wrap"><table class="table table-stack">
        <thead><tr><th scope="col">Voice</th><th scope="col">language</th><th scope="col">speaker_id</th><th scope="col">group</th><th scope="col">Sample rate</th><th scope="col">Engine and licence</th></tr></thead>
        <tbody>${developerRows}</tbody>
      </table></div>
    </section>
    <section class="card" aria-labelledby="formats-title">
      <div class="card-head">
        <h2 id="formats-title">Stream formats</h2>
        <p class="muted">For <code>POST /api/v1/tts-stream.php</code>; files from <code>tts.php</code> are WAV at the voice’s own rate.</p>
      </div>
      <div class="table-wrap"><table class="table table-stack">
        <thead><tr><th scope="col">format</th><th scope="col">Content-Type</th><th scope="col">Rate</th><th scope="col">Encoding</th></tr></thead>
        <tbody>
        ${catalogue.formats.map(
          (f) =>
            html`<tr><td data-label="format"><code>${f.format}</code>${f.default ? ' (default)' : ''}</td><td data-label="Content-Type">${f.content_type}</td><td data-label="Rate">${f.sample_rate} Hz</td><td data-label="Encoding">${f.encoding}</td></tr>`,
        )}
        </tbody>
      </table></div>
    </section>
    <div class="grid grid-2">
      <section class="card" aria-labelledby="prices-title">
        <h2 id="prices-title">Prices</h2>
        <ul class="plain-list">
          <li>1 token per started ${options.charsPerToken} characters of input, at ${usd(1)} per token.</li>
          <li>${FREE_GENERATIONS} free generations per account.</li>
          <li>Kinyarwanda is free in the web studio.</li>
          <li>Top-ups from ${MINIMUM_TOP_UP} tokens (${usd(MINIMUM_TOP_UP)}).</li>
        </ul>
      </section>
      <section class="card" aria-labelledby="limits-title">
        <h2 id="limits-title">Limits</h2>
        <ul class="plain-list">
          <li>Up to ${catalogue.limits.file_max_chars} characters per file request.</li>
          <li>Up to ${catalogue.limits.stream_max_chars} characters per stream request.</li>
          <li>${catalogue.limits.requests_per_minute} requests per minute per key.</li>
        </ul>
      </section>
    </div>
  </div>
</section>`;
  return page({
    title: 'Voices · Ijwi',
    description: 'Every Ijwi voice, with a sample to hear, the stream formats, prices and limits.',
    viewer: { kind: 'unknown' },
    section: 'voices',
    main,
  });
}
