/** The name of every migration, oldest first: what `migrate` applies to an empty database. */
export const EVERY_MIGRATION = [
  'InitialSchema1763769600000',
  'CreateIdempotencyKeys1763856000000',
  'CoveringStatusIndex1763942400000',
  'KeyModel1764028800000',
  'RateLimitBans1764230400000',
  'PetVersion1764316800000',
  'PetEvents1764403200000',
  'Webhooks1764489600000',
  'DeliveriesByEndpoint1764576000000',
  'AttemptsByAge1764662400000',
  'AttemptRetryTimes1764687600000',
  'LimitedRequestsPerDay1764691200000',
  'WebhookHolds1764705600000',
  'ResendsMarked1764748800000',
];

/** The migrations from `name` on, as `migrate` applies them after undoing them. */
export const migrationsFrom = (name: string): string[] => EVERY_MIGRATION.slice(EVERY_MIGRATION.indexOf(name));
