import { FREE_GENERATIONS, FREE_MAX_SECONDS, MINIMUM_TOP_UP } from '../../accounts/billing.ts';
import { streamFormats } from '../../speech/audio/formats.ts';
import { engines } from '../../speech/engines/registry.ts';
import type { LanguageCode } from '../../speech/text/verbalizer.ts';
import { languages, voicesOf } from '../../speech/voices/voices.ts';
import { contact } from '../contact.ts';
import { html, type SafeHtml } from '../html.ts';
import type { Translator } from '../i18n/translator.ts';
import { type PageContext, page } from '../layout.ts';
import { engineMethodKey, formatDescription, genderKey, languageNameKey, languageNoteKey } from '../words.ts';

// Each language's greeting is shown in that language, whatever the page's: it is what its voices say.
const GREETINGS: Readonly<Record<LanguageCode, string>> = {
  rw: 'Muraho, murakaza neza.',
  en: 'Hello, thank you for calling.',
  fr: 'Bonjour, merci de votre appel.',
};

/** The engines that speak a language, and how each makes speech: a sentence each. */
function engineNote(t: Translator, language: LanguageCode): SafeHtml[] {
  const ids = [...new Set(voicesOf(language).map((voice) => voice.engineVoice.engine))];
  return ids.map(
    (id) =>
      html`<span>${t.text('landing.spokenBy', { engine: engines[id].name, method: t.text(engineMethodKey[id]) })}</span> `,
  );
}

function languageCards(t: Translator): SafeHtml[] {
  return languages.map((language) => {
    const voices = voicesOf(language.code);
    const name = t.text(languageNameKey[language.code]);
    return html`<article class="card language-card">
      <p class="language-code" translate="no">${language.code}</p>
      <h3>${name}</h3>
      <p class="quote" lang="${language.code}" translate="no">“${GREETINGS[language.code]}”</p>
      <p class="muted">${t.text(languageNoteKey[language.code])}</p>
      <p class="muted small">${engineNote(t, language.code)}</p>
      <ul class="voice-chips" aria-label="${t.text('landing.voicesOf', { language: name })}">
        ${voices.map((v) => html`<li><span translate="no">${v.name}</span> <span class="muted">${t.text(genderKey[v.gender])}</span></li>`)}
      </ul>
    </article>`;
  });
}

/** The landing page: what Ijwi does, its languages and voices, its prices, where to start. */
export function landingPage(
  context: PageContext,
  options: { charsPerToken: number; publicBaseUrl: string; supportEmail: string | null },
): SafeHtml {
  const { t } = context;
  const signedIn = context.viewer.kind === 'user';
  const voiceCount = languages.reduce((n, l) => n + voicesOf(l.code).length, 0);
  const example = 250;
  const exampleTokens = Math.ceil(example / options.charsPerToken);
  const main = html`<section class="hero">
  <div class="container hero-inner">
    <div class="hero-copy">
      <p class="eyebrow" translate="no"><span lang="rw">Muraho</span> · <span lang="en">Hello</span> · <span lang="fr">Bonjour</span></p>
      <h1>${t.text('landing.title')}</h1>
      <p class="lede">${t.text('landing.lede')}</p>
      <div class="actions">
        <a class="btn btn-primary btn-large" href="${signedIn ? '/studio' : '/signup'}">${t.text(signedIn ? 'nav.openStudio' : 'landing.tryFree')}</a>
        <a class="btn btn-secondary btn-large" href="/docs">${t.text('landing.readDocs')}</a>
      </div>
      <p class="muted small">${t.text('landing.freeNote', { free: FREE_GENERATIONS })}</p>
    </div>
    <div class="hero-code card card-dark" aria-label="${t.text('landing.exampleCall')}">
      <p class="code-title"><code>POST /api/v1/tts.php</code></p>
      <pre><code>curl ${options.publicBaseUrl}/api/v1/tts.php \\
  -H "Authorization: Bearer $IJWI_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"input": "Muraho neza!",
       "language": "rw", "speaker_id": 1}'</code></pre>
      <p class="code-title"><code>200 OK</code></p>
      <pre><code>{"output_url": "…/generated/audio_….wav",
 "seconds": 1.42, "language": "rw",
 "billing": {"tokens_charged": 1, …}}</code></pre>
    </div>
  </div>
</section>

<section class="section" aria-labelledby="languages-title">
  <div class="container">
    <h2 id="languages-title">${t.text('landing.languages.title', { voices: voiceCount })}</h2>
    <p class="section-lede">${t.rich('landing.languages.lede', { link: (words) => html`<a href="/voices">${words}</a>` })}</p>
    <div class="grid grid-3">${languageCards(t)}</div>
  </div>
</section>

<section class="section section-alt" aria-labelledby="pricing-title">
  <div class="container">
    <h2 id="pricing-title">${t.text('landing.pricing.title')}</h2>
    <p class="section-lede">${t.text('landing.pricing.lede')}</p>
    <div class="grid grid-3">
      <article class="card price-card price-card-featured">
        <h3>${t.text('landing.pricing.studio.title')}</h3>
        <p class="price">${t.text('common.free')}</p>
        <p class="muted">${t.text('landing.pricing.studio.text')}</p>
      </article>
      <article class="card price-card">
        <h3>${t.text('landing.pricing.trial.title')}</h3>
        <p class="price">${t.rich('landing.pricing.trial.price', { count: FREE_GENERATIONS, unit: (words) => html`<span>${words}</span>` })}</p>
        <p class="muted">${t.text('landing.pricing.trial.text', { free: FREE_GENERATIONS, seconds: FREE_MAX_SECONDS })}</p>
      </article>
      <article class="card price-card">
        <h3>${t.text('landing.pricing.tokens.title')}</h3>
        <p class="price">${t.rich('landing.pricing.tokens.price', { price: t.usd(1), unit: (words) => html`<span>${words}</span>` })}</p>
        <p class="muted">${t.text('landing.pricing.tokens.text', {
          chars: options.charsPerToken,
          example,
          tokens: exampleTokens,
          price: t.usd(exampleTokens),
          minimum: MINIMUM_TOP_UP,
          minimumPrice: t.usd(MINIMUM_TOP_UP),
        })}</p>
      </article>
    </div>
    <p class="muted small" id="contact">${contact(t, options.supportEmail)}</p>
  </div>
</section>

<section class="section" aria-labelledby="phone-title">
  <div class="container split">
    <div>
      <h2 id="phone-title">${t.text('landing.phone.title')}</h2>
      <p>${t.text('landing.phone.text')}</p>
      <a class="btn btn-secondary" href="/docs#tts-stream">${t.text('landing.phone.link')}</a>
    </div>
    <ul class="format-list">
      ${Object.values(streamFormats).map((f) => html`<li><code>${f.name}</code><span>${formatDescription(t, f)}</span></li>`)}
    </ul>
  </div>
</section>

<section class="section section-cta">
  <div class="container cta-inner">
    <h2>${t.text('landing.cta.title')}</h2>
    <p>${t.text('landing.cta.text')}</p>
    <a class="btn btn-primary btn-large" href="${signedIn ? '/studio' : '/signup'}">${t.text(signedIn ? 'nav.openStudio' : 'landing.cta.button')}</a>
  </div>
</section>`;
  return page(context, { title: t.text('landing.pageTitle'), section: 'home', main });
}
