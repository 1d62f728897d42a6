/**
 * Every metric name docs/metrics.md spells in backticks: the generated tables' first column
 * and the prose naming the process and Node.js series.
 */
export function documentedMetricNames(markdown: string): Set<string> {
  const names = new Set<string>();
  for (const match of markdown.matchAll(/`([a-z_:][a-z0-9_:]*)`/g)) {
    const name = match[1] as string;
    // Label names are backticked too; metric names have a family prefix and an underscore.
    if (
      name.includes('_') &&
      /^(?:karpenter|operator|controller_runtime|workqueue|process|nodejs)_/.test(name)
    ) {
      names.add(name);
    }
  }
  return names;
}

// Histograms and summaries are documented once and scraped as these series.
const SeriesSuffixes = ['_bucket', '_sum', '_count'];

/** The documented metric a scraped series name belongs to, or undefined when there is none. */
export function documentedMetricOf(series: string, documented: ReadonlySet<string>): string | undefined {
  if (documented.has(series)) return series;
  for (const suffix of SeriesSuffixes) {
    if (series.endsWith(suffix)) {
      const base = series.slice(0, -suffix.length);
      if (documented.has(base)) return base;
    }
  }
  return undefined;
}
