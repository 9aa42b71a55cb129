// A pet's columns and rows, from core's PET_FIELDS: the column lists of the pet statements, the values they bind and
// the mapping of a row to a pet, each made once when the module loads.
import { PET_FIELD_NAMES, PET_STATUSES, petField, type Pet, type PetChangeEvent, type PetDraft, type PetFieldKind } from '@petstore/core';
import { toSafeInteger } from './schemas/safeInteger.js';

/**
 * A pet as the statements read it, `[id, ...its fields in PET_FIELDS's order, version]`: positional rows skip
 * building a keyed object per row (the statements' own shape, mapped to pets by `toPet` before they answer). An
 * `id` kind's value is a string on PostgreSQL; an optional field the pet lacks is null.
 */
export type PetTuple = [id: number | string, ...fieldsAndVersion: unknown[]];

const quoted = (column: string) => `"${column}"`;

/** The fields' columns, in PET_FIELDS's order. */
export const FIELD_COLUMNS = PET_FIELD_NAMES.map((name) => quoted(petField(name).column));

/** The columns of a PetTuple, in its order. */
export const PET_COLUMNS = ['"id"', ...FIELD_COLUMNS, '"version"'].join(', ');

/** The columns of the values before an update, in `pet_events`. */
export const BEFORE_COLUMNS = PET_FIELD_NAMES.map((name) => quoted(`before_${petField(name).column}`));

/** The columns of `pet_events` the pet statements write: the event, the pet as the change left it, the fields before. */
export const EVENT_COLUMNS = ['"id"', '"type"', '"at_ms"', '"pet_id"', ...FIELD_COLUMNS, '"version"', ...BEFORE_COLUMNS].join(', ');

/** Where a PetTuple holds the status. */
export const STATUS_POSITION = 1 + PET_FIELD_NAMES.indexOf('status');

/** PostgreSQL's type of each kind of field, for the casts of bound values. */
export const POSTGRES_TYPES: Readonly<Record<PetFieldKind, string>> = { text: 'text', id: 'bigint', status: 'text' };

/** The fields' values of a draft, in PET_FIELDS's order, as the statements bind them (null for a field it lacks). */
export const fieldValues = (draft: Readonly<Partial<PetDraft>>): unknown[] => PET_FIELD_NAMES.map((name) => draft[name] ?? null);

/** The values of an event's `before_` columns: the fields before an update, or nulls for a creation. */
export const beforeValues = ({ before }: PetChangeEvent): unknown[] => (before ? fieldValues(before) : NO_BEFORE);
const NO_BEFORE = PET_FIELD_NAMES.map(() => null);

/**
 * A PetTuple as a pet: a function written for PET_FIELDS when the module loads, so that it is the straight mapping
 * a hand-written one would be (one object literal of a fixed shape per row, no loop over the fields), which the
 * listing pays for each of its rows. An optional field the row lacks is left out.
 */
export const toPet: (row: PetTuple) => Pet = compileToPet();

function compileToPet(): (row: PetTuple) => Pet {
  const read = (position: number) =>
    petField(PET_FIELD_NAMES[position - 1]!).kind === 'id' ? `toSafeInteger(row[${position}])` : `row[${position}]`;
  const positions = PET_FIELD_NAMES.map((name, i) => ({ key: JSON.stringify(name), position: i + 1, optional: petField(name).optional }));
  const always = positions.filter(({ optional }) => !optional).map(({ key, position }) => `${key}: ${read(position)}, `);
  const sometimes = positions
    .filter(({ optional }) => optional)
    .map(({ key, position }) => `if (row[${position}] !== null) pet[${key}] = ${read(position)};`);
  const body = `const pet = { id: toSafeInteger(row[0]), ${always.join('')}version: row[${positions.length + 1}] }; ${sometimes.join(' ')} return pet;`;
  // The text is made of PET_FIELDS's names and positions only (JSON-quoted), never of anything read at run time.
  return new Function('toSafeInteger', `return (row) => { ${body} };`)(toSafeInteger) as (row: PetTuple) => Pet;
}

/** Each status's one string, so that kept rows share it. */
const STATUS_STRINGS = new Map<string, string>(PET_STATUSES.map((status) => [status, status]));

/**
 * A row to keep: better-sqlite3's row arrays have room for 17 values and a status string of their own, about 245
 * bytes a row; a copy of exactly its values sharing the status string takes half that.
 */
export function keptRow<Row extends PetTuple>(row: Row): Row {
  const kept = row.slice() as Row;
  const status = row[STATUS_POSITION] as string;
  kept[STATUS_POSITION] = STATUS_STRINGS.get(status) ?? status;
  return kept;
}
