import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { engines } from '../../../src/speech/engines/registry.ts';
import {
  type AdmittedEngine,
  CallCount,
  callLimitOf,
  heavyWorkersOf,
  mayTakeWorker,
} from '../../../src/speech/pool/admission.ts';

// Admission for heavy engines, read from each engine's descriptor: no worker thread starts here.

const heavy: AdmittedEngine = { id: 'neural', heavy: { callsPerWorker: 3 } };
const light: AdmittedEngine = { id: 'espeak-ng' };

describe('heavy-engine admission', () => {
  it('reads which engines are heavy from the registry’s descriptors', () => {
    assert.ok(engines.neural.heavy, 'neural voices cost tens of times what espeak-ng does');
    assert.equal(engines['espeak-ng'].heavy, undefined);
    assert.equal(engines.flite.heavy, undefined);
  });

  it('leaves one worker of two or more to the other engines', () => {
    assert.equal(heavyWorkersOf(1), 1);
    assert.equal(heavyWorkersOf(2), 1);
    assert.equal(heavyWorkersOf(8), 7);
    assert.equal(mayTakeWorker(heavy, 0, 2), true);
    assert.equal(mayTakeWorker(heavy, 1, 2), false, 'the second worker stays free for first audio');
    assert.equal(mayTakeWorker(heavy, 2, 4), true);
    assert.equal(mayTakeWorker(heavy, 3, 4), false);
    assert.equal(mayTakeWorker(light, 4, 4), true, 'a light engine may take every worker');
  });

  it('admits the descriptor’s calls per worker it may use, unless the service sets a limit', () => {
    assert.equal(callLimitOf(heavy, 1), 3);
    assert.equal(callLimitOf(heavy, 4), 9);
    assert.equal(callLimitOf(heavy, 4, { neural: 2 }), 2);
    assert.equal(callLimitOf(light, 4), undefined, 'a light engine takes every call');
    assert.equal(
      callLimitOf(light, 4, { 'espeak-ng': 2 }),
      undefined,
      'and a limit set for it changes nothing',
    );
  });

  it('counts calls on each engine up to its limit, and takes another once one closes', () => {
    const calls = new CallCount();
    const first = calls.open('neural', 2);
    const second = calls.open('neural', 2);
    assert.ok(first && second);
    assert.equal(calls.open('neural', 2), undefined, 'past its limit a caller is told to come back');
    assert.equal(calls.on('neural'), 2);
    assert.equal(calls.on('flite'), 0, 'each engine has its own count');
    first.close();
    first.close();
    assert.equal(calls.on('neural'), 1, 'closing twice counts once');
    assert.ok(calls.open('neural', 2));
    assert.equal(calls.on('neural'), 2);
  });
});
