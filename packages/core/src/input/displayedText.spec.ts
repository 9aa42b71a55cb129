import { describe, expect, it } from '@jest/globals';
import { displayedTextPattern, displayedTextProblem, VISIBLE_CHARACTER } from './displayedText.js';
import { INVISIBLE_CHARACTERS } from './invisibleCharacters.js';

/** Every code point but the surrogates, as text. */
function* everyCharacter(): Generator<string> {
  for (let codePoint = 0; codePoint <= 0x10ffff; codePoint++) if (codePoint < 0xd800 || codePoint > 0xdfff) yield String.fromCodePoint(codePoint);
}

/** The ranges of code points (surrogates never) `matches` holds, written as INVISIBLE_CHARACTERS is. */
function rangesOf(matches: (character: string) => boolean): string[] {
  const hex = (codePoint: number) => codePoint.toString(16).toUpperCase().padStart(4, '0');
  const ranges: string[] = [];
  let start = -1;
  for (let codePoint = 0; codePoint <= 0x110000; codePoint++) {
    const held = codePoint <= 0x10ffff && (codePoint < 0xd800 || codePoint > 0xdfff) && matches(String.fromCodePoint(codePoint));
    if (held && start < 0) start = codePoint;
    if (!held && start >= 0) {
      ranges.push(start === codePoint - 1 ? hex(start) : `${hex(start)}-${hex(codePoint - 1)}`);
      start = -1;
    }
  }
  return ranges;
}

describe('displayed text', () => {
  it("holds as invisible exactly the characters Unicode's properties name (the running Node's tables)", () => {
    const invisible = /[\p{White_Space}\p{Cc}\p{Cf}\p{Mn}\p{Me}\p{Default_Ignorable_Code_Point}\p{Noncharacter_Code_Point}\u2800]/u;
    const expected = rangesOf((character) => invisible.test(character));
    // On a difference (a new Unicode version), invisibleCharacters.ts takes these ranges.
    expect(INVISIBLE_CHARACTERS.trim().split(/\s+/)).toEqual(expected);
    expect(rangesOf((character) => !VISIBLE_CHARACTER.test(character))).toEqual(expected);
  }, 30_000);

  it('refuses exactly the control characters, bidirectional controls and line and paragraph separators', () => {
    const forbidden = /[\p{Cc}\p{Bidi_Control}\u2028\u2029]/u;
    expect(rangesOf((character) => displayedTextProblem('name', `a${character}`) !== null)).toEqual(
      rangesOf((character) => forbidden.test(character)),
    );
  }, 30_000);

  // About 4.5 million tests of a pattern: seconds on a loaded machine.
  it('has a pattern that accepts what the rules accept, character by character, read with or without the u flag', () => {
    const patterns = [false, true].flatMap((visible) => {
      const source = displayedTextPattern({ visible });
      return [new RegExp(source), new RegExp(source, 'u')].map((pattern) => ({ visible, pattern }));
    });
    const disagreements: string[] = [];
    for (const character of everyCharacter()) {
      const allowed = displayedTextProblem('name', character) === null;
      // Beyond U+FFFF the pattern sees every character as visible (the one exception, documented with the pattern).
      const visible = allowed && (VISIBLE_CHARACTER.test(character) || character.length === 2);
      for (const { visible: mustBeVisible, pattern } of patterns) {
        const texts = mustBeVisible ? [character, ` ${character}`] : [`a${character}b`];
        for (const text of texts) if (pattern.test(text) !== (mustBeVisible ? visible : allowed)) disagreements.push(text);
      }
    }
    expect(disagreements.map((text) => [...text].map((c) => c.codePointAt(0)!.toString(16)).join(' '))).toEqual([]);
    for (const { visible, pattern } of patterns) {
      expect(pattern.test('')).toBe(!visible);
      expect(pattern.test('  Rex  ')).toBe(true);
    }
  }, 30_000);
});
