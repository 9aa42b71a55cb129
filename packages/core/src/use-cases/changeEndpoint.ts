import { ServiceUnavailableError } from '../errors/ServiceUnavailableError.js';
import type { WebhookEndpointStore } from '../ports/WebhookEndpointStore.js';
import type { WebhookEndpoint } from '../webhooks/WebhookEndpoint.js';
import { findEndpoint } from './findEndpoint.js';

/** How many times a change is decided again after another change to the same endpoint came first. */
const ATTEMPTS = 10;

/**
 * Applies `change` to the endpoint as it is stored, with a compare-and-set: if another change came first, reads the
 * endpoint again and decides afresh. Answers the endpoint before and after (the same object when `change` answered
 * the endpoint it was given: nothing to change, nothing saved); NotFoundError when there is none (or no longer one);
 * `change` may throw to refuse.
 */
export async function changeEndpoint(
  store: WebhookEndpointStore,
  id: string,
  change: (current: WebhookEndpoint) => WebhookEndpoint | Promise<WebhookEndpoint>,
): Promise<{ before: WebhookEndpoint; after: WebhookEndpoint }> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const before = await findEndpoint(store, id);
    const next = await change(before);
    if (next === before) return { before, after: before };
    if (await store.save({ ...next, version: before.version })) return { before, after: { ...next, version: before.version + 1 } };
  }
  throw new ServiceUnavailableError('database', 1, { cause: new Error(`webhook endpoint ${id} changed ${ATTEMPTS} times while being updated`) });
}
