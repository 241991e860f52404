import type { DailyUsage } from '../accounts/repositories.ts';
import type { LanguageCode } from '../speech/text/verbalizer.ts';
import { languages } from '../speech/voices/voices.ts';
import { html, type SafeHtml } from './html.ts';
import type { Translator } from './i18n/translator.ts';
import { languageName } from './words.ts';

/** How many days the dashboard's chart covers, today included. */
export const USAGE_DAYS = 30;

/** One day of the chart: tokens charged, and seconds of audio in each spoken language. */
export interface UsageDay {
  /** `YYYY-MM-DD`, UTC. */
  readonly day: string;
  readonly tokens: number;
  readonly seconds: Readonly<Record<LanguageCode, number>>;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The first day of the chart ending on `now`'s UTC day, as the ISO time the ledger is asked from. */
export function usageSince(now: Date, days = USAGE_DAYS): string {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - (days - 1) * DAY_MS).toISOString();
}

/**
 * Every day of the chart, oldest first, from the ledger's sums: a day without use is there with
 * zeros, so the chart's gaps are days, not missing points. Rows outside the days or in a language
 * the site does not speak are left out.
 */
export function usageSeries(rows: readonly DailyUsage[], now: Date, days = USAGE_DAYS): UsageDay[] {
  const first = Date.parse(usageSince(now, days));
  const series = Array.from({ length: days }, (_, i) => ({
    day: new Date(first + i * DAY_MS).toISOString().slice(0, 10),
    tokens: 0,
    seconds: { rw: 0, en: 0, fr: 0 } as Record<LanguageCode, number>,
  }));
  const byDay = new Map(series.map((entry) => [entry.day, entry]));
  for (const row of rows) {
    const entry = byDay.get(row.day);
    if (entry === undefined) continue;
    entry.tokens += row.tokens;
    const language = languages.find((l) => l.code === row.language)?.code;
    if (language !== undefined) entry.seconds[language] += row.seconds;
  }
  return series;
}

// The drawing, in the SVG's own units; the image scales to its box's width.
const WIDTH = 720;
const HEIGHT = 240;
const PLOT = { left: 64, right: 12, top: 14, bottom: 40 } as const;
const PLOT_WIDTH = WIDTH - PLOT.left - PLOT.right;
const PLOT_HEIGHT = HEIGHT - PLOT.top - PLOT.bottom;
/** Days that get a date under the axis: the first, each week after, and the last. */
const LABELLED_DAYS = [0, 7, 14, 21, USAGE_DAYS - 1];

/** The axis's top: the smallest 1, 2 or 5 times a power of ten at or above `value` (at least 1). */
export function axisMaximum(value: number): number {
  if (value <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 5, 10].find((m) => m * power >= value) ?? 10;
  return step * power;
}

/** The height in SVG units of a bar of `value` on an axis that tops out at `maximum`. */
export function barHeight(value: number, maximum: number): number {
  return Math.round((Math.max(0, value) / maximum) * PLOT_HEIGHT * 100) / 100;
}

interface Segment {
  readonly className: string;
  readonly value: number;
  readonly language?: LanguageCode;
}

/** One chart: a bar per day, each a stack of segments, with a labelled value axis and dates under it. */
function barChart(
  t: Translator,
  options: {
    readonly id: string;
    readonly series: readonly UsageDay[];
    readonly segments: (day: UsageDay) => readonly Segment[];
    readonly valueText: (value: number) => string;
    readonly summary: string;
  },
): SafeHtml {
  const totals = options.series.map((day) => options.segments(day).reduce((sum, s) => sum + s.value, 0));
  const maximum = axisMaximum(Math.max(0, ...totals));
  const slot = PLOT_WIDTH / options.series.length;
  const barWidth = Math.round(slot * 0.7 * 100) / 100;
  const bottom = PLOT.top + PLOT_HEIGHT;
  const ticks = [0, maximum / 2, maximum].map((value) => {
    const y = bottom - barHeight(value, maximum);
    return html`<line class="chart-grid" x1="${PLOT.left}" x2="${WIDTH - PLOT.right}" y1="${y}" y2="${y}"/><text class="chart-label" x="${PLOT.left - 8}" y="${y + 5}" text-anchor="end">${t.number(value)}</text>`;
  });
  const bars = options.series.map((day, i) => {
    const x = Math.round((PLOT.left + i * slot + (slot - barWidth) / 2) * 100) / 100;
    let top = bottom;
    const rects = options.segments(day).map((segment) => {
      const height = barHeight(segment.value, maximum);
      top -= height;
      return html`<rect class="${segment.className}" x="${x}" y="${Math.round(top * 100) / 100}" width="${barWidth}" height="${height}" data-value="${segment.value}"${segment.language ? html` data-language="${segment.language}"` : ''}/>`;
    });
    const total = totals[i] ?? 0;
    return html`<g class="chart-day" data-day="${day.day}" data-total="${total}"><title>${t.text('usage.chart.point', { day: t.day(day.day), value: options.valueText(total) })}</title>${rects}</g>`;
  });
  // Dates are already in the page's language (Intl); translation tools leave them alone.
  const dates = LABELLED_DAYS.filter((i) => i < options.series.length).map((i) => {
    const x = Math.round((PLOT.left + (i + 0.5) * slot) * 100) / 100;
    return html`<text class="chart-label" x="${x}" y="${HEIGHT - 14}" text-anchor="middle" translate="no">${t.day(options.series[i]?.day ?? '')}</text>`;
  });
  return html`<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${options.id}-title ${options.id}-desc" id="${options.id}">
<title id="${options.id}-title">${t.text(options.id === 'chart-tokens' ? 'usage.chart.tokens' : 'usage.chart.seconds')}</title>
<desc id="${options.id}-desc">${options.summary}</desc>
${ticks}<line class="chart-axis" x1="${PLOT.left}" x2="${WIDTH - PLOT.right}" y1="${bottom}" y2="${bottom}"/>
${bars}${dates}
</svg>`;
}

/**
 * The dashboard's picture of the last days: tokens charged per day, and seconds of audio per day
 * by language, as SVG drawn here (no script), each with a summary for screen readers, and the
 * same numbers as a table that screen readers read instead of the bars.
 */
export function usageCharts(t: Translator, series: readonly UsageDay[]): SafeHtml {
  const spoken = languages.map((l) => l.code);
  const totalTokens = series.reduce((sum, day) => sum + day.tokens, 0);
  const totalSeconds = series.reduce((sum, day) => sum + spoken.reduce((s, l) => s + day.seconds[l], 0), 0);
  const seconds = (value: number) => t.text('unit.seconds', { count: Math.round(value * 10) / 10 });
  const tokens = (value: number) => t.text('unit.tokens', { count: value });
  const legend = spoken.map(
    (code) =>
      html`<li><span class="legend-swatch chart-seconds-${code}" aria-hidden="true"></span>${languageName(t, code)}</li>`,
  );
  const rows = series.map(
    (day) =>
      html`<tr><th scope="row"><time datetime="${day.day}">${t.day(day.day)}</time></th><td class="num">${t.number(day.tokens)}</td>${spoken.map((code) => html`<td class="num">${t.number(Math.round(day.seconds[code] * 10) / 10)}</td>`)}</tr>`,
  );
  return html`<div class="charts">
  <figure class="chart-figure">
    <figcaption>${t.text('usage.chart.tokens')}</figcaption>
    ${barChart(t, {
      id: 'chart-tokens',
      series,
      segments: (day) => [{ className: 'chart-tokens', value: day.tokens }],
      valueText: tokens,
      summary: t.text('usage.chart.tokensSummary', { days: series.length, total: totalTokens }),
    })}
  </figure>
  <figure class="chart-figure">
    <figcaption>${t.text('usage.chart.seconds')}</figcaption>
    ${barChart(t, {
      id: 'chart-seconds',
      series,
      segments: (day) =>
        spoken.map((code) => ({
          className: `chart-seconds-${code}`,
          value: day.seconds[code],
          language: code,
        })),
      valueText: seconds,
      summary: t.text('usage.chart.secondsSummary', { days: series.length, total: Math.round(totalSeconds) }),
    })}
    <ul class="chart-legend" aria-label="${t.text('usage.chart.legend')}">${legend}</ul>
  </figure>
</div>
<div class="table-wrap visually-hidden"><table class="table" id="usage-days">
  <caption>${t.text('usage.table.caption', { days: series.length })}</caption>
  <thead><tr><th scope="col">${t.text('usage.table.day')}</th><th scope="col">${t.text('usage.table.tokens')}</th>${spoken.map((code) => html`<th scope="col">${t.text('usage.table.seconds', { language: languageName(t, code) })}</th>`)}</tr></thead>
  <tbody>${rows}</tbody>
</table></div>`;
}
