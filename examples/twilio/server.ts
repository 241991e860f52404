import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';
import { TwilioBridge } from './bridge.ts';

// A runnable Twilio Media Streams endpoint that greets each caller through Ijwi. Point a Twilio
// number's TwiML at it:
//
//   <Response><Connect><Stream url="wss://your-host/twilio" /></Connect></Response>
//
// and run: IJWI_URL=wss://ijwi-host/api/v1/tts-live IJWI_API_KEY=ijwi_sk_... PORT=8080 \
//          node --import tsx examples/twilio/server.ts
// Your agent would call `bridge.say()` with its language model's words as they come, and
// `bridge.bargeIn()` when its speech recogniser hears the caller.

const ijwiUrl = process.env.IJWI_URL ?? 'ws://127.0.0.1:3000/api/v1/tts-live';
const apiKey = process.env.IJWI_API_KEY ?? '';
const port = Number(process.env.PORT ?? 8080);

const server = createServer((_request, response) => response.writeHead(404).end());
const sockets = new WebSocketServer({ server, path: '/twilio', maxPayload: 64 * 1024 });
sockets.on('connection', async (twilio) => {
  const bridge = new TwilioBridge(twilio, { ijwiUrl, apiKey, language: 'en' });
  await bridge.ready;
  for (const word of 'Hello, thank you for calling. How can I help you today?'.split(/(?<= )/))
    bridge.say(word);
  bridge.endReply();
});
server.listen(port, () => console.log(`Twilio bridge listening on :${port}/twilio`));
