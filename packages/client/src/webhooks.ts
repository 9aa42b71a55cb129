// `@petstore/client/webhooks`: verifies the webhooks the pet store sends (Standard Webhooks) with the standardwebhooks
// package, and types what they carry. Apart from the main entry, which has no runtime dependency.
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { components } from './admin.generated.js';

type EventPayload = Omit<components['schemas']['Event'], 'id'>;
/** An animal as a webhook carries it: with `version`, 1 when created and one more with each change. */
export type WebhookPet = Omit<EventPayload['data'], 'previous'>;
/** The values before a change of the fields it changed. */
export type PreviousValues = NonNullable<EventPayload['data']['previous']>;

/** A verified webhook: `id` is its `webhook-id`, the same on every attempt and resend of one event. */
export type PetstoreWebhook = { id: string; timestamp: string } & (
  { type: 'pet.created'; data: WebhookPet } | { type: 'pet.updated'; data: WebhookPet & { previous: PreviousValues } }
);

export { WebhookVerificationError };

/** Request headers as Node (`req.headers`) or fetch (`Headers`) give them. */
export type WebhookHeaders = Headers | Readonly<Record<string, string | string[] | undefined>>;

export interface WebhookVerifier {
  /**
   * Checks the signature (any of the secrets given; during a rotation the store signs with both) and that the
   * timestamp is within 5 minutes of now, then answers the typed event. Throws WebhookVerificationError otherwise.
   * Pass the body exactly as received (the raw text or bytes, not parsed JSON).
   */
  verify(payload: string | Uint8Array, headers: WebhookHeaders): PetstoreWebhook;
}

function headerRecord(headers: WebhookHeaders): Record<string, string> {
  const record: Record<string, string> = {};
  if (headers instanceof Headers) headers.forEach((value, name) => (record[name] = value));
  else
    for (const [name, value] of Object.entries(headers))
      if (value !== undefined) record[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return record;
}

/** A verifier for the endpoint's secret (`whsec_...`), or its secrets while you move from an old one to a new one. */
export function createWebhookVerifier(secret: string | readonly string[]): WebhookVerifier {
  const webhooks = (typeof secret === 'string' ? [secret] : secret).map((s) => new Webhook(s));
  if (webhooks.length === 0) throw new TypeError('createWebhookVerifier needs at least one secret');
  return {
    verify(payload, headers) {
      const record = headerRecord(headers);
      const text = typeof payload === 'string' ? payload : new TextDecoder().decode(payload);
      let lastError: unknown;
      for (const webhook of webhooks) {
        try {
          const event = webhook.verify(text, record) as Omit<PetstoreWebhook, 'id'>;
          return { id: record['webhook-id']!, ...event } as PetstoreWebhook;
        } catch (error) {
          lastError = error;
        }
      }
      throw lastError;
    },
  };
}
