import {
  FREE_GENERATIONS,
  FREE_MAX_SECONDS,
  MINIMUM_TOP_UP,
  TOKEN_PRICE_US_CENTS,
} from '../../accounts/billing.ts';
import { allVoices, languages } from '../../speech/voices.ts';
import { count, plural, usd } from '../format.ts';
import { html, type SafeHtml } from '../html.ts';
import { page, type Viewer } from '../layout.ts';

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

// One sentence per language for people who arrive with nothing to type.
const EXAMPLES = {
  rw: 'Muraho neza! Murakaza neza kuri Ijwi. Ivuriro ryacu rifungura saa mbiri za mu gitondo.',
  en: 'Hello, and thank you for calling. Our clinic opens at 8 am; how can I help you today?',
  fr: 'Bonjour et merci de votre appel. Notre clinique ouvre à 8 heures ; comment puis-je vous aider ?',
} as const;

/**
 * The longest audio the studio offers in another format: the WAV comes back to the server whole
 * (about 13 MB for five minutes at 22,050 Hz), a buffer that must stay bounded. Longer audio
 * downloads as WAV, which the page has already.
 */
export const MAX_DOWNLOAD_SECONDS = 300;

/** The studio: type text, pick a voice, hear it while it is generated, download it as WAV, MP3, Opus or FLAC. */
export function studioPage(options: StudioPageOptions): SafeHtml {
  const main = html`<section class="page-head">
  <div class="container page-head-inner">
    <div>
      <h1>Studio</h1>
      <p class="muted">Type or paste text, choose a voice, and listen as it is spoken.</p>
    </div>
    <dl class="chips" aria-label="Your account">
      <div class="chip"><dt>Balance</dt><dd id="balance">${plural(options.balance, 'token')}</dd></div>
      <div class="chip"><dt>Free generations</dt><dd id="free-uses">${count(options.freeUsesRemaining)} of ${FREE_GENERATIONS} left</dd></div>
      <div class="chip chip-accent"><dt>Kinyarwanda</dt><dd>Free here</dd></div>
    </dl>
  </div>
</section>
<section class="section section-tight">
  <div class="container">
    <noscript><div class="alert alert-warning"><p>The studio plays audio with JavaScript; please turn it on for this page.</p></div></noscript>
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
      data-max-download-seconds="${MAX_DOWNLOAD_SECONDS}">
      <div class="studio-text">
        <div class="field">
          <div class="label-row">
            <label for="text">Text to speak</label>
            <button type="button" class="btn btn-ghost btn-small" id="example" data-rw="${EXAMPLES.rw}" data-en="${EXAMPLES.en}" data-fr="${EXAMPLES.fr}">Use an example</button>
          </div>
          <textarea id="text" name="input" rows="9" required aria-describedby="meter over-limit" placeholder="Muraho neza! Andika hano… · Type here… · Écrivez ici…">${options.initial?.text ?? ''}</textarea>
        </div>
        <p class="meter" id="meter" aria-live="polite"><span id="char-count">0</span> of ${count(options.maxChars)} characters <span id="price"></span></p>
        <p class="error-text" id="over-limit" hidden>The studio speaks at most ${count(options.maxChars)} characters at once, as the file API does: longer text is refused whole, never cut.</p>
      </div>
      <div class="studio-controls">
        <div class="field">
          <label for="language">Language</label>
          <select id="language" name="language">
            ${languages.map((l) => html`<option value="${l.code}"${l.code === options.initial?.language ? ' selected' : ''}>${l.name}</option>`)}
          </select>
        </div>
        <div class="field">
          <label for="voice">Voice</label>
          <select id="voice" name="speaker_id">
            ${allVoices().map(
              (v) =>
                html`<option value="${v.speakerId}" data-language="${v.language}" data-rate="${v.sampleRate}"${v.language === 'rw' ? '' : html` hidden disabled`}>${v.name} · ${v.gender}, ${v.group.replace('-', ' ')}</option>`,
            )}
          </select>
        </div>
        <div class="field">
          <label for="rate">Speaking rate</label>
          <select id="rate" name="rate">
            <option value="75">Slower (0.75×)</option>
            <option value="100" selected>Normal</option>
            <option value="125">Faster (1.25×)</option>
            <option value="150">Fastest (1.5×)</option>
          </select>
        </div>
        <button type="submit" class="btn btn-primary btn-block btn-large" id="speak">Speak</button>
        <button type="button" class="btn btn-secondary btn-block" id="stop" disabled>Stop playback</button>
        <p class="status" id="status" role="status" aria-live="polite">Ready.</p>
        <div id="studio-error" class="alert alert-error" role="alert" hidden></div>
        <div class="player">
          <audio id="player" controls preload="none" aria-label="Generated speech"></audio>
          <p class="meter" id="progress" aria-live="off">0:00 / 0:00</p>
          <div id="download-box" class="download-box" hidden>
            <div class="field">
              <label for="download-format">Download as</label>
              <select id="download-format">
                <option value="wav" selected>WAV (lossless, largest)</option>
                <option value="mp3">MP3 (plays everywhere)</option>
                <option value="opus">Opus (smallest)</option>
                <option value="flac">FLAC (lossless, smaller)</option>
              </select>
            </div>
            <a id="download" class="btn btn-secondary btn-block" href="#" download="ijwi.wav">Download</a>
          </div>
        </div>
      </div>
    </form>
    <section id="live" class="card live" aria-labelledby="live-title" data-state="idle" data-frames="0">
      <h2 id="live-title">Live mode</h2>
      <p class="muted">What a voice agent does: text goes to the live WebSocket as you type or paste it, each sentence is spoken as soon as you finish it, and Stop cuts it off as a caller would. It uses the language and voice above.</p>
      <div class="field">
        <label for="live-text">Live text</label>
        <textarea id="live-text" rows="4" disabled></textarea>
      </div>
      <div class="live-actions">
        <button type="button" class="btn btn-primary" id="live-start">Start live</button>
        <button type="button" class="btn btn-secondary" id="live-stop" disabled>Stop</button>
      </div>
      <p class="status" id="live-status" role="status" aria-live="polite">Live mode is off.</p>
    </section>
    <section class="card history" aria-labelledby="history-title" id="history-card" hidden>
      <h2 id="history-title">This session</h2>
      <p class="muted">Your last few generations, to hear again or download. They stay in this tab only.</p>
      <ol id="history" class="history-list"></ol>
    </section>
    <p class="muted small studio-note">English and French use your free generations first, then tokens (1 per started ${options.charsPerToken} characters, ${usd(1)} each).
      Studio requests count towards your account’s limit of ${options.requestsPerMinute} per minute.</p>
  </div>
</section>
`;
  return page({
    title: 'Studio · Ijwi',
    viewer: options.viewer,
    section: 'studio',
    main,
    scripts: ['studio.js', 'studio-live.js'],
  });
}
