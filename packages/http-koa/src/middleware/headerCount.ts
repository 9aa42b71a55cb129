/**
 * How many times a request carries a header, counted in the raw list: Node keeps the first of some repeated headers
 * (Host, Authorization) and drops the others without a trace. `name` in lower case. Lower-cases only names of the
 * same length, as this runs on every request.
 */
export function headerCount(rawHeaders: readonly string[], name: string): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const raw = rawHeaders[i]!;
    if (raw.length === name.length && raw.toLowerCase() === name) count++;
  }
  return count;
}
