import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

// An address in Kinyarwanda text is one phrase: `npm run say -- --language rw --show phonemes`
// prints one line per clause the voice speaks, and no line may end inside an address.

const script = fileURLToPath(new URL('../../src/cli/say.ts', import.meta.url));

function phonemes(text: string, ...options: string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', script, '--language', 'rw', '--show', 'phonemes', ...options, text],
      (error, stdout, stderr) =>
        error ? reject(new Error(stderr)) : resolve(stdout.split('\n').slice(0, -1)),
    );
  });
}

// "Mwandikire kuri info@ijwi.rw." then "Murakoze.": two sentences, the address whole in the first.
const EXPECTED = ['mŋwaːndiciɾe kuɾi info kuɾi iʒɡwi akadomo aɾi daβuɾiju.', 'muɾakoze.'];

describe('npm run say -- --language rw --show phonemes: addresses', () => {
  it('reads an e-mail address as one phrase, its last dot the full stop', async () => {
    assert.deepEqual(await phonemes('Mwandikire kuri info@ijwi.rw. Murakoze.'), EXPECTED);
  });

  it('reads it alike in Markdown and in SSML', async () => {
    assert.deepEqual(await phonemes('Mwandikire kuri **info@ijwi.rw**. Murakoze.'), EXPECTED);
    assert.deepEqual(
      await phonemes('<speak>Mwandikire kuri info@ijwi.rw. Murakoze.</speak>', '--ssml'),
      EXPECTED,
    );
  });

  it('keeps a web address with www, a scheme or neither in one sentence', async () => {
    // After a first short sentence: the first clause is cut at 60 characters for a fast start,
    // whatever it holds (clauses.ts), and "www" alone is 30 characters in Kinyarwanda.
    assert.deepEqual(await phonemes('Muraho. Sura www.reb.rw. Reba https://ijwi.rw/konti. Soma igihe.com.'), [
      'muɾaho.',
      'suɾa daβuɾiju daβuɾiju daβuɾiju akadomo aɾi i βi akadomo aɾi daβuɾiju.',
      'ɾeβa iʒɡwi akadomo aɾi daβuɾiju akaɾoːŋɡo kaβeɾamɲe koːnhi.',
      'soma iɟihe akadomo kom.',
    ]);
  });
});
