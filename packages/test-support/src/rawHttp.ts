import { request, type Agent, type IncomingHttpHeaders } from 'node:http';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The parsed body, or undefined when it is empty or not JSON. */
  json: unknown;
}

export interface RawRequestOptions {
  method?: string;
  /** Sent as given: repeated headers as arrays, nothing added but what Node's client adds itself. */
  headers?: Record<string, string | string[]>;
  /** A string or Buffer is sent as is; anything else as JSON (with Content-Type: application/json unless given). */
  body?: unknown;
  /** The agent whose connections to use (say, one keep-alive connection of its own); default a fresh connection. */
  agent?: Agent;
  /** Called once the whole request is handed to the kernel (on loopback: in the server's receive queue). */
  onSent?: () => void;
}

/**
 * One HTTP request with Node's own client, on a fresh connection unless an agent is given: unlike `fetch`, it can
 * send what a browser would refuse to (repeated or malformed headers, any method, raw bytes), so tests can play a
 * hostile client.
 */
export function rawRequest(url: string, { method = 'GET', headers = {}, body, agent, onSent }: RawRequestOptions = {}): Promise<RawResponse> {
  const isRaw = body === undefined || typeof body === 'string' || Buffer.isBuffer(body);
  const payload = isRaw ? body : JSON.stringify(body);
  const allHeaders = { ...headers };
  if (!isRaw && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) allHeaders['Content-Type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: allHeaders, agent: agent ?? false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = text === '' ? undefined : JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode!, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    if (onSent) req.on('finish', onSent);
    req.end(payload);
  });
}
