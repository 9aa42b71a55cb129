import { IsDefined, IsIn, IsInt, IsString, Matches, Max, Min, ValidateBy, ValidateIf, validateSync } from 'class-validator';
import { ValidationError, type FieldProblem } from '../errors/ValidationError.js';
import { codePointCount, displayedTextProblem, VISIBLE_CHARACTER } from '../input/displayedText.js';
import { integerLiteralProblems, type NumberLiterals } from '../input/integerLiterals.js';
import { MAX_ID, type NewPet, type PetDraft, type PetPatch } from './Pet.js';
import { PET_FIELD_NAMES, PET_FIELDS, petField, petFieldsOf, type PetFieldName, type PetFieldValues } from './petFields.js';
import { PET_STATUSES } from './PetStatus.js';

/** The longest name, in Unicode code points (what JSON Schema's `maxLength` counts). */
export const PET_NAME_MAX = PET_FIELDS.name.maxLength;
const INTEGER_FIELDS: ReadonlySet<string> = new Set(PET_FIELD_NAMES.filter((name) => petField(name).kind === 'id'));

declare const checkedBrand: unique symbol;
/** A NewPet that `parseNewPet` checked: the use cases take it without checking it again. */
export type CheckedNewPet = Readonly<NewPet> & { readonly [checkedBrand]: 'NewPet' };
/** A PetPatch that `parsePetPatch` checked: the use cases take it without checking it again. */
export type CheckedPetPatch = Readonly<PetPatch> & { readonly [checkedBrand]: 'PetPatch' };

/**
 * The values the parsers made, frozen so that they stay as checked. Only these skip a check: a brand is a type
 * alone, which a cast can forge.
 */
const checkedValues = new WeakSet<object>();
function asChecked<T extends object>(value: T): T {
  checkedValues.add(Object.freeze(value));
  return value;
}

/** The rule every displayed name follows (core's `displayedTextProblem`), as a decorator. */
const IsDisplayableText = (field: string) =>
  ValidateBy(
    { name: 'isDisplayableText', validator: { validate: (value) => typeof value === 'string' && displayedTextProblem(field, value) === null } },
    { message: ({ value }) => (typeof value === 'string' ? displayedTextProblem(field, value) : null) ?? `${field} must be a string` },
  );

const HasCodePointsBetween = (min: number, max: number, message: string) =>
  ValidateBy(
    {
      name: 'hasCodePointsBetween',
      validator: { validate: (value) => typeof value === 'string' && codePointCount(value) >= min && codePointCount(value) <= max },
    },
    { message },
  );

/** The decorators of a field's rules, as they would be written above its property (class-validator runs them bottom-up). */
function rulesOf(field: PetFieldName): PropertyDecorator[] {
  const declaration = petField(field);
  const presence =
    declaration.optional || declaration.default !== undefined
      ? ValidateIf((input: NewPetRules) => input[field] !== undefined)
      : IsDefined({ message: `${field} is required` });
  switch (declaration.kind) {
    case 'text': {
      const max = declaration.maxLength ?? 1;
      return [
        presence,
        IsDisplayableText(field),
        Matches(VISIBLE_CHARACTER, { message: `${field} must contain at least one visible character` }),
        HasCodePointsBetween(1, max, `${field} must be 1 to ${max} characters (Unicode code points) long`),
        IsString({ message: `${field} must be a string` }),
      ];
    }
    case 'id':
      return [
        presence,
        Max(MAX_ID, { message: `${field} must be between 1 and ${MAX_ID}` }),
        Min(1, { message: `${field} must be between 1 and ${MAX_ID}` }),
        // JSON.parse reads an integer of a thousand digits as Infinity: out of range, whatever else it is.
        IsInt({
          message: ({ value }) =>
            value === Infinity || value === -Infinity
              ? `${field} must be between 1 and ${MAX_ID}`
              : `${field} must be an integer (a JSON number, not a string)`,
        }),
      ];
    case 'status':
      return [presence, IsIn(PET_STATUSES, { message: `${field} must be one of ${PET_STATUSES.join(', ')}` })];
  }
}

/** A body's fields as class-validator checks them, with every field's rules (PET_FIELDS). */
class NewPetRules {
  [field: string]: unknown;
}
for (const field of PET_FIELD_NAMES) for (const rule of rulesOf(field).reverse()) rule(NewPetRules.prototype, field);

/** "name, categoryId and optional status": a new pet's fields, for the message of a body that is no object. */
const PATCH_FIELDS = listed(PET_FIELD_NAMES);
const NEW_PET_FIELDS = listed(
  PET_FIELD_NAMES.map((name) => (petField(name).optional || petField(name).default !== undefined ? `optional ${name}` : name)),
);

function listed(words: readonly string[]): string {
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]!}`;
}

/**
 * Checks a NewPet, typed or any JSON value a client sent, and returns its known fields (no default applied).
 * Throws a ValidationError that lists every invalid or unknown field; nothing is ever coerced. `numberLiterals`
 * (the JSON text of top-level numbers, when the transport has it) lets it refuse `1.0` or `4.9999999999999999`
 * for an integer.
 */
export function parseNewPet(body: unknown, numberLiterals: NumberLiterals = new Map()): CheckedNewPet {
  return asChecked(petFieldsOf(checkFields(body, numberLiterals, 'new'))) as CheckedNewPet;
}

/** `newPet` as checked: as it is when `parseNewPet` made it, else checked now (a plain NewPet from an embedder). */
export function checkedNewPet(newPet: NewPet): CheckedNewPet {
  return checkedValues.has(newPet) ? (newPet as CheckedNewPet) : parseNewPet(newPet);
}

/**
 * Checks a change to an animal (a JSON Merge Patch, RFC 7396): any of name, categoryId and status, each by the same
 * rule as on create. A field absent is left as it is; `null` (which would remove a field) is refused, as are `id`
 * and unknown fields. Returns only the fields given.
 */
export function parsePetPatch(body: unknown, numberLiterals: NumberLiterals = new Map()): CheckedPetPatch {
  return asChecked(petFieldsOf(checkFields(body, numberLiterals, 'patch'))) as CheckedPetPatch;
}

/** `patch` as checked: as it is when `parsePetPatch` made it, else checked now (a plain PetPatch from an embedder). */
export function checkedPetPatch(patch: PetPatch): CheckedPetPatch {
  return checkedValues.has(patch) ? (patch as CheckedPetPatch) : parsePetPatch(patch);
}

/** The rules both share: a JSON object of known fields, each valid; for a patch, every field is optional but not null. */
function checkFields(body: unknown, numberLiterals: NumberLiterals, kind: 'new' | 'patch'): Partial<PetFieldValues> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw ValidationError.of(
      'body',
      kind === 'new'
        ? `The request body must be a JSON object with ${NEW_PET_FIELDS}.`
        : `The request body must be a JSON object (a merge patch) with any of ${PATCH_FIELDS}.`,
    );
  }
  const problems: FieldProblem[] = Object.keys(body)
    .filter((field) => !(PET_FIELD_NAMES as readonly string[]).includes(field))
    .map((field) => ({
      field,
      message: field === 'id' ? 'id is assigned by the service and must not be sent' : `${field} is not a known field`,
    }));

  // Copy only known fields: assigning a parsed body wholesale could touch __proto__.
  const input = new NewPetRules();
  const fields = body as Record<string, unknown>;
  for (const field of PET_FIELD_NAMES) {
    if (!Object.hasOwn(fields, field)) continue;
    if (kind === 'patch' && fields[field] === null) {
      problems.push({ field, message: `${field} must not be null: every field of an animal is required, so none can be removed` });
    } else {
      input[field] = fields[field];
    }
  }
  for (const error of validateSync(input, { stopAtFirstError: true })) {
    // A patch leaves out what it does not change.
    if (kind === 'patch' && input[error.property] === undefined) continue;
    problems.push({ field: error.property, message: Object.values(error.constraints ?? {})[0] ?? `${error.property} is invalid` });
  }
  for (const problem of integerLiteralProblems(numberLiterals, INTEGER_FIELDS)) {
    if (!problems.some((p) => p.field === problem.field)) problems.push(problem);
  }
  if (problems.length > 0) throw new ValidationError(problems);
  return input;
}

/** What a repository stores for a checked NewPet: the default status applied. */
export function draftOf(newPet: NewPet): PetDraft {
  const draft: Record<string, unknown> = {};
  for (const name of PET_FIELD_NAMES) {
    const value = newPet[name] ?? petField(name).default;
    if (value !== undefined) draft[name] = value;
  }
  return draft as PetDraft;
}
