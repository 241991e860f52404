import {
  FREE_GENERATIONS,
  FREE_MAX_SECONDS,
  MINIMUM_TOP_UP,
  TOKEN_PRICE_US_CENTS,
} from '../../accounts/billing.ts';
import type { LanguageCode } from '../../speech/text/verbalizer.ts';
import { allVoices, languages } from '../../speech/voices/voices.ts';
import { html, type SafeHtml } from '../html.ts';
import type { MessageKey } from '../i18n/catalogue.ts';
import { type PageContext, page, type Viewer } from '../layout.ts';
import { genderName, groupName, languageName } from '../words.ts';

export interface StudioPageOptions {
  readonly viewer: Extract<Viewer, { kind: 'user' }>;
  readonly balance: number;
  readonly freeUsesRemaining: number;
  readonly charsPerToken: number;
  readonly maxChars: number;
  readonly requestsPerMinute: number;
  /** The audio bound per character, by language, that the server decides free uses by, so the page predicts the same outcome. */
  readonly secondsPerCharacter: Readonly<Record<string, number>>;
  /** Text and language to start with (a lexicon entry's "Hear it" link). */
  readonly initial?: { readonly text: string; readonly language: string };
}

// One sentence per spoken language for people who arrive with nothing to type. Each is in the
// language of the voice that reads it, whatever the page's language: a voice speaks its own.
const EXAMPLES: Readonly<Record<LanguageCode, string>> = {
  rw: 'Muraho neza! Murakaza neza kuri Ijwi. Ivuriro ryacu rifungura saa mbiri za mu gitondo.',
  en: 'Hello, and thank you for calling. Our clinic opens at 8 am; how can I help you today?',
  fr: 'Bonjour et merci de votre appel. Notre clinique ouvre à 8 heures ; comment puis-je vous aider ?',
};

/**
 * The messages the studio's scripts show (prices as text is typed, states, refusals), handed to
 * them in the page's language; they format them in the browser with the same library.
 */
export const STUDIO_SCRIPT_MESSAGES: readonly MessageKey[] = [
  'format.usd',
  'unit.tokens',
  'studio.freeLeft',
  'studio.script.price.free',
  'studio.script.price.freeUse',
  'studio.script.price.tokens',
  'studio.script.price.short',
  'studio.script.tooLong',
  'studio.script.empty',
  'studio.script.refused.402',
  'studio.script.refused.402.link',
  'studio.script.refused.401',
  'studio.script.refused.401.link',
  'studio.script.refused.403',
  'studio.script.refused.429',
  'studio.script.refused.429.soon',
  'studio.script.refused.503',
  'studio.script.refused.input',
  'studio.script.refused.text',
  'studio.script.refused.server',
  'studio.script.refused.serverId',
  'studio.script.download.tooLong',
  'studio.script.download.preparing',
  'studio.script.download.failed',
  'studio.script.download.done',
  'studio.script.history.replay',
  'studio.script.history.download',
  'studio.script.state.generating',
  'studio.script.state.streaming',
  'studio.script.state.generated',
  'studio.script.state.done',
  'studio.script.state.stopped',
  'studio.script.state.lost',
  'studio.script.state.notFinished',
  'studio.script.state.notGenerated',
  'studio.live.off',
  'studio.live.open',
  'studio.live.speaking',
  'studio.live.cleared',
  'studio.live.done',
  'studio.live.error',
];

/**
 * The longest audio the studio offers in another format: the WAV comes back to the server whole
 * (about 13 MB for five minutes at 22,050 Hz), a buffer that must stay bounded. Longer audio
 * downloads as WAV, which the page has already.
 */
export const MAX_DOWNLOAD_SECONDS = 300;

/**
 * The studio: type text, pick a voice, hear it while it is generated, download it as WAV, MP3,
 * Opus or FLAC. The voice's language starts as the page's, so its example is in the reader's
 * language; the studio speaks whichever language is picked for the voice.
 */
export function studioPage(context: PageContext, options: StudioPageOptions): SafeHtml {
  const { t } = context;
  const spoken = options.initial?.language ?? t.language;
  const messages = Object.fromEntries(STUDIO_SCRIPT_MESSAGES.map((key) => [key, t.source(key)]));
  const main = html`<section class="page-head">
  <div class="container page-head-inner">
    <div>
      <h1>${t.text('studio.title')}</h1>
      <p class="muted">${t.text('studio.lede')}</p>
    </div>
    <dl class="chips" aria-label="${t.text('studio.account')}">
      <div class="chip"><dt>${t.text('studio.balance')}</dt><dd id="balance">${t.text('unit.tokens', { count: options.balance })}</dd></div>
      <div class="chip"><dt>${t.text('studio.freeGenerations')}</dt><dd id="free-uses">${t.text('studio.freeLeft', { count: options.freeUsesRemaining, total: FREE_GENERATIONS })}</dd></div>
      <div class="chip chip-accent"><dt>${t.text('language.name.rw')}</dt><dd>${t.text('studio.freeHere')}</dd></div>
    </dl>
  </div>
</section>
<section class="section section-tight">
  <div class="container">
    <noscript><div class="alert alert-warning"><p>${t.text('studio.noscript')}</p></div></noscript>
    <form id="studio-form" class="studio card" novalidate
      data-csrf="${options.viewer.csrfToken}"
      data-chars-per-token="${options.charsPerToken}"
      data-token-cents="${TOKEN_PRICE_US_CENTS}"
      data-free-uses="${options.freeUsesRemaining}"
      data-free-generations="${FREE_GENERATIONS}"
      data-balance="${options.balance}"
      data-seconds-per-character="${JSON.stringify(options.secondsPerCharacter)}"
      data-free-max-seconds="${FREE_MAX_SECONDS}"
      data-minimum-top-up="${MINIMUM_TOP_UP}"
      data-max-chars="${options.maxChars}"
      data-max-download-seconds="${MAX_DOWNLOAD_SECONDS}"
      data-locales="${JSON.stringify(t.locales)}"
      data-messages="${JSON.stringify(messages)}">
      <div class="studio-text">
        <div class="field">
          <div class="label-row">
            <label for="text">${t.text('studio.text')}</label>
            <button type="button" class="btn btn-ghost btn-small" id="example" data-rw="${EXAMPLES.rw}" data-en="${EXAMPLES.en}" data-fr="${EXAMPLES.fr}">${t.text('studio.example')}</button>
          </div>
          <textarea id="text" name="input" rows="9" required aria-describedby="meter over-limit" placeholder="${t.text('studio.placeholder')}">${options.initial?.text ?? ''}</textarea>
        </div>
        <p class="meter" id="meter" aria-live="polite">${t.rich('studio.meter', { count: html`<span id="char-count">0</span>`, max: t.number(options.maxChars) })} <span id="price"></span></p>
        <p class="error-text" id="over-limit" hidden>${t.text('studio.overLimit', { max: options.maxChars })}</p>
      </div>
      <div class="studio-controls">
        <div class="field">
          <label for="language">${t.text('studio.language')}</label>
          <select id="language" name="language">
            ${languages.map((l) => html`<option value="${l.code}"${l.code === spoken ? ' selected' : ''}>${languageName(t, l.code)}</option>`)}
          </select>
        </div>
        <div class="field">
          <label for="voice">${t.text('studio.voice')}</label>
          <select id="voice" name="speaker_id">
            ${allVoices().map(
              (v) =>
                html`<option value="${v.speakerId}" data-language="${v.language}" data-rate="${v.sampleRate}"${v.language === spoken ? '' : html` hidden disabled`}>${t.rich('studio.voiceOption', { name: v.name, gender: genderName(t, v.gender), group: groupName(t, v.group) })}</option>`,
            )}
          </select>
        </div>
        <div class="field">
          <label for="rate">${t.text('studio.rate')}</label>
          <select id="rate" name="rate">
            <option value="75">${t.text('studio.rate.slower')}</option>
            <option value="100" selected>${t.text('studio.rate.normal')}</option>
            <option value="125">${t.text('studio.rate.faster')}</option>
            <option value="150">${t.text('studio.rate.fastest')}</option>
          </select>
        </div>
        <button type="submit" class="btn btn-primary btn-block btn-large" id="speak">${t.text('studio.speak')}</button>
        <button type="button" class="btn btn-secondary btn-block" id="stop" disabled>${t.text('studio.stop')}</button>
        <p class="status" id="status" role="status" aria-live="polite">${t.text('studio.ready')}</p>
        <div id="studio-error" class="alert alert-error" role="alert" hidden></div>
        <div class="player">
          <audio id="player" controls preload="none" aria-label="${t.text('studio.player')}"></audio>
          <p class="meter" id="progress" aria-live="off">0:00 / 0:00</p>
          <div id="download-box" class="download-box" hidden>
            <div class="field">
              <label for="download-format">${t.text('studio.downloadAs')}</label>
              <select id="download-format">
                <option value="wav" selected>${t.text('studio.download.wav')}</option>
                <option value="mp3">${t.text('studio.download.mp3')}</option>
                <option value="opus">${t.text('studio.download.opus')}</option>
                <option value="flac">${t.text('studio.download.flac')}</option>
              </select>
            </div>
            <a id="download" class="btn btn-secondary btn-block" href="#" download="ijwi.wav">${t.text('studio.download')}</a>
          </div>
        </div>
      </div>
    </form>
    <section id="live" class="card live" aria-labelledby="live-title" data-state="idle" data-frames="0">
      <h2 id="live-title">${t.text('studio.live.title')}</h2>
      <p class="muted">${t.text('studio.live.lede')}</p>
      <div class="field">
        <label for="live-text">${t.text('studio.live.text')}</label>
        <textarea id="live-text" rows="4" disabled></textarea>
      </div>
      <div class="live-actions">
        <button type="button" class="btn btn-primary" id="live-start">${t.text('studio.live.start')}</button>
        <button type="button" class="btn btn-secondary" id="live-stop" disabled>${t.text('studio.live.stop')}</button>
      </div>
      <p class="status" id="live-status" role="status" aria-live="polite">${t.text('studio.live.off')}</p>
    </section>
    <section class="card history" aria-labelledby="history-title" id="history-card" hidden>
      <h2 id="history-title">${t.text('studio.history.title')}</h2>
      <p class="muted">${t.text('studio.history.lede')}</p>
      <ol id="history" class="history-list"></ol>
    </section>
    <p class="muted small studio-note">${t.text('studio.note', { chars: options.charsPerToken, price: t.usd(1), requests: options.requestsPerMinute })}</p>
  </div>
</section>
`;
  return page(context, {
    title: t.text('studio.pageTitle'),
    section: 'studio',
    main,
    scripts: ['studio.js', 'studio-live.js'],
  });
}
