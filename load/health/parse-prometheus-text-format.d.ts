// The parts of parse-prometheus-text-format (1.1.1, no types of its own) that load/health/metricsSource.ts reads.
declare module 'parse-prometheus-text-format' {
  interface Sample {
    value?: string;
    labels?: Record<string, string>;
    /** Histograms and summaries: the observations counted, and their sum. */
    count?: string;
    sum?: string;
  }
  interface Family {
    name: string;
    help: string;
    type: string;
    metrics: Sample[];
  }
  export default function parsePrometheusTextFormat(text: string): Family[];
}
