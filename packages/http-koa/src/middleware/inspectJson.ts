/** How deep objects and arrays may nest in a request body: far more than a NewPet needs, far less than a stack. */
export const MAX_JSON_DEPTH = 64;

export interface JsonInspection {
  /** The first key that appears twice in one object, or null. */
  duplicateKey: string | null;
  /** True when objects and arrays nest deeper than MAX_JSON_DEPTH. */
  tooDeep: boolean;
  /** The source text of each number that is a direct property of a top-level object, by key. */
  topLevelNumbers: Map<string, string>;
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);

/**
 * Looks at a JSON text that JSON.parse accepted, for what the parsed value no longer shows: repeated keys (the last
 * one wins silently), nesting depth, and the literal text of numbers (`1.0` and `4.9999999999999999` both parse to
 * integers). One pass, iterative (no recursion that a deeply nested input could exhaust), and it stops at the first
 * level past MAX_JSON_DEPTH.
 */
export function inspectJson(text: string): JsonInspection {
  const result: JsonInspection = { duplicateKey: null, tooDeep: false, topLevelNumbers: new Map() };
  // One entry per open container: the keys seen so far for an object, null for an array.
  const open: (Set<string> | null)[] = [];
  let pendingKey: string | null = null; // the key whose value comes next, in the innermost object
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (WHITESPACE.has(c) || c === ',' || c === ':') {
      i++;
    } else if (c === '{' || c === '[') {
      if (open.length >= MAX_JSON_DEPTH) return { ...result, tooDeep: true };
      open.push(c === '{' ? new Set() : null);
      pendingKey = null;
      i++;
    } else if (c === '}' || c === ']') {
      open.pop();
      pendingKey = null;
      i++;
    } else if (c === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const inner = open[open.length - 1];
      const isKey = inner instanceof Set && pendingKey === null && nextSignificant(text, end + 1) === ':';
      if (isKey) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (inner.has(key)) result.duplicateKey ??= key;
        inner.add(key);
        pendingKey = key;
      } else {
        pendingKey = null;
      }
      i = end + 1;
    } else {
      // A number, true, false or null: up to the next delimiter.
      let end = i;
      while (end < text.length && !WHITESPACE.has(text[end]!) && !',:]}'.includes(text[end]!)) end++;
      if (open.length === 1 && pendingKey !== null && (c === '-' || (c >= '0' && c <= '9'))) {
        result.topLevelNumbers.set(pendingKey, text.slice(i, end));
      }
      pendingKey = null;
      i = end;
    }
  }
  return result;
}

function nextSignificant(text: string, from: number): string | undefined {
  let i = from;
  while (i < text.length && WHITESPACE.has(text[i]!)) i++;
  return text[i];
}
