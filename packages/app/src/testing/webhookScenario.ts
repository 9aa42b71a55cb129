import { expect } from '@jest/globals';
import { STOPPED_AT_ONCE, type ServerProcess } from '@petstore/test-support';

/** The admin token of the servers the webhook tests start. */
export const ADMIN_TOKEN = 'webhooks-e2e-admin-token-3c9f1a7e5b2d8c4f6a0e2b9d7c1f3a5e';

/**
 * Retries 50 ms apart, a worker that looks every 50 ms, loopback receivers allowed: the whole retry schedule in well
 * under a second.
 */
export const FAST_WEBHOOKS = {
  ...STOPPED_AT_ONCE,
  ADMIN_TOKEN,
  ADMIN_PORT: '0',
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  WEBHOOK_RETRY_SCHEDULE_MS: '50,50,50',
  WEBHOOK_POLL_INTERVAL_MS: '50',
  WEBHOOK_TIMEOUT_MS: '1000',
};

export type Json = Record<string, unknown>;

/** A request to the server's admin interface with the token; the status and the parsed body ({} for a 204). */
export async function admin(server: ServerProcess, method: string, path: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const response = await fetch(`${server.adminUrl!}${path}`, {
    method,
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: (response.status === 204 ? {} : await response.json()) as Json };
}

/** Creates a pet through the public API with `key`; the pet. */
export async function createPet(server: ServerProcess, key: string, name: string): Promise<Json> {
  const response = await fetch(`${server.url}/pets`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name, categoryId: 1 }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as Json;
}
