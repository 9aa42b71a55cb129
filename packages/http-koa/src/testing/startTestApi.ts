import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  AdmitRequest,
  AuthenticateKey,
  CreatePet,
  CreatePetIdempotently,
  EnforceRateLimit,
  GetPet,
  IssueApiKey,
  ListPets,
  type BanRule,
  type Plan,
  type PetRepository,
} from '@petstore/core';
import { FakeClock, InMemoryIdempotencyStore, InMemoryKeyStore, InMemoryPetRepository, InMemoryRateLimitStore } from '@petstore/core/testing';
import { createHttpApp, type HttpAppOptions } from '../createHttpApp.js';
import { createOpenApiDocument } from '../openapi.js';
import { OpenApiResponseChecker } from './openApiResponses.js';

export interface TestResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
}

export interface RequestOptions {
  headers?: Record<string, string | string[]>;
  /** A string or Buffer is sent as is; anything else as JSON (with Content-Type: application/json unless given). */
  body?: unknown;
  /** Skip the OpenAPI check (for deliberately broken requests the document cannot describe, such as 500s). */
  unchecked?: boolean;
}

export interface TestApi {
  baseUrl: string;
  publicBaseUrl: string;
  clock: FakeClock;
  pets: InMemoryPetRepository;
  keys: InMemoryKeyStore;
  internalErrors: unknown[];
  issueKey(plan?: Plan, limits?: { perMinute: number; perDay: number }): Promise<string>;
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  /** GET/POST with `Authorization: Bearer <key>`. */
  authed(key: string, method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface TestApiOptions extends Pick<HttpAppOptions, 'corsOrigins' | 'trustProxy' | 'trustedProxyHops' | 'readiness'> {
  ban?: BanRule;
  failedAuthPerMinute?: number;
  /** Replaces the in-memory repository (to inject failures). */
  petRepository?: PetRepository;
  now?: string;
}

/** The HTTP transport over a real socket on loopback, built from core with in-memory adapters and a fake clock. */
export async function startTestApi(options: TestApiOptions = {}): Promise<TestApi> {
  const clock = new FakeClock(options.now ?? '2026-06-01T12:00:00Z');
  const pets = new InMemoryPetRepository();
  const repository = options.petRepository ?? pets;
  const keys = new InMemoryKeyStore();
  const enforce = new EnforceRateLimit(new InMemoryRateLimitStore(), clock, options.ban);
  const internalErrors: unknown[] = [];

  const server = await new Promise<import('node:http').Server>((resolve) => {
    const placeholder = 'http://127.0.0.1:0/v1';
    const deps = {
      listPets: new ListPets(repository),
      createPet: new CreatePet(repository),
      createPetIdempotently: new CreatePetIdempotently(repository, new InMemoryIdempotencyStore(), clock),
      getPet: new GetPet(repository, clock),
      admitRequest: new AdmitRequest(new AuthenticateKey(keys), enforce, options.failedAuthPerMinute),
      clock,
      publicBaseUrl: placeholder,
    };
    const app = createHttpApp(deps, { ...options, onInternalError: (error) => internalErrors.push(error) });
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  const publicBaseUrl = 'http://127.0.0.1:0/v1';
  const checker = new OpenApiResponseChecker(createOpenApiDocument(publicBaseUrl) as never);

  const request = (method: string, path: string, { headers = {}, body, unchecked }: RequestOptions = {}) =>
    new Promise<TestResponse>((resolve, reject) => {
      const payload = body === undefined || typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
      const allHeaders: Record<string, string | string[]> = { ...headers };
      if (body !== undefined && typeof body !== 'string' && !Buffer.isBuffer(body) && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
        allHeaders['Content-Type'] = 'application/json';
      }
      const req = httpRequest(`${baseUrl}${path}`, { method, headers: allHeaders, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = text === '' ? undefined : JSON.parse(text);
          } catch {
            json = undefined;
          }
          const response = { status: res.statusCode!, headers: res.headers, text, json };
          try {
            if (!unchecked) checker.check(method, path, response.status, res.headers, json);
            resolve(response);
          } catch (error) {
            reject(error as Error);
          }
        });
      });
      req.on('error', reject);
      req.end(payload);
    });

  return {
    baseUrl,
    publicBaseUrl,
    clock,
    pets,
    keys,
    internalErrors,
    async issueKey(plan = 'free', limits) {
      const input = plan === 'enterprise' ? { plan, perMinute: limits?.perMinute ?? 1_000_000, perDay: limits?.perDay ?? 1_000_000_000 } : { plan };
      return (await new IssueApiKey(keys, clock).execute(input)).secret;
    },
    request,
    authed: (key, method, path, requestOptions = {}) =>
      request(method, path, { ...requestOptions, headers: { Authorization: `Bearer ${key}`, ...requestOptions.headers } }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
