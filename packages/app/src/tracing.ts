// OpenTelemetry traces, exported over OTLP/HTTP. main.ts imports this module only when OTEL_EXPORTER_OTLP_ENDPOINT
// (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set, before it imports the server: nothing here is loaded otherwise
// (docs/decisions/0022-tracing.md).
import type { IncomingMessage, RequestOptions } from 'node:http';
import { register } from 'node:module';
import { SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { DeliveryObserver } from '@petstore/core';
import type { ResponseRecord } from '@petstore/http-koa';
import type { StatementObserver } from '@petstore/persistence-typeorm';
import { createAddHookMessageChannel } from 'import-in-the-middle';
import { credentialRedactor, type CredentialRedactor } from './credentialRedactor.js';
import type { TracingHooks } from './tokens.js';

export interface Tracing {
  hooks: TracingHooks;
  /** Ends the SDK: the spans still batched are exported (call it after the server has drained). */
  shutdown(): Promise<void>;
}

const HEALTH_CHECKS = new Set(['/livez', '/readyz']);

type RateLimitOutcome = 'admitted' | 'rate_limited' | 'banned' | 'unauthenticated' | 'none';

/**
 * What admission decided, from the response: a limit or a ban refused it; otherwise a key id means the key was
 * admitted and the request counted (a 403 for a missing scope included).
 */
function rateLimitOutcome(record: ResponseRecord): RateLimitOutcome {
  if (record.errorCode === 'rate_limited') return 'rate_limited';
  if (record.errorCode === 'key_banned') return 'banned';
  if (record.keyId !== null) return 'admitted';
  return record.status === 401 ? 'unauthenticated' : 'none';
}

/** The request's server span (the http instrumentation's) gets the route template as its name; no raw URL. */
function requestEnded(record: ResponseRecord): { traceId: string; spanId: string } | undefined {
  const span = trace.getActiveSpan();
  if (!span) return undefined;
  if (record.route === null) {
    span.updateName(record.method);
  } else {
    span.updateName(`${record.method} ${record.route}`);
    span.setAttribute('http.route', record.route);
  }
  if (record.keyId !== null) span.setAttribute('petstore.key_id', record.keyId);
  span.setAttribute('petstore.rate_limit.outcome', rateLimitOutcome(record));
  const { traceId, spanId } = span.spanContext();
  return { traceId, spanId };
}

function endWith(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/** A client span per SQLite statement (better-sqlite3 has no maintained instrumentation): `SELECT pets`. */
function sqliteStatements(): StatementObserver {
  const tracer = trace.getTracer('@petstore/app');
  return {
    statement<T>(sql: string, run: () => T): T {
      const operation = sql.slice(0, sql.indexOf(' '));
      // The stable database conventions, as the pg instrumentation writes them on PostgreSQL's spans.
      const attributes = { 'db.system.name': 'sqlite', 'db.operation.name': operation, 'db.query.text': sql };
      return tracer.startActiveSpan(`${operation} pets`, { kind: SpanKind.CLIENT, attributes }, (span) => {
        let result: T;
        try {
          result = run();
        } catch (error) {
          endWith(span, error);
          throw error;
        }
        if (result instanceof Promise) {
          result.then(
            () => span.end(),
            (error: unknown) => endWith(span, error),
          );
        } else {
          span.end();
        }
        return result;
      });
    },
  };
}

/** A span per webhook delivery attempt (`webhook deliver`), parent of the http instrumentation's POST. */
function webhookDeliveries(): DeliveryObserver {
  const tracer = trace.getTracer('@petstore/app');
  return {
    attempt(delivery, run) {
      const attributes = {
        'petstore.webhook.event_id': delivery.eventId,
        'petstore.webhook.endpoint_id': delivery.endpointId,
        'petstore.webhook.delivery_id': delivery.id,
      };
      // A trace of its own: the round may have been woken inside the request that made the change.
      return tracer.startActiveSpan('webhook deliver', { kind: SpanKind.PRODUCER, attributes, root: true }, async (span) => {
        try {
          const attempt = await run();
          span.setAttribute('petstore.webhook.attempt', attempt.attempt);
          if (attempt.statusCode !== null) span.setAttribute('http.response.status_code', attempt.statusCode);
          if (!attempt.succeeded) span.setStatus({ code: SpanStatusCode.ERROR, message: attempt.error ?? undefined });
          span.end();
          return attempt;
        } catch (error) {
          endWith(span, error);
          throw error;
        }
      });
    },
  };
}

/**
 * The request's path and query as its span records them (`url.path`, `url.query`), without credentials: a key sent
 * as `?access_token=pst_...` is refused, but the instrumentation would otherwise export it. They replace the
 * instrumentation's own values (it redacts a fixed list of signed-URL parameters only), before any processor sees them.
 */
function redactedUrlAttributes(redactor: CredentialRedactor, request: IncomingMessage): Record<string, string> {
  const url = URL.parse(request.url ?? '/', 'http://localhost');
  if (url === null) return {};
  const query = url.search.slice(1);
  return query === '' ? { 'url.path': redactor.path(url.pathname) } : { 'url.path': redactor.path(url.pathname), 'url.query': redactor.query(query) };
}

/**
 * An outgoing request's URL (a webhook's POST) without its query, which often carries the receiver's token: it
 * replaces the instrumentation's own `url.full` before any processor sees it.
 */
function urlWithoutQuery(options: RequestOptions): Record<string, string> {
  const host = options.hostname ?? options.host ?? 'localhost';
  const port = options.port === undefined || options.port === null || options.port === '' ? '' : `:${String(options.port)}`;
  const path = (options.path ?? '/').split('?')[0]!;
  return { 'url.full': `${options.protocol ?? 'http:'}//${host.includes(':') ? `[${host}]` : host}${port}${path}` };
}

/**
 * Starts the OpenTelemetry SDK: OTLP/HTTP (JSON) exporter, W3C trace context, and the http, pg and ioredis
 * instrumentations only. The SDK reads the standard variables itself (OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER,
 * OTEL_TRACES_SAMPLER_ARG, OTEL_BSP_*, OTEL_SDK_DISABLED...). The packages are ESM, so the modules to patch are
 * hooked by import-in-the-middle's loader, registered here for those modules alone: import the server after this.
 */
export async function startTracing(secrets: { adminToken: string | undefined }): Promise<Tracing> {
  const redactor = credentialRedactor([secrets.adminToken ?? '']);
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);
  const env = process.env;
  const named = Boolean(env['OTEL_SERVICE_NAME']) || /(^|,)\s*service\.name\s*=/.test(env['OTEL_RESOURCE_ATTRIBUTES'] ?? '');
  const sdk = new NodeSDK({
    ...(named ? {} : { serviceName: 'petstore' }),
    traceExporter: new OTLPTraceExporter(),
    // Traces only: no metrics or logs exported (the server has its Prometheus endpoint and its JSON log).
    metricReaders: [],
    logRecordProcessors: [],
    // Database and Redis calls are traced inside requests only, not the background ones (migrations, the usage flush).
    instrumentations: [
      // Load balancers' health checks would outnumber the requests: no trace for them.
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => HEALTH_CHECKS.has(request.url?.split('?')[0] ?? ''),
        startIncomingSpanHook: (request) => redactedUrlAttributes(redactor, request),
        startOutgoingSpanHook: urlWithoutQuery,
      }),
      new PgInstrumentation({ requireParentSpan: true }),
      new IORedisInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  await waitForAllMessagesAcknowledged();
  return {
    hooks: { requestEnded, statements: sqliteStatements(), webhookDeliveries: webhookDeliveries() },
    // A collector that is down loses the last spans; the server has stopped cleanly all the same.
    shutdown: () =>
      sdk
        .shutdown()
        .catch(
          (error: unknown) =>
            void process.stderr.write(`could not export the last spans: ${error instanceof Error ? error.message : String(error)}\n`),
        ),
  };
}
