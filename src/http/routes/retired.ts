import type { FastifyPluginAsync } from 'fastify';
import { ApiError } from '../errors.ts';

/** Paths of the retired voice-cloning feature, kept so their clients get a clear 410. */
export const RETIRED_CLONING_PATHS = ['/api/v1/clone.php', '/api/v1/voice-clone.php'] as const;

const retired = async (): Promise<never> => {
  throw new ApiError(
    'voice_cloning_retired',
    'voice cloning is retired; use /api/v1/tts.php or /api/v1/tts-stream.php with a language and speaker_id',
  );
};

/**
 * Any method on a cloning path: 410, so a client still relying on cloning finds out why. Refused
 * in `onRequest`, before the body is read: cloning clients upload audio (multipart, or bodies over
 * the limit), which would otherwise be answered 415 or 413 and hide the reason.
 */
export const retiredRoutes: FastifyPluginAsync = async (app) => {
  for (const url of RETIRED_CLONING_PATHS) {
    // Hidden from the OpenAPI document, which lists what clients can use: code generators would
    // emit a method for each dead endpoint and method. The document's description says cloning
    // is retired, and the TTS endpoints document their 410 for cloning fields.
    app.all(url, { onRequest: retired, schema: { hide: true } }, retired);
  }
};
