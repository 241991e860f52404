import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { READINGS, type Reading, SAY_AS_READINGS, sayAsDocument } from '../speech/text/rw/readings-corpus.ts';

// The Kinyarwanda readings corpus through the public command line, as a user checks a reading:
// `npm run say -- --language rw --show normalized`, every case in one run with --each-line.

const script = fileURLToPath(new URL('../../src/cli/say.ts', import.meta.url));

function sayEachLine(lines: readonly string[], ...options: string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [
        '--import',
        'tsx',
        script,
        '--language',
        'rw',
        '--show',
        'normalized',
        '--each-line',
        ...options,
        lines.join('\n'),
      ],
      (error, stdout, stderr) =>
        error ? reject(new Error(stderr)) : resolve(stdout.split('\n').slice(0, -1)),
    );
  });
}

function expectReadings<T extends Reading>(
  cases: readonly T[],
  heard: () => readonly string[],
  label: (c: T) => string = (c) => c.text,
) {
  cases.forEach((c, index) => {
    const note = c.disagrees === undefined ? '' : ` (disagrees: ${c.disagrees})`;
    it(`${JSON.stringify(label(c))} -> ${c.reading}`, () => {
      assert.equal(heard()[index], c.reading, `source: ${c.source}${note}`);
    });
  });
}

describe('npm run say -- --language rw --show normalized: the readings corpus', () => {
  let text: string[] = [];
  let ssml: string[] = [];

  before(async () => {
    [text, ssml] = await Promise.all([
      sayEachLine(READINGS.map((c) => c.text)),
      sayEachLine(SAY_AS_READINGS.map(sayAsDocument), '--ssml'),
    ]);
  });

  it('holds at least 150 readings, each with its source', () => {
    assert.ok(READINGS.length + SAY_AS_READINGS.length >= 150);
    for (const c of [...READINGS, ...SAY_AS_READINGS]) assert.ok(c.source.length > 0, c.text);
  });

  it('prints one line for each line read', () => {
    assert.equal(text.length, READINGS.length);
    assert.equal(ssml.length, SAY_AS_READINGS.length);
  });

  it('names the line a refused text is on, and needs --show', async () => {
    await assert.rejects(sayEachLine(['Muraho', 'neza\u0007']), /line 2: .*U\+0007/);
    await assert.rejects(
      new Promise((resolve, reject) =>
        execFile(process.execPath, ['--import', 'tsx', script, '--each-line', 'Muraho'], (error) =>
          error ? reject(error) : resolve(undefined),
        ),
      ),
      /--each-line needs --show/,
    );
  });

  describe('plain text', () => expectReadings(READINGS, () => text));
  describe('SSML say-as', () =>
    expectReadings(
      SAY_AS_READINGS,
      () => ssml,
      (c) => `${c.interpretAs}: ${c.text}`,
    ));
});
