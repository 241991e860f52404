import { fixed, printTable } from './stats.ts';

// The side-by-side table of `--against DIR`: each figure of this checkout ("new") beside the same
// figure of another ("before"), their ratio, and the target it is held to.

/** What a figure is held to: its ratio to before, its own value, or how much lower than before it is. */
export type Target =
  | { readonly kind: 'ratio-at-most'; readonly value: number }
  | { readonly kind: 'ratio-at-least'; readonly value: number }
  | { readonly kind: 'at-most'; readonly value: number }
  | { readonly kind: 'less-by-at-least'; readonly value: number };

export interface Figure {
  readonly name: string;
  readonly unit: string;
  /** Digits shown after the point. */
  readonly digits: number;
  readonly new: number | null;
  readonly before: number | null;
  /** Absent: reported only. */
  readonly target?: Target;
}

export interface CheckedFigure extends Figure {
  /** new / before; null when either is missing or before is not positive. */
  readonly ratio: number | null;
  readonly goal: string;
  readonly result: 'PASS' | 'FAIL' | 'report';
}

const known = (value: number | null): value is number => value !== null && Number.isFinite(value);

/** The target as the table writes it. */
export function goalOf(target: Target | undefined, unit: string): string {
  if (!target) return 'report only';
  switch (target.kind) {
    case 'ratio-at-most':
      return `<= ${target.value.toFixed(2)}x before`;
    case 'ratio-at-least':
      return `>= ${target.value.toFixed(2)}x before`;
    case 'at-most':
      return unit === 'x' ? `<= ${target.value.toFixed(2)}x` : `<= ${target.value} ${unit}`;
    case 'less-by-at-least':
      return `>= ${target.value} ${unit} less than before`;
  }
}

/** A figure with its ratio and whether it met its target; a target a missing figure decides fails. */
export function checkFigure(figure: Figure): CheckedFigure {
  const ratio =
    known(figure.new) && known(figure.before) && figure.before > 0 ? figure.new / figure.before : null;
  const met = (): boolean => {
    const { target } = figure;
    if (!target) return false;
    switch (target.kind) {
      case 'ratio-at-most':
        return ratio !== null && ratio <= target.value;
      case 'ratio-at-least':
        return ratio !== null && ratio >= target.value;
      case 'at-most':
        return known(figure.new) && figure.new <= target.value;
      case 'less-by-at-least':
        return known(figure.new) && known(figure.before) && figure.before - figure.new >= target.value;
    }
  };
  return {
    ...figure,
    ratio,
    goal: goalOf(figure.target, figure.unit),
    result: figure.target ? (met() ? 'PASS' : 'FAIL') : 'report',
  };
}

/** Prints the table; the caller decides what a FAIL does to the exit code. */
export function printAgainst(title: string, figures: readonly CheckedFigure[]): void {
  console.log(`\n${title}`);
  printTable(
    ['figure', 'unit', 'new', 'before', 'new/before', 'target', 'result'],
    figures.map((f) => [
      f.name,
      f.unit,
      fixed(f.new, f.digits),
      fixed(f.before, f.digits),
      f.ratio === null ? '-' : `${f.ratio.toFixed(2)}x`,
      f.goal,
      f.result,
    ]),
  );
}
