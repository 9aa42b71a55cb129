import { LIST_LIMIT } from '@petstore/core';
import { closedObject } from '../openapi/closedObject.js';
import type { JsonSchema } from '../openapi/schemas.js';

// What the admin document's schemas (adminSchemas.ts, webhookSchemas.ts) are built from.

export const instant = (description: string) => ({ type: 'string', format: 'date-time', description }) as const;
export const instantOrNull = (description: string) => ({ type: ['string', 'null'], format: 'date-time', description }) as const;

/** One page of `items` under `name`, and the cursor of the next page (`next` says which page comes next). */
export function pageOf(name: string, items: JsonSchema & { example: object }, description: string, next: string) {
  return closedObject({
    description,
    required: [name, 'nextCursor'],
    properties: {
      [name]: { type: 'array', items, maxItems: LIST_LIMIT.max },
      nextCursor: { type: ['string', 'null'], description: `Pass as \`cursor\` for the ${next} page; null on the last one.` },
    },
    example: { [name]: [items.example], nextCursor: null },
  });
}
