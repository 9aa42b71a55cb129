import {
  displayedTextPattern,
  LIST_LIMIT,
  MAX_ID,
  PET_FIELD_NAMES,
  PET_STATUSES,
  petField,
  PLANS,
  type PetFieldDeclaration,
  type PetFieldName,
} from '@petstore/core';
import { ERROR_STATUS } from '../errorStatus.js';
import { closedObject } from './closedObject.js';

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it). */
export type JsonSchema = Readonly<Record<string, unknown>>;

// The schemas of the document's `components.schemas`. Declarations use these objects themselves; the document
// writes each of them once and refers to it (`$ref`) everywhere else, and the serializers compile them as they are.

export const PetStatusSchema = {
  type: 'string',
  enum: [...PET_STATUSES],
  description: 'Availability of the animal.',
  example: 'available',
} as const satisfies JsonSchema;

const id = { type: 'integer', format: 'int64', minimum: 1, maximum: MAX_ID } as const;

const DISPLAYED_TEXT_RULE =
  'counted as Unicode code points (as maxLength is), with at least one visible character (not a space, control, format character, combining mark, default-ignorable character, noncharacter or U+2800); no control characters, bidirectional controls, line or paragraph separators.';

/** A field's schema in a request body (NewPet, PetPatch): its kind's rules, as parseNewPet applies them. */
function requestSchemaOf({ kind, maxLength = 1, description }: PetFieldDeclaration): JsonSchema {
  switch (kind) {
    case 'text':
      return {
        type: 'string',
        minLength: 1,
        maxLength,
        pattern: displayedTextPattern({ visible: true }),
        description: `${description} 1 to ${maxLength} characters, ${DISPLAYED_TEXT_RULE}`,
      };
    case 'id':
      return { ...id, description };
    case 'status':
      return PetStatusSchema;
  }
}

/** A field's schema in an answer: what was stored, perhaps under older rules, so no maximum length or pattern. */
function answerSchemaOf(declaration: PetFieldDeclaration): JsonSchema {
  const { kind, description, answerDescription = description } = declaration;
  return kind === 'text' ? { type: 'string', minLength: 1, description: answerDescription } : requestSchemaOf(declaration);
}

/** Each field's schema, by `schemaOf`, in PET_FIELDS's order; `adjust` may replace one. */
function fieldSchemas(
  schemaOf: (declaration: PetFieldDeclaration) => JsonSchema,
  adjust: (name: PetFieldName, schema: JsonSchema) => JsonSchema = (_, schema) => schema,
): Record<string, JsonSchema> {
  return Object.fromEntries(PET_FIELD_NAMES.map((name) => [name, adjust(name, schemaOf(petField(name)))]));
}

/** The fields an animal always has (those not optional), and those a new animal must be given (no default either). */
const ALWAYS = PET_FIELD_NAMES.filter((name) => !petField(name).optional);
const REQUIRED_ON_CREATE = ALWAYS.filter((name) => petField(name).default === undefined);

export const PetSchema = closedObject({
  description: 'An animal available for adoption.',
  required: ['id', ...ALWAYS],
  properties: { id: { ...id, description: 'Assigned by the service on creation.' }, ...fieldSchemas(answerSchemaOf) },
  example: { id: 1, name: 'Rex', categoryId: 2, status: 'available' },
});

export const NewPetSchema = closedObject({
  description: 'An animal to add; the service assigns its id.',
  required: REQUIRED_ON_CREATE,
  properties: fieldSchemas(requestSchemaOf, (name, schema) => {
    const byDefault = petField(name).default;
    return byDefault === undefined ? schema : { ...schema, description: `Defaults to \`${byDefault}\`.` };
  }),
  example: { name: 'Rex', categoryId: 2 },
});

export const PetPatchSchema = closedObject({
  description:
    'A change to an animal, as a JSON Merge Patch (RFC 7396): the fields given change, the others stay. Every field follows the rules of a new animal; `null` is refused (no field can be removed), and so is `id`.',
  properties: fieldSchemas(requestSchemaOf, (name, schema) =>
    petField(name).kind === 'status'
      ? { ...schema, description: 'The new status: `available` -> `pending` or `sold`; `pending` -> `available` or `sold`; `sold` is final.' }
      : schema,
  ),
  example: { status: 'pending' },
});

export const PetsSchema = {
  type: 'array',
  description: 'One page of animals, ascending by id.',
  items: PetSchema,
  maxItems: LIST_LIMIT.max,
  example: [PetSchema.example],
} as const satisfies JsonSchema;

export const RateLimitUsageSchema = closedObject({
  description: "The calling key's plan, its usage per window and its ban.",
  required: ['keyId', 'plan', 'windows', 'bannedUntil'],
  properties: {
    keyId: { type: 'string', description: 'The id of the calling key (never its secret).' },
    plan: { type: 'string', enum: [...PLANS] },
    windows: {
      type: 'array',
      items: closedObject({
        required: ['name', 'limit', 'used', 'remaining', 'reset'],
        properties: {
          name: { type: 'string', enum: ['minute', 'day'] },
          limit: { type: 'integer', minimum: 1 },
          used: { type: 'integer', minimum: 0 },
          remaining: { type: 'integer', minimum: 0 },
          reset: { type: 'integer', description: 'Unix time (seconds) at which this window resets.' },
        },
      }),
    },
    bannedUntil: { type: ['integer', 'null'], description: 'Unix time (seconds) at which a ban in force ends; null when not banned.' },
  },
  example: {
    keyId: 'key_3f0c9a5e1b2d4c6f',
    plan: 'free',
    windows: [
      { name: 'minute', limit: 60, used: 1, remaining: 59, reset: 1780315260 },
      { name: 'day', limit: 1000, used: 1, remaining: 999, reset: 1780358400 },
    ],
    bannedUntil: null,
  },
});

export const ErrorSchema = closedObject({
  description: 'The body of every error answer.',
  required: ['code', 'message', 'status'],
  properties: {
    code: { type: 'string', enum: Object.keys(ERROR_STATUS), description: 'Machine-readable.' },
    message: { type: 'string', description: 'For people.' },
    status: { type: 'integer', enum: [...new Set(Object.values(ERROR_STATUS))], description: 'The HTTP status of the answer.' },
    details: {
      type: 'array',
      description: 'For `validation_error`: one entry per invalid field.',
      items: closedObject({ required: ['field', 'message'], properties: { field: { type: 'string' }, message: { type: 'string' } } }),
    },
  },
  example: { code: 'unauthorized', message: 'The API key is missing.', status: 401 },
});

/** Every schema of `components.schemas`, by name. */
export const SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  PetStatus: PetStatusSchema,
  Pet: PetSchema,
  NewPet: NewPetSchema,
  PetPatch: PetPatchSchema,
  Pets: PetsSchema,
  RateLimitUsage: RateLimitUsageSchema,
  Error: ErrorSchema,
};
