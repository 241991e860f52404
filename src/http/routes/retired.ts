import type { FastifyPluginAsync } from 'fastify';
import { ApiError } from '../errors.ts';

/** Paths of the retired voice-cloning feature, kept so their clients get a clear 410. */
export const RETIRED_CLONING_PATHS = ['/api/v1/clone.php', '/api/v1/voice-clone.php'] as const;

/** Any method on a cloning path: 410, so a client still relying on cloning finds out why. */
export const retiredRoutes: FastifyPluginAsync = async (app) => {
  for (const url of RETIRED_CLONING_PATHS) {
    app.all(url, async () => {
      throw new ApiError(
        'voice_cloning_retired',
        'voice cloning is retired; use /api/v1/tts.php or /api/v1/tts-stream.php with a language and speaker_id',
      );
    });
  }
};
