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
/** `If-None-Match` on a change (RFC 9110, section 13.1.2): the change is refused when the animal has one of the tags. */
export const IF_NONE_MATCH_ON_CHANGE: Parameter = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description:
    'Entity tags the animal must not have (compared weakly), or `*`: an existing animal has a tag, so `*` always refuses. When one matches, nothing changes and the answer is 412 with the current `ETag`.',
  schema: { type: 'string' },
  // A tag no animal has (versions start at 1): the example request changes the animal.
  example: '"p1.1.0"',
};

export const IF_MATCH: Parameter = {
  name: 'If-Match',
  in: 'header',
  required: false,
  description:
    'Entity tags (from an `ETag`) the animal must still have, compared strongly (character by character), or `*` for any existing animal: when none matches, nothing changes and the answer is 412 with the current `ETag`.',
  schema: { type: 'string' },
  example: '"p1.1.1"',
};
