import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ResponseRecord } from '@petstore/http-koa';

/** Prometheus metrics of the server, on a registry of its own. */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'petstore_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly duration = new Histogram({
    name: 'petstore_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  private readonly rejections = new Counter({
    name: 'petstore_rate_limit_rejections_total',
    help: 'Requests refused by the rate limiter, by code (rate_limited or key_banned).',
    labelNames: ['code'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  record(response: ResponseRecord): void {
    // Unmatched paths share one label so that scanners cannot blow up the series count.
    const labels = { method: response.method, route: response.route ?? 'unmatched', status: String(response.status) };
    this.requests.inc(labels);
    this.duration.observe(labels, response.durationMs / 1000);
    if (response.errorCode === 'rate_limited' || response.errorCode === 'key_banned') this.rejections.inc({ code: response.errorCode });
  }
}
