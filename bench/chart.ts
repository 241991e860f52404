// A line chart on log-log axes as plain SVG text: the bench needs one chart, not a library.

export interface Series {
  readonly name: string;
  readonly color: string;
  readonly dashed?: boolean;
  /** [x, y] points; those that are not positive numbers are left out. */
  readonly points: readonly (readonly [number, number])[];
}

export interface Marker {
  readonly x: number;
  readonly y: number;
  readonly label: string;
}

export interface Chart {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly series: readonly Series[];
  /** Targets, drawn as crosses. */
  readonly markers: readonly Marker[];
}

const WIDTH = 760;
const HEIGHT = 460;
const PAD = { left: 70, right: 190, top: 40, bottom: 56 };
const STEPS = [1, 2, 5];

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** 1, 2, 5, 10, 20, 50... covering [min, max]. */
function ticks(min: number, max: number): number[] {
  const out: number[] = [];
  for (let decade = 10 ** Math.floor(Math.log10(min)); decade <= max; decade *= 10) {
    for (const step of STEPS) {
      const value = decade * step;
      if (value >= min && value <= max) out.push(value);
    }
  }
  return out;
}

/** The 1-2-5 values just below the smallest and just above the largest of `values`. */
function bounds(values: readonly number[]): [number, number] {
  const min = Math.min(...values);
  const max = Math.max(...values);
  const all = ticks(10 ** Math.floor(Math.log10(min)), 10 ** Math.ceil(Math.log10(max)));
  const low = all.filter((t) => t <= min).pop() ?? min;
  const high = all.find((t) => t >= max) ?? max;
  return [low, high > low ? high : low * 10];
}

const valid = (p: readonly [number, number]) => p[0] > 0 && p[1] > 0 && Number.isFinite(p[0] + p[1]);

/** The chart as an SVG document. */
export function renderChart(chart: Chart): string {
  const points = [...chart.series.flatMap((s) => s.points), ...chart.markers.map((m) => [m.x, m.y] as const)];
  const shown = points.filter(valid);
  const [x0, x1] = bounds(shown.map((p) => p[0]));
  const [y0, y1] = bounds(shown.map((p) => p[1]));
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const round = (v: number) => Math.round(v * 10) / 10;
  const sx = (x: number) => round(PAD.left + (Math.log10(x / x0) / Math.log10(x1 / x0)) * plotW);
  const sy = (y: number) => round(PAD.top + plotH - (Math.log10(y / y0) / Math.log10(y1 / y0)) * plotH);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="white"/>`,
    `<text x="${PAD.left}" y="22" font-size="15" font-weight="bold">${escapeXml(chart.title)}</text>`,
  ];
  for (const x of ticks(x0, x1)) {
    out.push(
      `<line x1="${sx(x)}" y1="${PAD.top}" x2="${sx(x)}" y2="${PAD.top + plotH}" stroke="#e4e4e4"/>`,
      `<text x="${sx(x)}" y="${PAD.top + plotH + 16}" text-anchor="middle">${x}</text>`,
    );
  }
  for (const y of ticks(y0, y1)) {
    out.push(
      `<line x1="${PAD.left}" y1="${sy(y)}" x2="${PAD.left + plotW}" y2="${sy(y)}" stroke="#e4e4e4"/>`,
      `<text x="${PAD.left - 6}" y="${sy(y) + 4}" text-anchor="end">${y}</text>`,
    );
  }
  out.push(
    `<rect x="${PAD.left}" y="${PAD.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#888"/>`,
    `<text x="${PAD.left + plotW / 2}" y="${HEIGHT - 14}" text-anchor="middle">${escapeXml(chart.xLabel)}</text>`,
    `<text transform="translate(18 ${PAD.top + plotH / 2}) rotate(-90)" text-anchor="middle">${escapeXml(chart.yLabel)}</text>`,
  );
  chart.series.forEach((series, i) => {
    const line = series.points.filter(valid);
    const dash = series.dashed ? ' stroke-dasharray="6 4"' : '';
    if (line.length > 0) {
      const path = line.map((p) => `${sx(p[0])},${sy(p[1])}`).join(' ');
      out.push(`<polyline points="${path}" fill="none" stroke="${series.color}" stroke-width="2"${dash}/>`);
      for (const p of line) {
        out.push(`<circle cx="${sx(p[0])}" cy="${sy(p[1])}" r="3" fill="${series.color}"/>`);
      }
    }
    const ly = PAD.top + 10 + i * 20;
    const lx = PAD.left + plotW + 14;
    out.push(
      `<line x1="${lx}" y1="${ly}" x2="${lx + 24}" y2="${ly}" stroke="${series.color}" stroke-width="2"${dash}/>`,
      `<text x="${lx + 30}" y="${ly + 4}">${escapeXml(series.name)}</text>`,
    );
  });
  for (const marker of chart.markers) {
    if (!valid([marker.x, marker.y])) continue;
    const x = sx(marker.x);
    const y = sy(marker.y);
    out.push(
      `<path d="M${x - 6},${y - 6} L${x + 6},${y + 6} M${x - 6},${y + 6} L${x + 6},${y - 6}" stroke="#c00" stroke-width="2"/>`,
      `<text x="${x + 9}" y="${y - 6}" fill="#c00">${escapeXml(marker.label)}</text>`,
    );
  }
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
