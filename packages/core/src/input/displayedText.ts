const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const CONTROL = /\p{Cc}/u;
// Characters that reorder or break the text around the name wherever it is shown (Trojan Source, CVE-2021-42574).
const BIDI_OR_SEPARATOR = /[\p{Bidi_Control}\u2028\u2029]/u;

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
