import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import type { KeyUsage } from './types.js';

/**
 * A key's requests per UTC day as bars side by side, admitted and refused by its rate limit (429), with its daily
 * limit drawn across (uPlot on a canvas).
 */
export function UsageChart({ usage, perDay }: { usage: KeyUsage; perDay: number }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const days = usage.days.map((d) => Date.parse(`${d.day}T00:00:00Z`) / 1000);
    const requests = usage.days.map((d) => d.requests);
    const limited = usage.days.map((d) => d.limited);
    const plot = new uPlot(
      {
        width: Math.min(box.current!.clientWidth || 720, 960),
        height: 260,
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(max, perDay) * 1.1] } },
        axes: [{}, { label: 'requests' }],
        series: [
          { label: 'Day', value: (_u, seconds) => (seconds == null ? '—' : new Date(seconds * 1000).toISOString().slice(0, 10)) },
          { label: 'Admitted', stroke: '#1d4ed8', fill: 'rgba(29, 78, 216, 0.25)', paths: uPlot.paths.bars!({ size: [0.4, 20], align: -1 }) },
          { label: 'Limited (429)', stroke: '#c2410c', fill: 'rgba(194, 65, 12, 0.3)', paths: uPlot.paths.bars!({ size: [0.4, 20], align: 1 }) },
          { label: 'Daily limit', stroke: '#b91c1c', dash: [6, 4], points: { show: false } },
        ],
      },
      [days, requests, limited, days.map(() => perDay)],
      box.current!,
    );
    return () => plot.destroy();
  }, [usage, perDay]);
  return (
    <figure>
      <div
        ref={box}
        role="img"
        aria-label={`Admitted and rate-limited requests per day from ${usage.from} to ${usage.to}, against a daily limit of ${perDay}`}
      />
      <figcaption>
        Requests per UTC day, {usage.from} to {usage.to}: admitted (blue) and refused by the rate limit (orange, 429); the dashed line is the daily
        limit ({perDay}).
      </figcaption>
    </figure>
  );
}
