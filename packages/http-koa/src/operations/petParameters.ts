import type { Parameter } from './Operation.js';

/** `{petId}` in a path. */
export const PET_ID: Parameter = {
  name: 'petId',
  in: 'path',
  required: true,
  description: 'The id of the animal (decimal digits).',
  schema: { type: 'integer', format: 'int64', minimum: 1 },
  example: 1,
};

/** `Idempotency-Key`, on every operation that writes. */
export const IDEMPOTENCY_KEY: Parameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'Scoped to the API key, kept 24 hours: a retry with the same key and request replays the first answer.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
  example: 'order-7f3a2c',
};

/** `If-Match`, on a change to an animal. */
export const IF_MATCH: Parameter = {
  name: 'If-Match',
  in: 'header',
  required: false,
  description:
    'Entity tags (from an `ETag`) the animal must still have, compared strongly, or `*` for any existing animal: when none matches, nothing changes and the answer is 412 with the current `ETag`.',
  schema: { type: 'string' },
  example: '"p1.1.1"',
};
