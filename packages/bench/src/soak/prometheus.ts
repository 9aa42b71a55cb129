/**
 * The value of a metric in Prometheus' text format, summed over its label sets (a gauge without labels is its one
 * sample) or over those that contain `label` (such as `route="/v1/pets"`), or null when absent.
 */
export function metricValue(exposition: string, name: string, label?: string): number | null {
  let total: number | null = null;
  for (const line of exposition.split('\n')) {
    if (!line.startsWith(name)) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)/.exec(line);
    if (match?.[1] !== name || (label !== undefined && !match[2]?.includes(label))) continue;
    total = (total ?? 0) + Number(match[3]);
  }
  return total;
}
