import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as an OTLP/JSON export carries it, attributes flattened to their values. */
export interface ReceivedSpan {
  scope: string;
  name: string;
  /** 1 internal, 2 server, 3 client. */
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
}

export interface OtlpReceiver {
  /** The base URL, for OTEL_EXPORTER_OTLP_ENDPOINT. */
  endpoint: string;
  /** Every span received so far. */
  spans(): ReceivedSpan[];
  /** Every request body received so far, as sent (to search for what must never be exported). */
  bodies(): string[];
  close(): Promise<void>;
}

interface OtlpAttribute {
  key: string;
  value: Record<string, unknown>;
}
interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: {
      scope?: { name?: string };
      spans?: { name: string; kind: number; traceId: string; spanId: string; parentSpanId?: string; attributes?: OtlpAttribute[] }[];
    }[];
  }[];
}

const valuesOf = (attributes: OtlpAttribute[] = []) => Object.fromEntries(attributes.map(({ key, value }) => [key, Object.values(value)[0]]));

/** An OTLP/HTTP receiver on loopback that accepts JSON trace exports at `/v1/traces` (OTEL_EXPORTER_OTLP_PROTOCOL=http/json). */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      bodies.push(body);
      if (req.url !== '/v1/traces' || !req.headers['content-type']?.startsWith('application/json')) {
        res.writeHead(415).end();
        return;
      }
      for (const resourceSpans of (JSON.parse(body) as OtlpExport).resourceSpans ?? []) {
        const resource = valuesOf(resourceSpans.resource?.attributes);
        for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
          for (const span of scopeSpans.spans ?? []) {
            spans.push({
              scope: scopeSpans.scope?.name ?? '',
              name: span.name,
              kind: span.kind,
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId || undefined,
              attributes: valuesOf(span.attributes),
              resource,
            });
          }
        }
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans: () => [...spans],
    bodies: () => [...bodies],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
