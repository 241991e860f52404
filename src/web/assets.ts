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

/**
 * Files of dependencies the pages load, by the name they are served under. The studio's scripts
 * format their messages with the same library the server does: `intl-messageformat`'s
 * self-contained browser build (an ES module despite its name), which its package does not
 * export, so it is found beside the package's entry point.
 */
const VENDORED: Readonly<Record<string, URL>> = {
  'intl-messageformat.js': new URL('./intl-messageformat.iife.js', import.meta.resolve('intl-messageformat')),
};

function asset(name: string, body: Buffer): readonly [string, Asset] {
  const version = createHash('sha256').update(body).digest('base64url').slice(0, 12);
  return [name, { body, contentType: CONTENT_TYPES[extname(name)] ?? 'application/octet-stream', version }];
}

// Read once at start: served from memory, and a missing file fails at boot rather than per request.
const assets: ReadonlyMap<string, Asset> = new Map([
  ...readdirSync(folder)
    .filter((name) => CONTENT_TYPES[extname(name)] !== undefined)
    .map((name) => asset(name, readFileSync(new URL(name, folder)))),
  ...Object.entries(VENDORED).map(([name, url]) => asset(name, readFileSync(url))),
]);

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
