import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { COST_SMOOTHING, CostEstimate, INITIAL_MS_PER_CHARACTER } from '../../../src/speech/pool/cost.ts';

// The cost estimate the yield rule reads: worker time per character, learnt from whole runs.

describe('the cost estimate', () => {
  it('starts from a fixed guess per character before any run is measured', () => {
    const cost = new CostEstimate();
    assert.equal(cost.of('espeak-ng', 40), 40 * INITIAL_MS_PER_CHARACTER);
  });

  it('moves a small step towards each whole run it is given, so one slow run does not swing it', () => {
    const cost = new CostEstimate();
    cost.record('flite', 100, 100 * 1.2);
    const once = INITIAL_MS_PER_CHARACTER + COST_SMOOTHING * (1.2 - INITIAL_MS_PER_CHARACTER);
    assert.ok(Math.abs(cost.msPerCharacter('flite') - once) < 1e-12);
    assert.ok(cost.msPerCharacter('flite') < 0.3, 'one slow run moves it a twentieth of the way');
    for (let run = 0; run < 200; run++) cost.record('flite', 50, 50 * 1.2);
    assert.ok(Math.abs(cost.msPerCharacter('flite') - 1.2) < 1e-3, 'runs that agree bring it to their cost');
  });

  it('keeps each engine’s cost apart', () => {
    const cost = new CostEstimate();
    for (let run = 0; run < 200; run++) cost.record('flite', 10, 10);
    assert.ok(cost.of('flite', 10) > 9);
    assert.equal(cost.of('espeak-ng', 10), 10 * INITIAL_MS_PER_CHARACTER);
  });

  it('learns nothing from a run without characters', () => {
    const cost = new CostEstimate();
    cost.record('espeak-ng', 0, 50);
    assert.equal(cost.msPerCharacter('espeak-ng'), INITIAL_MS_PER_CHARACTER);
  });
});
