import { INVISIBLE_CHARACTERS } from './invisibleCharacters.js';

// The characters no displayed text may hold, as hex code points and ranges: controls (Cc), and the bidirectional
// controls and line and paragraph separators that reorder or break the text around a name wherever it is shown
// (Trojan Source, CVE-2021-42574).
const CONTROLS = '0000-001F 007F-009F';
const BIDI_CONTROLS_AND_SEPARATORS = '061C 200E-200F 202A-202E 2066-2069 2028-2029';

/** A regular-expression class body for hex code points and ranges (`\uXXXX`, or `\u{X}` beyond U+FFFF). */
function characterClass(ranges: string): string {
  const character = (hex: string) => (hex.length > 4 ? `\\u{${hex}}` : `\\u${hex}`);
  return ranges
    .trim()
    .split(/\s+/)
    .map((range) => range.split('-').map(character).join('-'))
    .join('');
}

/** The ranges of the Basic Multilingual Plane alone (no range of the table crosses U+FFFF). */
const basicPlane = (ranges: string) =>
  ranges
    .trim()
    .split(/\s+/)
    .filter((range) => range.split('-').every((hex) => hex.length === 4))
    .join(' ');

const FORBIDDEN = characterClass(`${CONTROLS} ${BIDI_CONTROLS_AND_SEPARATORS}`);
const CONTROL = new RegExp(`[${characterClass(CONTROLS)}]`, 'u');
const BIDI_OR_SEPARATOR = new RegExp(`[${characterClass(BIDI_CONTROLS_AND_SEPARATORS)}]`, 'u');
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Something a reader can see: a character outside INVISIBLE_CHARACTERS. */
export const VISIBLE_CHARACTER = new RegExp(`[^${characterClass(INVISIBLE_CHARACTERS)}]`, 'u');

// What JSON Schema validators of every dialect read alike (ECMA-262 with or without the `u` flag, Python's `re`, ...):
// `\uXXXX` escapes of the Basic Multilingual Plane only. Beyond it a character is two UTF-16 units to some of them.
const VISIBLE_IN_BASIC_PLANE = `[^${characterClass(basicPlane(INVISIBLE_CHARACTERS))}]`;

/**
 * The rule of displayed text as a pattern, for JSON Schema's `pattern`: none of the forbidden characters and, when
 * `visible`, at least one visible character. The OpenAPI documents take their patterns from here, so a validator
 * built from them refuses what `displayedTextProblem` and the visible-character rule refuse, with two exceptions no
 * portable pattern can name, which the server alone refuses: unpaired surrogates, and text without a visible character
 * in which some invisible character lies beyond U+FFFF (tag characters, supplementary variation selectors, ...).
 */
export function displayedTextPattern({ visible }: { visible: boolean }): string {
  return visible ? `^[^${FORBIDDEN}]*${VISIBLE_IN_BASIC_PLANE}[^${FORBIDDEN}]*$` : `^[^${FORBIDDEN}]*$`;
}

/**
 * Why `text`, a name people will see in tables, logs and pages, cannot be stored as it is (the message names
 * `field`), or null. JSON may carry unpaired surrogates ("\ud800"), which no database can store as text.
 */
export function displayedTextProblem(field: string, text: string): string | null {
  if (BIDI_OR_SEPARATOR.test(text)) return `${field} must not contain bidirectional controls or line or paragraph separators`;
  if (CONTROL.test(text)) return `${field} must not contain control characters`;
  if (LONE_SURROGATE.test(text)) return `${field} must be valid Unicode text (no unpaired surrogates)`;
  return null;
}

/**
 * Unicode code points: what JSON Schema's `maxLength` counts, so the served document and the rules agree (a flag
 * is two, a family emoji seven; a letter with a thousand combining marks is a thousand and one).
 */
export function codePointCount(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xdc00 || unit > 0xdfff || i === 0 || text.charCodeAt(i - 1) < 0xd800 || text.charCodeAt(i - 1) > 0xdbff) count++;
  }
  return count;
}
