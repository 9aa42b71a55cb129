import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { DrillWindow } from './checks.js';
import type { DrillKind } from './schedule.js';

const DRILL_NAMES: Record<DrillKind, string> = {
  redis: 'Redis',
  postgres: 'PostgreSQL',
  'redis-failover': 'a Redis Cluster master failed over',
  pgbouncer: 'PgBouncer restarted',
  instance: 'one instance killed',
};

/** One point of the plot: `panel` is the chart it goes in, `series` its line there; null leaves a gap. */
export interface PlotPoint {
  panel: string;
  series: string;
  minute: number;
  value: number | null;
}

/**
 * The run as an SVG: one chart per measure, one above the other on a shared time axis (minutes), the drills'
 * windows shaded. Vega-Lite renders it without a browser (vega's headless View).
 */
export async function plotSvg(
  title: string,
  panels: readonly string[],
  points: readonly PlotPoint[],
  drills: readonly DrillWindow[],
): Promise<string> {
  const shaded = drills.map((d) => ({ from: d.startMs / 60_000, to: d.windowEndMs / 60_000, drill: d.kind }));
  const spec: TopLevelSpec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text: title,
      subtitle: `shaded: the drills (${drills.map((d) => DRILL_NAMES[d.kind]).join(', ')}), from the outage to the end of its grace`,
    },
    data: { values: points as PlotPoint[] },
    vconcat: panels.map((panel) => ({
      width: 720,
      height: 110,
      title: { text: panel, anchor: 'start', fontSize: 12 },
      layer: [
        {
          data: { values: shaded },
          mark: { type: 'rect', color: '#d62728', opacity: 0.12 },
          encoding: { x: { field: 'from', type: 'quantitative' }, x2: { field: 'to' } },
        },
        {
          transform: [{ filter: { field: 'panel', equal: panel } }],
          mark: { type: 'line', strokeWidth: 1.5, invalid: 'break-paths-show-domains' },
          encoding: {
            x: { field: 'minute', type: 'quantitative', title: 'minutes', scale: { nice: false } },
            y: { field: 'value', type: 'quantitative', title: null, scale: { zero: true } },
            color: { field: 'series', type: 'nominal', title: null, legend: { orient: 'right' } },
          },
        },
      ],
      resolve: { scale: { color: 'independent' } },
    })),
    resolve: { scale: { color: 'independent' } },
    config: { font: 'sans-serif', view: { stroke: '#ddd' } },
  };
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  return view.toSVG();
}
