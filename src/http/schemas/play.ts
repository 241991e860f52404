import type { FastifySchema } from 'fastify';
import { z } from 'zod';
import { compressedFormats } from '../../speech/audio/compressed-formats.ts';
import { tags } from '../openapi.ts';
import { errorResponse } from './errors.ts';
import { binaryResponse, emptyResponse, header } from './responses.ts';

/** The public address of a playable URL; the router sees `/play/:name`. */
export const PLAY_URL_PATH = '/play/{name}';

const params = z.object({
  name: z.string().meta({
    description: 'As `play_url` gives it: `<id>.<expiry>.<key>.<signature>.<wav|mp3>`, signed as a whole.',
  }),
});

const contentTypes = ['audio/wav', compressedFormats.mp3.contentType];

/** `GET /play/{name}`. */
export const playGetSchema: FastifySchema = {
  operationId: 'playUrl',
  summary: 'Fetch a playable URL’s audio',
  description:
    'No API key: the signature is the credential. The first GET speaks the text and streams the ' +
    'audio as it is produced (chunked; a WAV whose header gives an open length, or MP3 frames), ' +
    'charging the account that made the URL, once. A GET while that first one is speaking waits ' +
    'for its audio (up to 30 s, else 503 with Retry-After); later GETs get the stored file, with ' +
    'single byte ranges, never charged again.',
  tags: [tags.files],
  params,
  headers: z.object({
    Range: z.string().optional().meta({
      description: 'One byte range of the stored audio; ignored by the first GET, which streams it.',
    }),
  }),
  response: {
    200: binaryResponse(
      'The audio: streamed as it is spoken by the first GET, the stored file after.',
      contentTypes,
      {
        'Accept-Ranges': header('`bytes` once the audio is stored.'),
      },
    ),
    206: binaryResponse('The requested range of the stored audio.', contentTypes, {
      'Content-Range': header('`bytes <first>-<last>/<size>`.'),
    }),
    402: errorResponse(402, 'The account that made the URL has too few tokens now; nothing is charged.'),
    404: errorResponse(
      404,
      'The URL is malformed, altered, forged, unknown, or its audio could not be made.',
    ),
    410: errorResponse(410, 'The URL has expired (`play_url_expired`); nothing is charged.'),
    416: errorResponse(416, 'The range starts beyond the end of the stored audio.'),
    503: errorResponse(
      503,
      'The engines are starting, or the first GET is still speaking; retry after `Retry-After`.',
      {
        'Retry-After': header('Seconds to wait before retrying.', z.int().nonnegative()),
      },
    ),
  },
};

/** `HEAD /play/{name}`: never speaks. */
export const playHeadSchema: FastifySchema = {
  operationId: 'headPlayUrl',
  summary: 'Check a playable URL',
  description: 'The audio’s type (and size once stored) without the body; never speaks, never charges.',
  tags: [tags.files],
  params,
  response: {
    200: emptyResponse('The URL is valid.'),
    404: emptyResponse('The URL is malformed, altered, forged or unknown.'),
    410: emptyResponse('The URL has expired.'),
  },
};
