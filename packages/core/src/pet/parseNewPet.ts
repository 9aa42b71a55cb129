import { IsDefined, IsIn, IsInt, IsString, Length, Matches, Max, Min, ValidateBy, ValidateIf, validateSync } from 'class-validator';
import { ValidationError, type FieldProblem } from '../errors/ValidationError.js';
import { MAX_ID, type PetDraft } from './Pet.js';
import { DEFAULT_PET_STATUS, PET_STATUSES, type PetStatus } from './PetStatus.js';

const NAME_MAX = 100;
const ALLOWED_FIELDS = ['name', 'categoryId', 'status'] as const;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** JSON may carry unpaired surrogates ("\ud800"); no database can store them as text. */
const IsWellFormedText = (message: string) =>
  ValidateBy({ name: 'isWellFormedText', validator: { validate: (value) => typeof value === 'string' && !LONE_SURROGATE.test(value) } }, { message });

// class-validator runs a property's decorators bottom-up; with stopAtFirstError the lowest failing one reports.
class NewPetRules {
  @IsDefined({ message: 'name is required' })
  @IsWellFormedText('name must be valid Unicode text (no unpaired surrogates)')
  @Matches(/^\P{Cc}*$/u, { message: 'name must not contain control characters' })
  @Matches(/\S/, { message: 'name must contain at least one non-space character' })
  @Length(1, NAME_MAX, { message: `name must be 1 to ${NAME_MAX} characters long` })
  @IsString({ message: 'name must be a string' })
  name: unknown;

  @IsDefined({ message: 'categoryId is required' })
  @Max(MAX_ID, { message: `categoryId must be between 1 and ${MAX_ID}` })
  @Min(1, { message: `categoryId must be between 1 and ${MAX_ID}` })
  @IsInt({ message: 'categoryId must be an integer (a JSON number, not a string)' })
  categoryId: unknown;

  @ValidateIf((input: NewPetRules) => input.status !== undefined)
  @IsIn(PET_STATUSES, { message: `status must be one of ${PET_STATUSES.join(', ')}` })
  status: unknown;
}

/**
 * Checks a client's NewPet (any JSON value) and returns what to store, with the default status applied.
 * Throws a ValidationError that lists every invalid or unknown field; nothing is ever coerced.
 */
export function parseNewPet(body: unknown): PetDraft {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw ValidationError.of('body', 'The request body must be a JSON object with name, categoryId and optional status.');
  }
  const problems: FieldProblem[] = Object.keys(body)
    .filter((field) => !(ALLOWED_FIELDS as readonly string[]).includes(field))
    .map((field) => ({
      field,
      message: field === 'id' ? 'id is assigned by the service and must not be sent' : `${field} is not a known field`,
    }));

  // Copy only known fields: assigning a parsed body wholesale could touch __proto__.
  const input = new NewPetRules();
  const fields = body as Record<string, unknown>;
  for (const field of ALLOWED_FIELDS) {
    if (Object.hasOwn(fields, field)) input[field] = fields[field];
  }
  for (const error of validateSync(input, { stopAtFirstError: true })) {
    problems.push({ field: error.property, message: Object.values(error.constraints ?? {})[0] ?? `${error.property} is invalid` });
  }
  if (problems.length > 0) throw new ValidationError(problems);

  return {
    name: input.name as string,
    categoryId: input.categoryId as number,
    status: (input.status as PetStatus | undefined) ?? DEFAULT_PET_STATUS,
  };
}
