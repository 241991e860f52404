// The studio's live mode: text goes to the live WebSocket in pieces as it is typed or pasted
// (pasted text word by word, at a language model's pace), each clause is spoken as soon as it is
// complete, and Stop clears what has not been heard yet, as a voice agent does on barge-in. Its
// words are messages of the page's language (`messages.js`).

import { messagesOf } from './messages.js';

const panel = document.getElementById('live');
const studioForm = document.getElementById('studio-form');
if (panel instanceof HTMLElement && studioForm instanceof HTMLFormElement) live(panel, studioForm);

/** Pieces of pasted text are sent this far apart: about 15 words a second. */
const PIECE_MS = 66;
/** Text that waits this long without a clause boundary is spoken anyway. */
const FLUSH_AFTER_MS = 1500;
const SAMPLE_RATE = 24000;

/**
 * @param {HTMLElement} panel
 * @param {HTMLFormElement} form
 */
function live(panel, form) {
  const byId = (id) => document.getElementById(id);
  const text = byId('live-text');
  const start = byId('live-start');
  const stop = byId('live-stop');
  const status = byId('live-status');
  const language = byId('language');
  const voice = byId('voice');
  let socket;
  let audio;
  let contextId;
  let contexts = 0;
  let sent = '';
  let queue = [];
  let pacing;
  let flushTimer;
  let frames = 0;
  const t = messagesOf(form).text;

  const setState = (state, message) => {
    panel.dataset.state = state;
    if (message) status.textContent = message;
    start.disabled = state !== 'idle';
    stop.disabled = state === 'idle';
    text.disabled = state === 'idle';
  };
  const send = (message) => socket?.readyState === WebSocket.OPEN && socket.send(JSON.stringify(message));

  function newContext() {
    contextId = `live-${++contexts}`;
    return {
      language: language.value,
      speaker_id: Number(voice.value),
      format: 'pcm16_24k',
    };
  }

  function sendPiece(piece) {
    const opening = contextId === undefined ? newContext() : {};
    send({ type: 'text', context_id: contextId, text: piece, ...opening });
    clearTimeout(flushTimer);
    flushTimer = setTimeout(
      () => contextId && send({ type: 'flush', context_id: contextId }),
      FLUSH_AFTER_MS,
    );
  }

  // Whatever was added at the end since the last piece goes out word by word; an edit elsewhere
  // starts over from the current text.
  function onInput() {
    const value = text.value;
    if (!value.startsWith(sent)) {
      sent = value;
      return;
    }
    const added = value.slice(sent.length);
    sent = value;
    queue.push(...(added.match(/\S+\s*|\s+/g) ?? []));
    if (pacing === undefined) pacing = setInterval(pace, PIECE_MS);
  }

  function pace() {
    const piece = queue.shift();
    if (piece === undefined) {
      clearInterval(pacing);
      pacing = undefined;
      return;
    }
    sendPiece(piece);
  }

  function newAudio() {
    audio?.context.close().catch(() => {});
    const context = new AudioContext({ sampleRate: SAMPLE_RATE });
    audio = { context, next: 0, sources: new Set() };
  }

  function play(base64) {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const view = new DataView(bytes.buffer);
    const buffer = audio.context.createBuffer(1, bytes.length / 2, SAMPLE_RATE);
    const channel = buffer.getChannelData(0);
    for (let i = 0; i < channel.length; i++) channel[i] = view.getInt16(i * 2, true) / 32768;
    const source = audio.context.createBufferSource();
    source.buffer = buffer;
    source.connect(audio.context.destination);
    audio.next = Math.max(audio.next, audio.context.currentTime + 0.05);
    source.start(audio.next);
    audio.next += buffer.duration;
    audio.sources.add(source);
    source.addEventListener('ended', () => audio?.sources.delete(source));
    frames += bytes.length / (SAMPLE_RATE / 50) / 2;
    panel.dataset.frames = String(frames);
  }

  function onMessage(event) {
    const message = JSON.parse(event.data);
    if (message.context_id !== undefined && message.context_id !== contextId) return;
    if (message.type === 'audio') {
      play(message.audio);
      setState('speaking', t('studio.live.speaking'));
    } else if (message.type === 'cleared') {
      setState('cleared', t('studio.live.cleared'));
    } else if (message.type === 'done') {
      contextId = undefined;
      setState('open', t('studio.live.done'));
    } else if (message.type === 'error') {
      // The API's message is English for programs; the page says it in its own words.
      contextId = undefined;
      setState('open', t('studio.live.error'));
    }
  }

  start.addEventListener('click', () => {
    newAudio();
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    socket = new WebSocket(
      `${scheme}://${location.host}/studio/live?csrf=${encodeURIComponent(form.dataset.csrf ?? '')}`,
    );
    socket.addEventListener('open', () => {
      sent = '';
      onInput();
      setState('open', t('studio.live.open'));
      text.focus();
    });
    socket.addEventListener('message', onMessage);
    socket.addEventListener('close', () => {
      clearInterval(pacing);
      pacing = undefined;
      queue = [];
      contextId = undefined;
      setState('idle', t('studio.live.off'));
    });
  });

  // Barge-in: nothing already queued plays, the server sends no more of it, and typing goes on.
  stop.addEventListener('click', () => {
    queue = [];
    sent = text.value;
    clearTimeout(flushTimer);
    if (contextId) send({ type: 'clear', context_id: contextId });
    for (const source of audio?.sources ?? []) source.stop();
    if (audio) audio.next = 0;
  });

  text.addEventListener('input', onInput);
  setState('idle');
}
