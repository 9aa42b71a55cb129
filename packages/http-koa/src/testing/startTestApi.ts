import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPetStore, type PetStore, type BanRule, type Plan, type PetRepository, type RateLimitStore } from '@petstore/core';
import {
  inMemoryPorts,
  type FakeClock,
  type FakeWebhookTargets,
  type InMemoryKeyStore,
  type InMemoryPetRepository,
  type InMemoryWebhookStore,
  type RecordingWebhookSender,
} from '@petstore/core/testing';
import { rawRequest, type RawRequestOptions, type RawResponse } from '@petstore/test-support';
import { createAdminApp } from '../admin/createAdminApp.js';
import { createAdminApi } from '../admin/createAdminApi.js';
import { createHttpApp, type HttpAppOptions } from '../createHttpApp.js';
import { createPetsApi } from '../createPetsApi.js';
import { responseCheckerFor, type OpenApiResponseChecker } from './openApiResponses.js';

type TestResponse = RawResponse;

interface RequestOptions extends Omit<RawRequestOptions, 'method'> {
  /** Skip the OpenAPI check (for deliberately broken requests the document cannot describe, such as 500s). */
  unchecked?: boolean;
}

export interface TestApi {
  baseUrl: string;
  publicBaseUrl: string;
  clock: FakeClock;
  pets: InMemoryPetRepository;
  keys: InMemoryKeyStore;
  /** The webhook targets (refuse one with `refuse`) and the sender that records what the worker would POST. */
  webhookTargets: FakeWebhookTargets;
  webhookSender: RecordingWebhookSender;
  /** The webhook endpoints, deliveries and their history. */
  webhooks: InMemoryWebhookStore;
  /** Every use case, on the same in-memory adapters the API uses. */
  store: PetStore;
  internalErrors: unknown[];
  issueKey(plan?: Plan, limits?: { perMinute: number; perDay: number }): Promise<string>;
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  /** GET/POST with `Authorization: Bearer <key>`. */
  authed(key: string, method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  /** A request to the admin interface on its own port (`/admin/v1...`), with the admin token unless headers say otherwise. */
  admin(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface TestApiOptions extends Pick<HttpAppOptions, 'corsOrigins' | 'trustProxy' | 'trustedProxyHops' | 'readiness' | 'apiReference'> {
  ban?: BanRule;
  failedAuthPerMinute?: number;
  usageQueriesPerMinute?: number;
  /** The base URL clients are told (default: the address that answers); instances behind one proxy share it. */
  publicBaseUrl?: string;
  /** Replaces the in-memory repository (to inject failures). */
  petRepository?: PetRepository;
  /** Replaces the default in-process rate-limit store (to give it other bounds). */
  rateLimits?: RateLimitStore;
  now?: string;
}

/** The admin token of the test APIs' admin listener. */
export const TEST_ADMIN_TOKEN = 'test-admin-token-6b2e9f0c4a7d1e3b5c8f0a2d4e6b8c1f';

async function listenOnLoopback(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The HTTP transport over a real socket on loopback, built from core with in-memory adapters and a fake clock. */
export async function startTestApi(options: TestApiOptions = {}): Promise<TestApi> {
  const ports = inMemoryPorts(options.now ?? '2026-06-01T12:00:00Z');
  const { clock, pets, keys } = ports;
  const store = createPetStore(
    { ...ports, pets: options.petRepository ?? pets, rateLimits: options.rateLimits ?? ports.rateLimits },
    { ban: options.ban, failedAuthPerMinute: options.failedAuthPerMinute, usageQueriesPerMinute: options.usageQueriesPerMinute },
  );
  const internalErrors: unknown[] = [];
  // Listening first, so that the public base URL (Location, Link, the document's server) is the address that answers.
  const server = createServer();
  const baseUrl = await listenOnLoopback(server);
  const publicBaseUrl = options.publicBaseUrl ?? `${baseUrl}/v1`;
  const app = createHttpApp({ ...store, publicBaseUrl }, { ...options, onInternalError: (error) => internalErrors.push(error) });
  const callback = app.callback();
  server.on('request', (req, res) => void callback(req, res));
  const checker = responseCheckerFor(createPetsApi({ ...store, publicBaseUrl }).openApiDocument as never);

  const request = async (method: string, path: string, { unchecked, ...rest }: RequestOptions = {}) => {
    const response = await rawRequest(`${baseUrl}${path}`, { method, ...rest });
    if (!unchecked) checker.check(method, path, response.status, response.headers, response.json);
    return response;
  };

  // The admin listener starts with the first admin request: most tests never make one.
  const adminServer = createServer();
  let adminListener: Promise<{ origin: string; checker: OpenApiResponseChecker }> | undefined;
  const startAdmin = async () => {
    const origin = await listenOnLoopback(adminServer);
    const adminDeps = { ...store, adminBaseUrl: `${origin}/admin/v1` };
    const adminCallback = createAdminApp(adminDeps, { token: TEST_ADMIN_TOKEN, onInternalError: (error) => internalErrors.push(error) }).callback();
    adminServer.on('request', (req, res) => void adminCallback(req, res));
    return {
      origin,
      checker: responseCheckerFor(createAdminApi(adminDeps, { token: TEST_ADMIN_TOKEN }).openApiDocument as never, '/admin/v1'),
    };
  };
  const admin = async (method: string, path: string, { unchecked, headers, ...rest }: RequestOptions = {}) => {
    const { origin, checker: adminChecker } = await (adminListener ??= startAdmin());
    const response = await rawRequest(`${origin}${path}`, { method, headers: { Authorization: `Bearer ${TEST_ADMIN_TOKEN}`, ...headers }, ...rest });
    if (!unchecked) adminChecker.check(method, path, response.status, response.headers, response.json);
    return response;
  };

  return {
    baseUrl,
    publicBaseUrl,
    clock,
    pets,
    keys,
    webhookTargets: ports.webhookTargets,
    webhookSender: ports.webhookSender,
    webhooks: ports.webhookEndpoints,
    store,
    internalErrors,
    async issueKey(plan = 'free', limits) {
      const input = plan === 'enterprise' ? { plan, perMinute: limits?.perMinute ?? 1_000_000, perDay: limits?.perDay ?? 1_000_000_000 } : { plan };
      return (await store.issueApiKey.execute(input, 'cli')).secret;
    },
    request,
    authed: (key, method, path, requestOptions = {}) =>
      request(method, path, { ...requestOptions, headers: { Authorization: `Bearer ${key}`, ...requestOptions.headers } }),
    admin,
    close: async () => {
      if (adminListener) await new Promise<void>((resolve) => adminServer.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A test API and an Enterprise key whose limits never get in the way. */
export async function startTestApiWithKey(options: TestApiOptions = {}): Promise<{ api: TestApi; key: string }> {
  const api = await startTestApi(options);
  return { api, key: await api.issueKey('enterprise') };
}
