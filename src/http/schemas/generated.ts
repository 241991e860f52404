import type { FastifySchema } from 'fastify';
import { type ZodType, z } from 'zod';
import { compressedFormats } from '../../speech/audio/compressed-formats.ts';
import { fileExtensions } from '../../store/files/file-store.ts';
import { tags } from '../openapi.ts';
import { errorResponse } from './errors.ts';
import { binaryResponse, type DocumentedResponse, emptyResponse, header } from './responses.ts';

/** The public address of a generated file; the router sees `/generated/:file`. */
export const GENERATED_FILE_PATH = '/generated/audio_{id}.{extension}';

const params = z.object({
  id: z.string().meta({ description: 'The id in `output_url`: opaque, with at least 128 random bits.' }),
  extension: z.enum(fileExtensions).meta({
    description: 'The file’s format, as in `output_url`: the same id with another extension is not found.',
  }),
});

const contentTypes = ['audio/wav', ...Object.values(compressedFormats).map((format) => format.contentType)];

function fileHeaders(): Record<string, ZodType> {
  return {
    'Content-Length': header('Bytes in this response’s body.', z.int().nonnegative()),
    'Accept-Ranges': header('Always `bytes`: single byte ranges are served.', z.literal('bytes')),
    'Cache-Control': header('`private, max-age=<seconds>`: never cached past the file’s expiry.'),
    'Last-Modified': header('When the file was made; a valid `If-Range` value.'),
    'X-Content-Type-Options': header('Always `nosniff`.', z.literal('nosniff')),
  };
}

const notFound = 'The id is malformed, unknown or expired: all three get the same answer.';

/** `GET /generated/audio_{id}.{extension}`. */
export const generatedGetSchema: FastifySchema = {
  operationId: 'getGeneratedAudio',
  summary: 'Download a generated audio file',
  description:
    'The file behind `output_url`, kept for a limited time (24 hours by default). No API key: the ' +
    'id is unguessable. Single byte ranges are supported, so players can stream and seek.',
  tags: [tags.files],
  params,
  headers: z.object({
    Range: z
      .string()
      .optional()
      .meta({ description: 'One byte range, e.g. `bytes=0-1023`; several ranges get the whole file.' }),
    'If-Range': z
      .string()
      .optional()
      .meta({ description: 'The file’s Last-Modified date; any other value gets the whole file.' }),
  }),
  response: {
    200: binaryResponse('The whole file.', contentTypes, fileHeaders()),
    206: binaryResponse('The requested range.', contentTypes, {
      ...fileHeaders(),
      'Content-Range': header('`bytes <first>-<last>/<size>`.'),
    }),
    404: errorResponse(404, notFound),
    416: errorResponse(416, 'The range starts beyond the end of the file.', {
      'Content-Range': header('`bytes */<size>`: the file’s size.'),
    }),
  },
};

/** `HEAD /generated/audio_{id}.{extension}`: the GET headers, no body, no ranges. */
export const generatedHeadSchema: FastifySchema = {
  operationId: 'headGeneratedAudio',
  summary: 'Check a generated audio file',
  description: 'The headers of the whole file, without the body.',
  tags: [tags.files],
  params,
  response: {
    200: emptyResponse('The file exists.', fileHeaders()),
    404: emptyResponse(notFound),
  } satisfies Record<number, DocumentedResponse>,
};
