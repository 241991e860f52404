// parse-prometheus-text-format ships no typings: the shapes it returns (prom2json's), as the tests read them.
declare module 'parse-prometheus-text-format' {
  export interface PrometheusSample {
    readonly labels?: Readonly<Record<string, string>>;
    /** Counters and gauges. */
    readonly value?: string;
    /** Histograms: cumulative counts by upper bound (`le`). */
    readonly buckets?: Readonly<Record<string, string>>;
    readonly count?: string;
    readonly sum?: string;
  }
  export interface PrometheusFamily {
    readonly name: string;
    readonly help: string;
    readonly type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    readonly metrics: readonly PrometheusSample[];
  }
  export default function parsePrometheusTextFormat(text: string): PrometheusFamily[];
}
