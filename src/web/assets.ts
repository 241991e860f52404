import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { extname } from 'node:path';

/** A static file of the web pages, held in memory: they are few and small. */
export interface Asset {
  readonly body: Buffer;
  readonly contentType: string;
  /** A short hash of the content: the cache-busting `?v=` of its URL, and its ETag. */
  readonly version: string;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
};

const folder = new URL('./assets/', import.meta.url);

// Read once at start: served from memory, and a missing file fails at boot rather than per request.
const assets: ReadonlyMap<string, Asset> = new Map(
  readdirSync(folder)
    .filter((name) => CONTENT_TYPES[extname(name)] !== undefined)
    .map((name) => {
      const body = readFileSync(new URL(name, folder));
      const version = createHash('sha256').update(body).digest('base64url').slice(0, 12);
      return [
        name,
        { body, contentType: CONTENT_TYPES[extname(name)] ?? 'application/octet-stream', version },
      ];
    }),
);

/** The asset with this file name, or undefined. */
export function findAsset(name: string): Asset | undefined {
  return assets.get(name);
}

/**
 * The URL of an asset, versioned by its content, so it can be cached for a year and a new
 * release is still fetched at once. Throws for an unknown name: a page linking to nothing is a bug.
 */
export function assetUrl(name: string): string {
  const asset = assets.get(name);
  if (!asset) throw new Error(`no web asset named ${name}`);
  return `/assets/${name}?v=${asset.version}`;
}
