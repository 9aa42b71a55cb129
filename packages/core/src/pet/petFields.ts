import { DEFAULT_PET_STATUS, type PetStatus } from './PetStatus.js';

/**
 * The fields of an animal a client sets, declared once: the types `Pet`, `NewPet`, `PetDraft` and `PetPatch`, the
 * rules `parseNewPet` and `parsePetPatch` apply, the API's JSON Schemas (http-koa), the events' values before a
 * change, the audit trail and the columns the database adapters store them in all come from this table. A new field
 * is one entry here, a migration (and its line in the migrations' list) and its rule in docs/domain-rules.md.
 *
 * Each field is of a kind, which says its type and its rules: `text`, a displayed text of 1 to `maxLength` Unicode
 * code points with a visible character (core's displayedText rules); `id`, a JSON integer from 1 to `MAX_ID`;
 * `status`, one of `PET_STATUSES`. A field with a `default` may be left out of a new animal; an `optional` one may
 * be left out of every animal (stored as null, absent from answers), and once given it can change but not be
 * removed (a patch refuses `null` for every field). The order is the answers' and the columns'.
 */
export const PET_FIELDS = {
  name: {
    kind: 'text',
    column: 'name',
    maxLength: 100,
    description: 'What the animal is called.',
    answerDescription:
      'At most 100 Unicode code points; an animal added before that rule may have a longer name (up to 100 user-perceived characters).',
  },
  categoryId: {
    kind: 'id',
    column: 'category_id',
    description: 'The category the animal belongs to.',
  },
  status: {
    kind: 'status',
    column: 'status',
    default: DEFAULT_PET_STATUS,
    description: 'Availability of the animal.',
  },
} as const satisfies Readonly<Record<string, PetFieldDeclaration>>;

/** One entry of PET_FIELDS. */
export interface PetFieldDeclaration {
  readonly kind: PetFieldKind;
  /** Its column in `pets`; `pet_events` has it too, and `before_` and it for its value before an update. */
  readonly column: string;
  /** For `text`: the most Unicode code points. */
  readonly maxLength?: number;
  /** What it means, for the API's documentation. */
  readonly description: string;
  /** Its description in answers, where it differs (they carry what was stored, perhaps under older rules). */
  readonly answerDescription?: string;
  /** What a new animal gets when it is not given. */
  readonly default?: PetStatus;
  /** True when an animal may have none. */
  readonly optional?: boolean;
}

export type PetFieldKind = 'text' | 'id' | 'status';
export type PetFieldName = keyof typeof PET_FIELDS;

type Fields = typeof PET_FIELDS;
type ValueOf<F> = F extends { kind: 'text' } ? string : F extends { kind: 'id' } ? number : PetStatus;
type Simplify<T> = { [K in keyof T]: T[K] };
type Keys<Where> = { [K in keyof Fields]: Fields[K] extends Where ? K : never }[keyof Fields];
type OptionalKeys = Keys<{ optional: true }>;
type DefaultedKeys = Keys<{ default: unknown }>;

/** An animal's fields as stored: each one an animal must have, and those of its optional ones it has. */
export type PetFieldValues = Simplify<
  { [K in Exclude<keyof Fields, OptionalKeys>]: ValueOf<Fields[K]> } & { [K in OptionalKeys]?: ValueOf<Fields[K]> }
>;

/** An animal's fields as a client gives them to add it: those with a default may be left out too. */
export type NewPetFieldValues = Simplify<
  { [K in Exclude<keyof Fields, OptionalKeys | DefaultedKeys>]: ValueOf<Fields[K]> } & {
    [K in OptionalKeys | DefaultedKeys]?: ValueOf<Fields[K]>;
  }
>;

/** The names of PET_FIELDS, in order. */
export const PET_FIELD_NAMES = Object.keys(PET_FIELDS) as readonly PetFieldName[];

/** Each field's declaration, by name, typed as any field's (for code that handles every field alike). */
export const petField = (name: PetFieldName): PetFieldDeclaration => PET_FIELDS[name];

/** The fields of `values` (a pet, a draft or a patch) that it has, as a new object: nothing else is copied. */
export function petFieldsOf<T extends Partial<PetFieldValues>>(values: T): Partial<PetFieldValues> {
  const fields: Record<string, unknown> = {};
  for (const name of PET_FIELD_NAMES) if (values[name] !== undefined) fields[name] = values[name];
  return fields;
}

/** The fields whose values differ between `a` and `b` (one having a value the other lacks included). */
export function differentPetFields(a: Partial<PetFieldValues>, b: Partial<PetFieldValues>): PetFieldName[] {
  return PET_FIELD_NAMES.filter((name) => a[name] !== b[name]);
}
