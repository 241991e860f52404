import WebSocket from 'ws';

// A bridge between one Twilio Media Streams call and an Ijwi live connection: text for the caller
// goes to Ijwi piece by piece; Ijwi's mu-law frames go to Twilio as `media` messages; a `mark`
// follows each finished reply, so the app knows when the caller has heard it; `bargeIn()` clears
// both Ijwi (no more frames of the reply) and Twilio (its buffered audio stops playing).
//
// Twilio's side of the protocol (https://www.twilio.com/docs/voice/media-streams/websocket-messages):
// it sends `connected`, `start` (with `streamSid`), `media` (the caller's audio, base64 mu-law
// 8 kHz), `mark` (a mark we sent has played) and `stop`; it accepts `media`, `mark` and `clear`.

/** Twilio's messages, as much of them as the bridge reads. */
type TwilioMessage =
  | { event: 'connected' }
  | { event: 'start'; streamSid: string; start: { callSid: string } }
  | { event: 'media'; media: { payload: string } }
  | { event: 'mark'; mark: { name: string } }
  | { event: 'stop' };

export interface BridgeOptions {
  /** Ijwi's live endpoint: `wss://host/api/v1/tts-live`. */
  readonly ijwiUrl: string;
  readonly apiKey: string;
  readonly language?: 'rw' | 'en' | 'fr';
  readonly speakerId?: number;
  /** Called when Twilio reports that a reply's audio has played to its end. */
  readonly onPlayed?: (replyId: string) => void;
  /** Called with the caller's audio (mu-law 8 kHz), e.g. for speech recognition or barge-in detection. */
  readonly onCallerAudio?: (mulaw: Buffer) => void;
}

/** One call: Twilio's socket on one side, an Ijwi live connection on the other. */
export class TwilioBridge {
  readonly #twilio: WebSocket;
  readonly #ijwi: WebSocket;
  readonly #options: BridgeOptions;
  #streamSid: string | undefined;
  #replies = 0;
  #current: string | undefined;
  /** Frames that came before Twilio said which stream they belong to. */
  #pending: string[] = [];
  /** Replies Ijwi is still speaking (ended or not). */
  readonly #open = new Set<string>();
  /** Replies cleared on barge-in whose `cleared` has not come back: frames in flight are dropped. */
  readonly #clearing = new Set<string>();
  /** Replies cut short: their end gets no mark, since the caller never heard it. */
  readonly #interrupted = new Set<string>();
  readonly ready: Promise<void>;

  constructor(twilio: WebSocket, options: BridgeOptions) {
    this.#twilio = twilio;
    this.#options = options;
    this.#ijwi = new WebSocket(options.ijwiUrl, { headers: { authorization: `Bearer ${options.apiKey}` } });
    this.ready = new Promise((resolve, reject) => {
      this.#ijwi.once('open', () => resolve());
      this.#ijwi.once('error', reject);
    });
    twilio.on('message', (data) => this.#fromTwilio(JSON.parse(data.toString()) as TwilioMessage));
    twilio.on('close', () => this.#ijwi.close());
    this.#ijwi.on('message', (data) => this.#fromIjwi(JSON.parse(data.toString())));
  }

  /** Adds text to the reply being spoken, starting a new one when none is. */
  say(text: string): void {
    if (this.#current === undefined) {
      this.#current = `reply-${++this.#replies}`;
      this.#open.add(this.#current);
      this.#toIjwi({
        type: 'text',
        context_id: this.#current,
        text,
        language: this.#options.language ?? 'en',
        speaker_id: this.#options.speakerId ?? 0,
        format: 'mulaw_8k',
      });
      return;
    }
    this.#toIjwi({ type: 'text', context_id: this.#current, text });
  }

  /** The reply is complete: Ijwi speaks the rest, and Twilio gets a mark after its last frame. */
  endReply(): void {
    if (this.#current === undefined) return;
    this.#toIjwi({ type: 'end', context_id: this.#current });
    this.#current = undefined;
  }

  /** The caller spoke over the reply: stop it on both sides at once. */
  bargeIn(): void {
    for (const id of this.#open) {
      this.#clearing.add(id);
      this.#interrupted.add(id);
      this.#toIjwi({ type: 'clear', context_id: id });
      this.#toIjwi({ type: 'end', context_id: id });
    }
    this.#current = undefined;
    this.#pending = [];
    if (this.#streamSid) this.#toTwilio({ event: 'clear', streamSid: this.#streamSid });
  }

  close(): void {
    this.#ijwi.close();
  }

  #fromTwilio(message: TwilioMessage): void {
    if (message.event === 'start') {
      this.#streamSid = message.streamSid;
      for (const payload of this.#pending.splice(0)) this.#media(payload);
    } else if (message.event === 'media') {
      this.#options.onCallerAudio?.(Buffer.from(message.media.payload, 'base64'));
    } else if (message.event === 'mark') {
      this.#options.onPlayed?.(message.mark.name);
    } else if (message.event === 'stop') {
      this.#ijwi.close();
    }
  }

  #fromIjwi(message: { type: string; context_id?: string; audio?: string }): void {
    if (message.type === 'cleared' && message.context_id) this.#clearing.delete(message.context_id);
    if (message.type === 'audio' && message.audio) {
      if (message.context_id && this.#clearing.has(message.context_id)) return;
      if (this.#streamSid) this.#media(message.audio);
      else this.#pending.push(message.audio);
    } else if ((message.type === 'done' || message.type === 'error') && message.context_id) {
      const id = message.context_id;
      this.#open.delete(id);
      const heard = message.type === 'done' && !this.#interrupted.delete(id);
      if (heard && this.#streamSid)
        this.#toTwilio({ event: 'mark', streamSid: this.#streamSid, mark: { name: id } });
    }
  }

  /** Ijwi's audio is already what Twilio plays: base64 mu-law 8 kHz in whole 20 ms frames. */
  #media(payload: string): void {
    this.#toTwilio({ event: 'media', streamSid: this.#streamSid, media: { payload } });
  }

  #toIjwi(message: object): void {
    if (this.#ijwi.readyState === WebSocket.OPEN) this.#ijwi.send(JSON.stringify(message));
  }

  #toTwilio(message: object): void {
    if (this.#twilio.readyState === WebSocket.OPEN) this.#twilio.send(JSON.stringify(message));
  }
}
