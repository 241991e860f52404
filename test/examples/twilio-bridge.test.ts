import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket, { WebSocketServer } from 'ws';
import { TwilioBridge } from '../../examples/twilio/bridge.ts';
import { decodeMulaw } from '../../src/speech/audio/g711.ts';
import type { EnginePool } from '../../src/speech/pool/engine-pool.ts';
import { voicedShare } from '../helpers/audio-analysis.ts';
import { buildTtsTestApp, listenOnLoopback, startTestPool, type TtsFixture } from '../helpers/tts-fixture.ts';

// The Twilio example against a real Ijwi and a stand-in for Twilio's side of Media Streams.

interface TwilioSide {
  readonly socket: WebSocket;
  readonly received: {
    event: string;
    streamSid?: string;
    media?: { payload: string };
    mark?: { name: string };
  }[];
  next(event: string): Promise<void>;
}

describe('examples/twilio: a Media Streams bridge', () => {
  let pool: EnginePool;
  let fixture: TtsFixture;
  let ijwiUrl: string;
  let server: WebSocketServer;
  let bridges: Promise<TwilioBridge>[];
  let apiKey: string;
  const played: string[] = [];

  before(async () => {
    pool = await startTestPool();
    fixture = await buildTtsTestApp({ pool: () => pool });
    ijwiUrl = `${(await listenOnLoopback(fixture.app)).replace('http', 'ws')}/api/v1/tts-live`;
    apiKey = (await fixture.newPayingAccount({ topUp: 1000 })).key;
    bridges = [];
    server = new WebSocketServer({ port: 0, host: '127.0.0.1', path: '/twilio' });
    await new Promise((resolve) => server.once('listening', resolve));
    server.on('connection', (socket) => {
      bridges.push(
        (async () => {
          const bridge = new TwilioBridge(socket, { ijwiUrl, apiKey, onPlayed: (name) => played.push(name) });
          await bridge.ready;
          return bridge;
        })(),
      );
    });
  });
  after(async () => {
    for (const bridge of bridges) (await bridge).close();
    server.close();
    await fixture.close();
    await pool.close();
  });

  /** Connects as Twilio does: `connected`, then `start` naming the stream. */
  async function call(): Promise<{ twilio: TwilioSide; bridge: TwilioBridge }> {
    const count = bridges.length;
    const socket = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}/twilio`);
    await new Promise((resolve) => socket.once('open', resolve));
    while (bridges.length === count) await sleep(5);
    const received: TwilioSide['received'] = [];
    const waiting: { event: string; resolve: () => void }[] = [];
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString());
      received.push(message);
      for (const w of waiting.filter((w) => w.event === message.event)) w.resolve();
    });
    socket.send(JSON.stringify({ event: 'connected', protocol: 'Call', version: '1.0.0' }));
    socket.send(JSON.stringify({ event: 'start', streamSid: 'MZ123', start: { callSid: 'CA123' } }));
    const bridge = await (bridges.at(-1) as Promise<TwilioBridge>);
    const next = (event: string) =>
      received.some((m) => m.event === event)
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiting.push({ event, resolve }));
    return { twilio: { socket, received, next }, bridge };
  }

  it('plays a reply as media frames of whole 20 ms of mu-law, then marks its end', async () => {
    const { twilio, bridge } = await call();
    for (const word of 'Hello, thank you for calling the clinic. '.split(/(?<= )/)) bridge.say(word);
    bridge.endReply();
    await twilio.next('mark');
    const media = twilio.received.filter((m) => m.event === 'media');
    assert.ok(media.length > 0);
    assert.ok(media.every((m) => m.streamSid === 'MZ123'));
    const audio = Buffer.concat(media.map((m) => Buffer.from(m.media?.payload ?? '', 'base64')));
    assert.ok(media.every((m) => Buffer.from(m.media?.payload ?? '', 'base64').byteLength % 160 === 0));
    assert.ok(audio.byteLength / 8000 > 1);
    assert.ok(voicedShare(decodeMulaw(audio), 8000) > 0.3);
    const mark = twilio.received.at(-1);
    assert.deepEqual(mark, { event: 'mark', streamSid: 'MZ123', mark: { name: 'reply-1' } });
    twilio.socket.send(JSON.stringify({ event: 'mark', streamSid: 'MZ123', mark: { name: 'reply-1' } }));
    await sleep(100);
    assert.deepEqual(played, ['reply-1']);
    twilio.socket.close();
  });

  it('on barge-in sends Twilio a clear, and no frame of the interrupted reply after it', async () => {
    const { twilio, bridge } = await call();
    bridge.say(
      'We are open from eight in the morning to five in the evening, Monday to Friday, and on Saturday mornings. ',
    );
    bridge.say('Our address is KN 3 Road in Kigali, next to the pharmacy. ');
    await twilio.next('media');
    await sleep(300);
    bridge.bargeIn();
    await twilio.next('clear');
    const clearedAt = twilio.received.findIndex((m) => m.event === 'clear');
    await sleep(800);
    assert.deepEqual(
      twilio.received.slice(clearedAt + 1).filter((m) => m.event === 'media'),
      [],
      'nothing of the interrupted reply plays after the clear',
    );
    bridge.say('Sorry, go ahead. ');
    bridge.endReply();
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (twilio.received.slice(clearedAt + 1).some((m) => m.event === 'mark')) {
          clearInterval(check);
          resolve();
        }
      }, 20);
    });
    assert.ok(
      twilio.received.slice(clearedAt + 1).some((m) => m.event === 'media'),
      'the next reply plays',
    );
    twilio.socket.close();
  });
});
