import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkFigure, type Figure } from '../../bench/against-table.ts';

// The side-by-side table of `npm run bench -- --against DIR`: each figure's ratio and whether it
// met its target, whatever the machine measured.

const figure = (values: Pick<Figure, 'new' | 'before' | 'target'>): Figure => ({
  name: 'a figure',
  unit: 'ms',
  digits: 1,
  ...values,
});

describe('the --against table', () => {
  it('holds a ratio target to new / before, at its bound included', () => {
    const checked = checkFigure(
      figure({ new: 35, before: 50, target: { kind: 'ratio-at-most', value: 0.7 } }),
    );
    assert.equal(checked.ratio, 0.7);
    assert.equal(checked.result, 'PASS');
    assert.equal(checked.goal, '<= 0.70x before');
    const over = checkFigure(figure({ new: 36, before: 50, target: { kind: 'ratio-at-most', value: 0.7 } }));
    assert.equal(over.result, 'FAIL');
  });

  it('holds an at-least ratio target from below', () => {
    const target = { kind: 'ratio-at-least', value: 1.5 } as const;
    assert.equal(checkFigure(figure({ new: 300, before: 200, target })).result, 'PASS');
    assert.equal(checkFigure(figure({ new: 290, before: 200, target })).result, 'FAIL');
  });

  it('holds an absolute bound to the new figure alone', () => {
    const target = { kind: 'at-most', value: 180 } as const;
    assert.equal(checkFigure(figure({ new: 170, before: 400, target })).result, 'PASS');
    assert.equal(checkFigure(figure({ new: 190, before: 100, target })).result, 'FAIL');
    assert.equal(checkFigure(figure({ new: 170, before: null, target })).result, 'PASS');
    assert.equal(checkFigure(figure({ new: 170, before: 200, target })).goal, '<= 180 ms');
    assert.equal(
      checkFigure({
        ...figure({ new: 0.1, before: 0.3, target: { kind: 'at-most', value: 0.2 } }),
        unit: 'x',
      }).goal,
      '<= 0.20x',
    );
  });

  it('holds a saving to how much lower than before the new figure is', () => {
    const target = { kind: 'less-by-at-least', value: 8 } as const;
    assert.equal(checkFigure(figure({ new: 30, before: 38, target })).result, 'PASS');
    assert.equal(checkFigure(figure({ new: 31, before: 38, target })).result, 'FAIL');
    assert.equal(checkFigure(figure({ new: 30, before: 38, target })).goal, '>= 8 ms less than before');
  });

  it('fails a target whose figure is missing, and gives no ratio for it', () => {
    const checked = checkFigure(
      figure({ new: Number.NaN, before: 50, target: { kind: 'ratio-at-most', value: 0.7 } }),
    );
    assert.equal(checked.ratio, null);
    assert.equal(checked.result, 'FAIL');
    assert.equal(checkFigure(figure({ new: 10, before: 0 })).ratio, null);
  });

  it('reports a figure without a target, whatever its values', () => {
    const checked = checkFigure(figure({ new: 10, before: 20 }));
    assert.equal(checked.result, 'report');
    assert.equal(checked.goal, 'report only');
    assert.equal(checked.ratio, 0.5);
  });
});
