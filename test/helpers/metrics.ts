import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import parsePrometheusTextFormat, { type PrometheusFamily } from 'parse-prometheus-text-format';

/** A token of the length METRICS_TOKEN requires. */
export const METRICS_TOKEN = 'test-metrics-token-0123456789abcdef';

/** One series of a scrape: its sample name, labels and value. */
export interface Series {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** A scrape of /metrics as Prometheus would read it, parsed by an independent library. */
export class Scrape {
  readonly text: string;
  readonly families: readonly PrometheusFamily[];
  readonly series: readonly Series[];

  constructor(text: string) {
    this.text = text;
    // The whole exposition must parse (the library throws on a line it cannot read).
    this.families = parsePrometheusTextFormat(text);
    // The library folds the series of a labelled histogram into one (it reads histograms without
    // labels only); declared untyped, every _bucket, _sum and _count series keeps its labels.
    const flat = parsePrometheusTextFormat(text.replace(/^# TYPE (\S+) histogram$/gm, '# TYPE $1 untyped'));
    this.series = flat.flatMap((family) =>
      family.metrics.map((sample) => ({
        name: family.name,
        labels: sample.labels ?? {},
        value: Number(sample.value),
      })),
    );
  }

  /** The type a family is declared with. */
  typeOf(name: string): string | undefined {
    return this.families.find((f) => f.name === name)?.type;
  }

  /** The sum of the series named `name` whose labels include `labels`; 0 when there is none. */
  value(name: string, labels: Readonly<Record<string, string>> = {}): number {
    return this.series
      .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
      .reduce((sum, s) => sum + s.value, 0);
  }

  /** Every series as `name{label="value",...}`, labels sorted: what a scrape stores. */
  keys(): Set<string> {
    return new Set(
      this.series.map((s) => {
        const labels = Object.entries(s.labels)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([k, v]) => `${k}=${JSON.stringify(v)}`);
        return `${s.name}{${labels.join(',')}}`;
      }),
    );
  }
}

/** GET /metrics with the token; asserts a 200 in Prometheus's text format. */
export async function scrape(app: FastifyInstance, token = METRICS_TOKEN): Promise<Scrape> {
  const response = await app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${token}` },
  });
  assert.equal(response.statusCode, 200, response.body);
  assert.match(String(response.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  return new Scrape(response.body);
}
