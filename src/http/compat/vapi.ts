import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type StreamFormat, streamFormats } from '../../speech/audio/formats.ts';
import { admitKey } from '../admission.ts';
import { apiKeyFrom } from '../api-key.ts';
import { ApiError } from '../errors.ts';
import { parseBody, speakCompatible } from './compatible-call.ts';
import type { CompatibleOptions } from './options.ts';
import { voiceOfPath } from './voice-id.ts';

// Vapi's custom voice: an assistant whose voice is `{"provider": "custom-voice", "server": {"url":
// "{base_url}/vapi/{voice}", "secret": "<Ijwi API key>"}}` POSTs `{"message": {"type":
// "voice-request", "text", "sampleRate", ...}}` for each thing it says, with the secret in
// `X-VAPI-SECRET`, and plays the answer's body as it comes: 16-bit mono little-endian PCM at the
// `sampleRate` asked for. One voice-request is one billed stream call of the call room.

/** The rates Vapi asks for, as the stream formats that make each exactly. */
const formatOfRate: ReadonlyMap<number, StreamFormat> = new Map(
  [
    streamFormats.pcm16_8k,
    streamFormats.pcm16_16k,
    streamFormats.pcm16_22k,
    streamFormats.pcm16_24k,
    streamFormats.pcm16_44k,
  ].map((format) => [format.sampleRate, format]),
);

const voiceRequestSchema = z.object({
  message: z.looseObject({
    type: z.literal('voice-request', { error: 'message.type must be "voice-request"' }),
    text: z.string({ error: 'message.text must be a string' }),
    sampleRate: z.number({ error: 'message.sampleRate must be a number' }),
  }),
});

/** The key in `X-VAPI-SECRET` (the custom voice's secret), else in Ijwi's own headers. */
function vapiKey(request: FastifyRequest): string {
  const secret = request.headers['x-vapi-secret'];
  const key = (Array.isArray(secret) ? secret.join(', ') : secret)?.trim();
  return key ? key : apiKeyFrom(request.headers);
}

/** `POST /vapi/{voice}`: a Vapi `voice-request`, answered with PCM as it is spoken. */
export const vapiRoutes: FastifyPluginAsync<CompatibleOptions> = async (app, options) => {
  app.post<{ Params: { voice: string } }>(
    '/vapi/:voice',
    { preValidation: admitKey({ ...options, keyFrom: vapiKey }, 'vapi') },
    async (request, reply) => {
      const voice = voiceOfPath(request.params.voice, 'voice');
      const { text, sampleRate } = parseBody(
        voiceRequestSchema,
        request.body,
        'a Vapi voice-request',
      ).message;
      const format = formatOfRate.get(sampleRate);
      if (!format) {
        throw new ApiError(
          'unsupported_format',
          `message.sampleRate must be one of ${[...formatOfRate.keys()].join(', ')}`,
          { param: 'message.sampleRate' },
        );
      }
      await speakCompatible(
        request,
        reply,
        options,
        { voice, text, field: 'message.text', target: { kind: 'stream', format }, path: 'vapi' },
        () => ({
          audioHeaders: (firstAudioAt) => ({
            'Content-Type': 'application/octet-stream',
            'X-Voice-Sample-Rate': String(format.sampleRate),
            'X-Voice-Encoding': format.encoding,
            'X-Voice-Ttfa-Ms': String(Math.round(firstAudioAt - request.arrivedAt)),
          }),
        }),
      );
    },
  );
};
