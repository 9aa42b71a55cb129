import { closedObject } from '../openapi/closedObject.js';
import { instant } from './adminSchemaParts.js';

/** What the overview reads: the counts of this instance's `/v1` answers since it started, and the webhook backlog. */
export interface ServiceOverview {
  at: Date;
  /** When this instance started: the counts are since then. */
  since: Date;
  requests: { answered: number; rateLimited: number };
  webhooks: { pending: number; undispatched: number; lagSeconds: number };
}

const count = (description: string) => ({ type: 'integer', minimum: 0, description }) as const;

export const OverviewSchema = closedObject({
  description:
    "This instance's traffic and the webhook backlog, read now: request counts are cumulative since the instance " +
    'started (a rate is the difference of two readings over their `at`), the backlog is the shared queue.',
  required: ['at', 'since', 'requests', 'webhooks'],
  properties: {
    at: instant('When it was read.'),
    since: instant('When this instance started counting.'),
    requests: closedObject({
      description: '`/v1` answers of this instance since `since`.',
      required: ['answered', 'rateLimited'],
      properties: {
        answered: count('Every answer.'),
        rateLimited: count('Answers `429` (`rate_limited` or `key_banned`).'),
      },
    }),
    webhooks: closedObject({
      description: 'The webhook delivery queue, across every instance.',
      required: ['pending', 'undispatched', 'lagSeconds'],
      properties: {
        pending: count('Deliveries waiting for an attempt (due now, or later on the retry schedule).'),
        undispatched: count('Events recorded but not yet turned into deliveries.'),
        lagSeconds: { type: 'number', minimum: 0, description: 'How long the oldest due delivery or undispatched event has waited.' },
      },
    }),
  },
  example: {
    at: '2026-11-28T12:00:05.000Z',
    since: '2026-11-28T08:00:00.000Z',
    requests: { answered: 182_340, rateLimited: 312 },
    webhooks: { pending: 4, undispatched: 0, lagSeconds: 0.2 },
  },
});
