import type { JsonSchema } from './schemas.js';

interface ClosedObjectFrame {
  readonly description?: string;
  readonly required?: readonly string[];
  readonly minProperties?: number;
  readonly properties: Readonly<Record<string, JsonSchema>>;
  readonly example?: unknown;
}

/**
 * The schema of an object of the API: it has these properties and no others (`additionalProperties: false`). Keys
 * come in the documents' order; those not given are left out.
 */
export function closedObject<const F extends ClosedObjectFrame>({ description, required, minProperties, properties, example }: F) {
  return {
    type: 'object',
    ...(description === undefined ? {} : { description }),
    additionalProperties: false,
    ...(required === undefined ? {} : { required }),
    ...(minProperties === undefined ? {} : { minProperties }),
    properties,
    ...(example === undefined ? {} : { example }),
  } as { readonly type: 'object'; readonly additionalProperties: false } & F;
}
