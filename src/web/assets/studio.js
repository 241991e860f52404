// The studio page: the character count and price as you type, and speech that plays while it is
// still being generated.
//
// Playback: the server streams raw 16-bit PCM as it is synthesised. Each chunk is scheduled on a
// Web Audio context right after the previous one, and the context plays into the page's <audio>
// element through a media stream, so the element's own controls show the time advancing from
// the first chunk. When the stream ends, the chunks are joined into a WAV file in the browser
// (the same bytes the server sent, with an exact header): the element switches to that file
// once the live playback has finished, for replay and seeking, and the download link offers it
// (or, in another format, has the server encode it). Every word it shows is a message of the
// page's language (`messages.js`).

import { messagesOf } from './messages.js';

const form = document.getElementById('studio-form');
if (form instanceof HTMLFormElement) studio(form);

/** @param {HTMLFormElement} form */
function studio(form) {
  const byId = (id) => document.getElementById(id);
  const text = byId('text');
  const language = byId('language');
  const voice = byId('voice');
  const speak = byId('speak');
  const status = byId('status');
  const errorBox = byId('studio-error');
  const player = byId('player');
  const download = byId('download');
  const downloadBox = byId('download-box');
  const downloadFormat = byId('download-format');
  const example = byId('example');
  const stop = byId('stop');
  const rate = byId('rate');
  const progress = byId('progress');
  const history = byId('history');
  /** Generations kept for this tab: their blob URLs are released when they drop off the list. */
  const HISTORY_SIZE = 5;
  const data = form.dataset;
  const words = messagesOf(form);
  const t = words.text;
  const config = {
    csrf: data.csrf ?? '',
    charsPerToken: Number(data.charsPerToken),
    tokenCents: Number(data.tokenCents),
    freeGenerations: Number(data.freeGenerations),
    secondsPerCharacter: JSON.parse(data.secondsPerCharacter ?? '{}'),
    freeMaxSeconds: Number(data.freeMaxSeconds),
    maxChars: Number(data.maxChars),
    maxDownloadSeconds: Number(data.maxDownloadSeconds),
  };
  // What the account has, as last reported by the server (the page, then each response's headers).
  const account = { balance: Number(data.balance), freeUses: Number(data.freeUses) };
  let current;
  let downloadUrl;
  /** The WAV the download link offers, sent back to be encoded when another format is chosen. */
  let downloadWav;
  let downloadSeconds = 0;

  const characters = () => [...text.value.trim()].length;
  const usd = (tokens) => words.usd(tokens, config.tokenCents);

  // The same rule the server bills by (studio Kinyarwanda free, then a free generation for
  // short audio, then tokens), so the price shown is the price paid.
  function priceText(count) {
    if (language.value === 'rw') return t('studio.script.price.free');
    if (
      account.freeUses > 0 &&
      count * (config.secondsPerCharacter[language.value] ?? Infinity) < config.freeMaxSeconds
    ) {
      return t('studio.script.price.freeUse', { count: account.freeUses });
    }
    const tokens = Math.max(1, Math.ceil(count / config.charsPerToken));
    const cost = t('studio.script.price.tokens', { tokens, price: usd(tokens) });
    return account.balance >= tokens
      ? cost
      : t('studio.script.price.short', { cost, balance: account.balance });
  }

  // The limit shows before it bites: past it, the meter says so and Speak refuses the text whole.
  function updateMeter() {
    const count = characters();
    byId('char-count').textContent = words.number(count);
    byId('price').textContent = count === 0 ? '' : priceText(count);
    const over = count > config.maxChars;
    byId('meter').classList.toggle('meter-over', over);
    byId('over-limit').hidden = !over;
    text.setAttribute('aria-invalid', String(over));
  }

  function tooLong(count) {
    return t('studio.script.tooLong', { count, max: config.maxChars });
  }

  // The previous clip is not offered as if it were the new one once a generation is refused.
  function forgetClip() {
    if (downloadUrl) URL.revokeObjectURL(downloadUrl);
    downloadUrl = undefined;
    downloadWav = undefined;
    downloadBox.hidden = true;
    player.srcObject = null;
    player.removeAttribute('src');
    player.load();
  }

  function showAccount() {
    byId('balance').textContent = t('unit.tokens', { count: account.balance });
    byId('free-uses').textContent = t('studio.freeLeft', {
      count: account.freeUses,
      total: config.freeGenerations,
    });
    updateMeter();
  }

  // Speaker ids repeat across languages, so voices are chosen by option, not by value.
  function filterVoices() {
    let first;
    for (const option of voice.options) {
      const matches = option.dataset.language === language.value;
      option.hidden = !matches;
      option.disabled = !matches;
      if (matches && first === undefined) first = option;
    }
    if (voice.selectedOptions[0]?.disabled !== false && first) voice.selectedIndex = first.index;
  }

  function setStatus(message) {
    status.textContent = message;
  }

  // Where the current generation is, on the form for styles and tests: requesting, streaming
  // (playing while the rest is generated), streamed (all audio received), done (replayable),
  // or refused / failed.
  function setState(state) {
    form.dataset.state = state;
  }

  function showError(message, link) {
    errorBox.replaceChildren();
    const paragraph = document.createElement('p');
    paragraph.textContent = message;
    if (link) {
      const anchor = document.createElement('a');
      anchor.href = link.href;
      anchor.textContent = link.label;
      paragraph.append(' ', anchor);
    }
    errorBox.append(paragraph);
    errorBox.hidden = false;
  }

  async function explain(response) {
    let error = {};
    try {
      error = (await response.json()).error ?? {};
    } catch {
      // Not our JSON (a proxy's page): the status alone has to do.
    }
    switch (response.status) {
      case 402:
        account.balance = Number(error.balance ?? account.balance);
        account.freeUses = 0;
        showAccount();
        return [
          t('studio.script.refused.402', {
            balance: account.balance,
            needed: Number(error.tokens_needed),
            minimum: Number(error.minimum_top_up),
            price: usd(Number(error.minimum_top_up)),
          }),
          { href: '/dashboard#topup-title', label: t('studio.script.refused.402.link') },
        ];
      case 401:
        return [
          t('studio.script.refused.401'),
          { href: '/signin?next=/studio', label: t('studio.script.refused.401.link') },
        ];
      case 403:
        return [t('studio.script.refused.403')];
      case 429: {
        const seconds = Number(response.headers.get('retry-after'));
        return [
          Number.isInteger(seconds) && seconds > 0
            ? t('studio.script.refused.429', { seconds })
            : t('studio.script.refused.429.soon'),
        ];
      }
      case 503:
        return [t('studio.script.refused.503')];
      case 400:
        // The API's message is English for programs; the page says it by code.
        if (error.code === 'input_too_long') return [tooLong(characters())];
        return [
          t(error.code === 'input_required' ? 'studio.script.refused.input' : 'studio.script.refused.text'),
        ];
      default:
        return [
          error.request_id
            ? t('studio.script.refused.serverId', { id: error.request_id })
            : t('studio.script.refused.server'),
        ];
    }
  }

  function wavFile(parts, byteLength, sampleRate) {
    const header = new DataView(new ArrayBuffer(44));
    const ascii = (at, tag) => {
      for (let i = 0; i < 4; i++) header.setUint8(at + i, tag.charCodeAt(i));
    };
    ascii(0, 'RIFF');
    header.setUint32(4, 36 + byteLength, true);
    ascii(8, 'WAVE');
    ascii(12, 'fmt ');
    header.setUint32(16, 16, true);
    header.setUint16(20, 1, true);
    header.setUint16(22, 1, true);
    header.setUint32(24, sampleRate, true);
    header.setUint32(28, sampleRate * 2, true);
    header.setUint16(32, 2, true);
    header.setUint16(34, 16, true);
    ascii(36, 'data');
    header.setUint32(40, byteLength, true);
    return new Blob([header.buffer, ...parts], { type: 'audio/wav' });
  }

  /** One generation: its audio context, its request, and its chunks. */
  function liveSession(sampleRate) {
    const controller = new AbortController();
    // Created inside the click, so the browser lets it play.
    const context = new AudioContext({ sampleRate });
    const destination = context.createMediaStreamDestination();
    const parts = [];
    let byteLength = 0;
    let carry = new Uint8Array(0);
    let next = 0;
    let last;

    // The player and download link keep the previous audio until this one has some: a refused
    // request leaves them as they were.
    function takeOver() {
      if (downloadUrl) URL.revokeObjectURL(downloadUrl);
      downloadUrl = undefined;
      downloadWav = undefined;
      downloadBox.hidden = true;
      player.removeAttribute('src');
      player.srcObject = destination.stream;
      player.play().catch(() => {
        // Autoplay refused: the controls are there to press play.
      });
    }

    function schedule(bytes) {
      const joined = new Uint8Array(carry.length + bytes.length);
      joined.set(carry);
      joined.set(bytes, carry.length);
      const whole = joined.length - (joined.length % 2);
      carry = joined.slice(whole);
      if (whole === 0) return;
      const view = new DataView(joined.buffer, 0, whole);
      const buffer = context.createBuffer(1, whole / 2, sampleRate);
      const channel = buffer.getChannelData(0);
      for (let i = 0; i < channel.length; i++) channel[i] = view.getInt16(i * 2, true) / 32768;
      const source = context.createBufferSource();
      source.buffer = buffer;
      source.connect(destination);
      // A little lead on the first chunk (and after a stall), so its start is not clipped.
      next = Math.max(next, context.currentTime + 0.05);
      source.start(next);
      next += buffer.duration;
      last = source;
    }

    return {
      controller,
      async play(body, onFirstAudio, onProgress) {
        const reader = body.getReader();
        const started = { at: 0 };
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          if (parts.length === 0) {
            takeOver();
            onFirstAudio();
            started.at = context.currentTime;
          }
          parts.push(value);
          byteLength += value.length;
          schedule(value);
          onProgress(context.currentTime - started.at, byteLength / 2 / sampleRate);
        }
        return { seconds: byteLength / 2 / sampleRate, wav: wavFile(parts, byteLength, sampleRate) };
      },
      /** Resolves when everything scheduled has been heard. */
      finished() {
        return new Promise((resolve) => {
          if (!last || context.state === 'closed') return resolve();
          last.addEventListener('ended', () => resolve(), { once: true });
          // Stopped early (a new generation started): nothing more will end.
          context.addEventListener('statechange', () => context.state === 'closed' && resolve());
        });
      },
      stop() {
        controller.abort();
        context.close().catch(() => {});
      },
    };
  }

  // What is playing, and how long it is: "0:03 / 0:12"; while a stream is still arriving, its
  // length is what has arrived so far.
  const clock = (seconds) => {
    const whole = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
    return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
  };
  function showProgress(at, length, more = false) {
    progress.textContent = `${clock(at)} / ${clock(length)}${more ? '…' : ''}`;
  }
  player.addEventListener('timeupdate', () => {
    if (player.src) showProgress(player.currentTime, player.duration);
  });

  // The speaking rate goes as SSML prosody around the text, escaped: the text stays text.
  function requestBody(input, option) {
    const body = { input, language: language.value, speaker_id: Number(option.value) };
    if (rate.value === '100') return body;
    const escaped = input.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    return {
      ...body,
      input: `<speak><prosody rate="${rate.value}%">${escaped}</prosody></speak>`,
      text_type: 'ssml',
    };
  }

  // Another format than WAV: the WAV the page already has goes back to be encoded (never spoken
  // or billed again), and the file comes back as a download.
  async function downloadAs(format) {
    if (downloadSeconds > config.maxDownloadSeconds) {
      showError(t('studio.script.download.tooLong', { minutes: Math.round(config.maxDownloadSeconds / 60) }));
      return;
    }
    const name = download.download.replace(/\.wav$/, `.${format}`);
    setStatus(t('studio.script.download.preparing', { name }));
    try {
      const response = await fetch(`/studio/download?format=${format}`, {
        method: 'POST',
        headers: { 'content-type': 'audio/wav', 'x-csrf-token': config.csrf },
        body: downloadWav,
      });
      if (!response.ok) {
        showError(t('studio.script.download.failed'));
        return;
      }
      const url = URL.createObjectURL(await response.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = name;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      setStatus(t('studio.script.download.done', { name }));
    } catch {
      showError(t('studio.script.download.failed'));
    }
  }

  download.addEventListener('click', (event) => {
    if (downloadFormat.value === 'wav' || !downloadWav) return;
    event.preventDefault();
    downloadAs(downloadFormat.value);
  });

  function remember(label, url, seconds) {
    const item = document.createElement('li');
    const title = document.createElement('p');
    title.textContent = `${label} · ${clock(seconds)}`;
    const audio = document.createElement('audio');
    audio.controls = true;
    audio.preload = 'none';
    audio.src = url;
    audio.setAttribute('aria-label', t('studio.script.history.replay', { label }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'ijwi.wav';
    link.textContent = t('studio.script.history.download');
    link.className = 'btn btn-ghost btn-small';
    item.append(title, audio, link);
    item.dataset.url = url;
    history.prepend(item);
    byId('history-card').hidden = false;
    while (history.children.length > HISTORY_SIZE) {
      const old = history.lastElementChild;
      URL.revokeObjectURL(old.dataset.url);
      old.remove();
    }
  }

  stop.addEventListener('click', () => {
    current?.stop();
    current = undefined;
    // What was stopped is not a whole clip: nothing is offered as if it were (the history keeps earlier ones).
    forgetClip();
    showProgress(0, 0);
    stop.disabled = true;
    speak.disabled = false;
    form.removeAttribute('aria-busy');
    setState('stopped');
    setStatus(t('studio.script.state.stopped'));
  });

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    errorBox.hidden = true;
    const input = text.value.trim();
    if (input.length === 0) {
      showError(t('studio.script.empty'));
      text.focus();
      return;
    }
    if (characters() > config.maxChars) {
      showError(tooLong(characters()));
      text.focus();
      return;
    }
    const option = voice.selectedOptions[0];
    if (!option) return;
    current?.stop();
    const session = liveSession(Number(option.dataset.rate));
    current = session;
    const busy = (on) => {
      speak.disabled = on;
      stop.disabled = !on;
      form.setAttribute('aria-busy', String(on));
    };
    busy(true);
    setState('requesting');
    setStatus(t('studio.script.state.generating'));
    try {
      const response = await fetch('/studio/tts', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': config.csrf },
        body: JSON.stringify(requestBody(input, option)),
        signal: session.controller.signal,
      });
      if (!response.ok || !response.body) {
        // Read before stopping: stopping aborts the request, body included.
        const [message, link] = await explain(response);
        session.stop();
        forgetClip();
        showError(message, link);
        setState('refused');
        setStatus(t('studio.script.state.notGenerated'));
        return;
      }
      account.balance = Number(response.headers.get('x-voice-token-balance') ?? account.balance);
      account.freeUses = Number(response.headers.get('x-voice-free-uses-remaining') ?? account.freeUses);
      showAccount();
      const { seconds, wav } = await session.play(
        response.body,
        () => {
          setState('streaming');
          setStatus(t('studio.script.state.streaming'));
        },
        (at, arrived) => showProgress(at, arrived, true),
      );
      setState('streamed');
      busy(false);
      stop.disabled = false;
      downloadUrl = URL.createObjectURL(wav);
      downloadWav = wav;
      downloadSeconds = seconds;
      download.href = downloadUrl;
      download.download = `ijwi-${language.value}-${option.textContent?.split(' ')[0]?.toLowerCase() ?? 'voice'}.wav`;
      downloadBox.hidden = false;
      setStatus(t('studio.script.state.generated', { seconds }));
      remember(
        `${option.textContent?.split(' ')[0] ?? ''}: ${input.slice(0, 40)}${input.length > 40 ? '…' : ''}`,
        URL.createObjectURL(wav),
        seconds,
      );
      await session.finished();
      if (current !== session) return;
      session.stop();
      player.srcObject = null;
      player.src = downloadUrl;
      stop.disabled = true;
      showProgress(0, seconds);
      setState('done');
      setStatus(t('studio.script.state.done', { seconds }));
    } catch {
      if (session.controller.signal.aborted) return;
      session.stop();
      showError(t('studio.script.state.lost'));
      setState('failed');
      setStatus(t('studio.script.state.notFinished'));
    } finally {
      if (current === session) busy(false);
    }
  });

  text.addEventListener('input', updateMeter);
  text.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) form.requestSubmit();
  });
  language.addEventListener('change', () => {
    filterVoices();
    updateMeter();
  });
  example.addEventListener('click', () => {
    text.value = example.dataset[language.value] ?? '';
    updateMeter();
    text.focus();
  });
  filterVoices();
  updateMeter();
}
