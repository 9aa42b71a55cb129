import { describe, expect, it } from '@jest/globals';
import { parseNewPet, parsePetPatch } from '@petstore/core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { NewPetSchema, PetPatchSchema } from './schemas.js';

const ajv = new Ajv2020({ strict: false });
ajv.addFormat('int64', { type: 'number', validate: (value: number) => Number.isSafeInteger(value) });
const documentAccepts = (schema: object) => {
  const validate = ajv.compile(schema);
  return (body: unknown) => validate(body);
};
const serverAccepts = (parse: (body: unknown) => unknown) => (body: unknown) => {
  try {
    parse(body);
    return true;
  } catch {
    return false;
  }
};

// Names a schema-driven tool sends: every character of Latin-1 and its controls, the format characters and
// separators, combining marks alone and after a letter, emoji, and lengths around the limit in code points.
const characters = [
  ...Array.from({ length: 0x250 }, (_, i) => String.fromCodePoint(i)),
  ...'\u034f\u061c\u180e\u200b\u200c\u200d\u200e\u200f\u2028\u2029\u202a\u202e\u2060\u2066\u2069\u2800\u3164\ufe0f\ufeff\ufffe\uffff',
  '\u{1d173}',
  '\u{e0001}',
  '\u{1f436}',
  '\u{fffff}',
];
const names = [
  ...characters.flatMap((c) => [c, `Rex${c}`, `${c}\u0301`]),
  '',
  'x'.repeat(100),
  'x'.repeat(101),
  '\u{1f436}'.repeat(100),
  '\u{1f436}'.repeat(101),
  `${'x'.repeat(99)}\u{1f436}`,
];

describe('the request schemas and the rules of core agree', () => {
  it.each([
    ['NewPet', NewPetSchema, parseNewPet, (name: string) => ({ name, categoryId: 1 })],
    ['PetPatch', PetPatchSchema, parsePetPatch, (name: string) => ({ name })],
  ] as const)('%s: a name the document accepts is one the server accepts, and the reverse', (_name, schema, parse, body) => {
    const byDocument = documentAccepts(schema);
    const byServer = serverAccepts(parse);
    // The one exception (core's displayedTextPattern): names of invisible characters only, some beyond U+FFFF.
    const invisible = /[\p{White_Space}\p{Cc}\p{Cf}\p{Mn}\p{Me}\p{Default_Ignorable_Code_Point}\p{Noncharacter_Code_Point}]/u;
    const onlyInvisibleBeyondTheBasicPlane = (name: string) => [...name].every((c) => invisible.test(c)) && [...name].some((c) => c.length === 2);
    const disagreements = names.filter((name) => byDocument(body(name)) !== byServer(body(name)) && !onlyInvisibleBeyondTheBasicPlane(name));
    expect(disagreements.map((name) => [...name].map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase()}`).join(' '))).toEqual([]);
    expect(names.filter((name) => byServer(body(name))).length).toBeGreaterThan(names.length / 2);
  });
});
