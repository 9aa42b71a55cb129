/**
 * The query of the `Link: <...>; rel="next"` target, or null on the last page. Only the query is taken: the
 * client sends it to its own base URL, so the API key never goes to a host named in an answer.
 */
export function nextPageQuery(link: string | null): URLSearchParams | null {
  if (!link) return null;
  for (const part of link.split(',')) {
    const match = /<([^>]*)>\s*;(.*)$/.exec(part.trim());
    if (!match || !/(^|;)\s*rel\s*=\s*"?next"?\s*(;|$)/i.test(match[2]!)) continue;
    try {
      return new URL(match[1]!, 'http://relative.invalid').searchParams;
    } catch {
      return null;
    }
  }
  return null;
}
