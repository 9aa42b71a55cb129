import type { Parameter } from './Operation.js';

/** `If-None-Match`, on every operation that answers with an `ETag`. */
export const IF_NONE_MATCH: Parameter = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description:
    'Entity tags from earlier `ETag`s (or `*`): when one matches (weak comparison), the answer is 304 without a body. A 304 counts against the rate limit like a 200.',
  schema: { type: 'string' },
  example: '"k3v9XxYc2dGq1eWf0aZbQw"',
};
