import { FREE_GENERATIONS, FREE_MAX_SECONDS, MINIMUM_TOP_UP } from '../../accounts/billing.ts';
import { streamFormats } from '../../speech/audio/formats.ts';
import { engines } from '../../speech/engines/registry.ts';
import type { LanguageCode } from '../../speech/text/verbalizer.ts';
import { languages, voicesOf } from '../../speech/voices.ts';
import { contact } from '../contact.ts';
import { usd } from '../format.ts';
import { html, type SafeHtml } from '../html.ts';
import { page, type Viewer } from '../layout.ts';

const GREETINGS: Readonly<Record<string, { readonly text: string; readonly note: string }>> = {
  rw: {
    text: 'Muraho, murakaza neza.',
    note: 'Ijwi’s own Kinyarwanda reading of numbers, money, dates and times',
  },
  en: { text: 'Hello, thank you for calling.', note: 'US English, and African English voices' },
  fr: { text: 'Bonjour, merci de votre appel.', note: 'French for callers across the region' },
};

/** The engines that speak a language, and how each makes speech. */
function engineNote(language: LanguageCode): string {
  const ids = [...new Set(voicesOf(language).map((voice) => voice.engineVoice.engine))];
  return ids.map((id) => `Spoken by ${engines[id].name}: ${engines[id].method}.`).join(' ');
}

function languageCards(): SafeHtml[] {
  return languages.map((language) => {
    const voices = voicesOf(language.code);
    const greeting = GREETINGS[language.code];
    return html`<article class="card language-card">
      <p class="language-code">${language.code}</p>
      <h3>${language.name}</h3>
      <p class="quote" lang="${language.code}">“${greeting?.text ?? ''}”</p>
      <p class="muted">${greeting?.note ?? ''}</p>
      <p class="muted small">${engineNote(language.code)}</p>
      <ul class="voice-chips" aria-label="${language.name} voices">
        ${voices.map((v) => html`<li>${v.name} <span class="muted">${v.gender}</span></li>`)}
      </ul>
    </article>`;
  });
}

/** The landing page: what Ijwi does, its languages and voices, its prices, where to start. */
export function landingPage(options: {
  viewer: Viewer;
  charsPerToken: number;
  publicBaseUrl: string;
  supportEmail: string | null;
}): SafeHtml {
  const signedIn = options.viewer.kind === 'user';
  const voiceCount = languages.reduce((n, l) => n + voicesOf(l.code).length, 0);
  const example = 250;
  const exampleTokens = Math.ceil(example / options.charsPerToken);
  const main = html`<section class="hero">
  <div class="container hero-inner">
    <div class="hero-copy">
      <p class="eyebrow"><span lang="rw">Muraho</span> · <span lang="en">Hello</span> · <span lang="fr">Bonjour</span></p>
      <h1>Voices for Kinyarwanda, English and French</h1>
      <p class="lede">Ijwi turns text into speech for receptionists, phone lines and apps in Rwanda and
        beyond: a WAV file by URL, or live telephony audio streamed in 20 ms frames while it is being spoken.</p>
      <div class="actions">
        <a class="btn btn-primary btn-large" href="${signedIn ? '/studio' : '/signup'}">${signedIn ? 'Open the studio' : 'Try it free'}</a>
        <a class="btn btn-secondary btn-large" href="/docs">Read the API docs</a>
      </div>
      <p class="muted small">Kinyarwanda is free in the studio. Every account starts with ${FREE_GENERATIONS} free generations.</p>
    </div>
    <div class="hero-code card card-dark" aria-label="Example API call">
      <p class="code-title">POST /api/v1/tts.php</p>
      <pre><code>curl ${options.publicBaseUrl}/api/v1/tts.php \\
  -H "Authorization: Bearer $IJWI_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"input": "Muraho neza!",
       "language": "rw", "speaker_id": 1}'</code></pre>
      <p class="code-title">200 OK</p>
      <pre><code>{"output_url": "…/generated/audio_….wav",
 "seconds": 1.42, "language": "rw",
 "billing": {"tokens_charged": 1, …}}</code></pre>
    </div>
  </div>
</section>

<section class="section" aria-labelledby="languages-title">
  <div class="container">
    <h2 id="languages-title">Three languages, ${voiceCount} voices</h2>
    <p class="section-lede">Each voice has its own pitch, tone and pace. <a href="/api/v1/voices.php">Listen to every voice</a>.</p>
    <div class="grid grid-3">${languageCards()}</div>
  </div>
</section>

<section class="section section-alt" aria-labelledby="pricing-title">
  <div class="container">
    <h2 id="pricing-title">Simple prices</h2>
    <p class="section-lede">You pay for the text you send, not for the seconds of audio.</p>
    <div class="grid grid-3">
      <article class="card price-card price-card-featured">
        <h3>Kinyarwanda in the studio</h3>
        <p class="price">Free</p>
        <p class="muted">Type, listen and download Kinyarwanda speech in the web studio at no cost, as often as you like.</p>
      </article>
      <article class="card price-card">
        <h3>Free trial</h3>
        <p class="price">${FREE_GENERATIONS} <span>generations</span></p>
        <p class="muted">Every account’s first ${FREE_GENERATIONS} generations are free, in any language, through the API or the studio (audio under ${FREE_MAX_SECONDS} s).</p>
      </article>
      <article class="card price-card">
        <h3>Tokens</h3>
        <p class="price">${usd(1)} <span>per token</span></p>
        <p class="muted">1 token per started ${options.charsPerToken} characters: a ${example}-character reply costs ${exampleTokens} tokens (${usd(exampleTokens)}). Top-ups start at ${MINIMUM_TOP_UP} tokens (${usd(MINIMUM_TOP_UP)}), asked for in your dashboard.</p>
      </article>
    </div>
    <p class="muted small" id="contact">${contact(options.supportEmail)}</p>
  </div>
</section>

<section class="section" aria-labelledby="phone-title">
  <div class="container split">
    <div>
      <h2 id="phone-title">Made for phone calls</h2>
      <p>The streaming endpoint starts sending audio as soon as the first words are ready, in the encoding your
        telephony stack expects. A caller hears the reply while the rest is still being spoken.</p>
      <a class="btn btn-secondary" href="/docs#tts-stream">How streaming works</a>
    </div>
    <ul class="format-list">
      ${Object.values(streamFormats).map(
        (f) =>
          html`<li><code>${f.name}</code><span>${f.encoding === 'pcm_s16le' ? '16-bit PCM' : `G.711 ${f.encoding === 'mulaw' ? 'mu-law' : 'A-law'}`}, ${f.sampleRate / 1000} kHz</span></li>`,
      )}
    </ul>
  </div>
</section>

<section class="section section-cta">
  <div class="container cta-inner">
    <h2>Hear your own text in a minute</h2>
    <p>Create an account, type a sentence in the studio and press play. No card needed.</p>
    <a class="btn btn-primary btn-large" href="${signedIn ? '/studio' : '/signup'}">${signedIn ? 'Open the studio' : 'Create your account'}</a>
  </div>
</section>`;
  return page({
    title: 'Ijwi · Text to speech for Kinyarwanda, English and French',
    viewer: options.viewer,
    section: 'home',
    main,
  });
}
