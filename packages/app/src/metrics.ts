import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { DeliveryAttempt } from '@petstore/core';
import type { ResponseRecord, ServiceOverview } from '@petstore/http-koa';

type Label = 'method' | 'route' | 'status';
type WebhookBacklog = ServiceOverview['webhooks'];

/** The route templates of the admin listener (the admin API, the console): its answers are not the service's traffic. */
const ADMIN_ROUTES = ['/admin/', '/console'];

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

  private readonly webhookAttempts = new Counter({
    name: 'petstore_webhook_attempts_total',
    help: 'Webhook delivery attempts, by outcome (succeeded, failed: a non-2xx answer, error: no answer).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly webhookDuration = new Histogram({
    name: 'petstore_webhook_attempt_duration_seconds',
    help: 'Time from sending a webhook to its answer (or to giving up on it).',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  private readonly startedAt = new Date();
  private readonly readBacklog: () => Promise<WebhookBacklog>;

  constructor(webhookBacklog?: () => Promise<WebhookBacklog>) {
    collectDefaultMetrics({ register: this.registry });
    // Read from the database when scraped (every instance reports the same shared queue), once per scrape: the
    // registry collects the three gauges side by side, and they share the read under way.
    let reading: Promise<WebhookBacklog> | null = null;
    const read = (this.readBacklog = () =>
      (reading ??= (webhookBacklog?.() ?? Promise.resolve({ pending: 0, undispatched: 0, lagSeconds: 0 }))
        .catch(() => ({ pending: Number.NaN, undispatched: Number.NaN, lagSeconds: Number.NaN }))
        .finally(() => (reading = null))));
    if (!webhookBacklog) return;
    const gauges = [
      [
        'petstore_webhook_queue_depth',
        'Webhook deliveries waiting for an attempt (due now, or later on the retry schedule), across every instance.',
        'pending',
      ],
      [
        'petstore_webhook_undispatched_events',
        'Events recorded but not yet turned into deliveries (within 50 ms of their change when the workers keep up).',
        'undispatched',
      ],
      [
        'petstore_webhook_lag_seconds',
        'How long the oldest delivery or undispatched event has been due: near 0 when the workers keep up.',
        'lagSeconds',
      ],
    ] as const;
    for (const [name, help, field] of gauges)
      new Gauge({
        name,
        help,
        registers: [this.registry],
        async collect() {
          this.set((await read())[field]);
        },
      });
  }

  /** The admin API's `GET /overview`: this instance's `/v1` answers and `429`s since it started, and the backlog. */
  async overview(): Promise<ServiceOverview> {
    const [requests, webhooks] = await Promise.all([this.requests.get(), this.readBacklog()]);
    let answered = 0;
    let rateLimited = 0;
    for (const { labels, value } of requests.values) {
      if (ADMIN_ROUTES.some((prefix) => String(labels.route).startsWith(prefix))) continue;
      answered += value;
      if (labels.status === '429') rateLimited += value;
    }
    return { at: new Date(), since: this.startedAt, requests: { answered, rateLimited }, webhooks };
  }

  webhookAttempt(attempt: DeliveryAttempt): void {
    this.webhookAttempts.inc({ outcome: attempt.succeeded ? 'succeeded' : attempt.statusCode === null ? 'error' : 'failed' });
    this.webhookDuration.observe(attempt.durationMs / 1000);
  }

  // Label lookups hash their label object on every call; the children are looked up once per series instead.
  private readonly series = new Map<string, { requests: Counter.Internal; duration: Histogram.Internal<Label> }>();

  record(response: ResponseRecord): void {
    // Unmatched paths share one label so that scanners cannot blow up the series count.
    const route = response.route ?? 'unmatched';
    const id = `${response.method} ${route} ${response.status}`;
    let series = this.series.get(id);
    if (!series) {
      const labels = { method: response.method, route, status: String(response.status) };
      series = { requests: this.requests.labels(labels), duration: this.duration.labels(labels) };
      this.series.set(id, series);
    }
    series.requests.inc();
    series.duration.observe(response.durationMs / 1000);
    if (response.errorCode === 'rate_limited' || response.errorCode === 'key_banned') this.rejections.inc({ code: response.errorCode });
  }
}
