import { hash } from 'node:crypto';
import type { Pet } from '@petstore/core';

// Entity tags named from what a representation is made of, the same on every instance: a pet is its id at a
// version, and a page the ids and versions of the pets it holds with its filter, limit and whether a next page
// follows (which, with the public base, determine its `Link`). Any change to a pet gives it a new version, so any
// change to what a page or a pet shows gives it a new tag, without hashing bodies or keeping anything.

/** The JSON shape of a pet: change it when the serialised body changes, so that old tags stop matching. */
const REPRESENTATION = 'p1';

/** The strong tag of one pet's representation: `"p1.<id>.<version>"` (base 36). */
export function petEntityTag(pet: Pick<Pet, 'id' | 'version'>): string {
  return `"${REPRESENTATION}.${pet.id.toString(36)}.${pet.version.toString(36)}"`;
}

/**
 * The strong tag of a listing page. `scope` tells apart the pages of servers whose `Link` differs (another public
 * base URL) and the page's filter and limit; the pets are summed up in 128 bits of SHA-256. What is hashed is the
 * scope's bytes (zero-padded to 8, it holds no NUL), whether a next page follows, then each id and version as a
 * 64-bit float: written into one array and hashed in one call, with no text built per pet.
 */
export function pageEntityTag(scope: string, pets: readonly Pick<Pet, 'id' | 'version'>[], hasNext: boolean): string {
  const scopeSlots = Math.ceil(Buffer.byteLength(scope) / 8);
  const values = new Float64Array(scopeSlots + 1 + 2 * pets.length);
  Buffer.from(values.buffer).write(scope);
  values[scopeSlots] = hasNext ? 1 : 0;
  for (let i = 0, at = scopeSlots + 1; i < pets.length; i++, at += 2) {
    values[at] = pets[i]!.id;
    values[at + 1] = pets[i]!.version;
  }
  return `"${REPRESENTATION}.${hash('sha256', values, 'base64url').slice(0, 22)}"`;
}

// entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE (RFC 9110, section 8.8.3)
const ENTITY_TAG = /^\s*(W\/)?("[\x21\x23-\x7E\x80-\xFF]*")\s*(?:,|$)/;
const PET_TAG = /^"p1\.([0-9a-z]{1,11})\.([0-9a-z]{1,7})"$/;

/**
 * The versions of pet `petId` that an `If-Match` (`strong`) or `If-None-Match` (weak) header names, or `*` for any
 * (RFC 9110, section 13.1). A tag names a version only when it is, character by character, the tag that version has
 * (`"p1.8x.01"` names none: version 1's tag is `"p1.8x.1"`); the weak comparison of `If-None-Match` also takes a
 * `W/` tag. A malformed list names nothing.
 */
export function versionsNamed(header: string, petId: number, comparison: 'strong' | 'weak'): '*' | number[] {
  if (header.trim() === '*') return '*';
  const versions: number[] = [];
  let rest = header;
  while (rest.trim() !== '') {
    const match = ENTITY_TAG.exec(rest);
    if (!match) return [];
    const tag = match[2]!;
    const pet = match[1] === undefined || comparison === 'weak' ? PET_TAG.exec(tag) : null;
    if (pet && parseInt(pet[1]!, 36) === petId) {
      const version = parseInt(pet[2]!, 36);
      if (petEntityTag({ id: petId, version }) === tag) versions.push(version);
    }
    rest = rest.slice(match[0].length);
  }
  return versions;
}
