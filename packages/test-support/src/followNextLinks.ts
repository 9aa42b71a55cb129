/** The target of a `Link: <...>; rel="next"` header, or null. */
export function nextLink(link: string | null | undefined): string | null {
  const match = /<([^>]+)>\s*;\s*rel="next"/.exec(link ?? '');
  return match ? match[1]! : null;
}

/**
 * Every item of a paginated JSON-array listing, following `Link: rel="next"` from `url`. The next page is asked of
 * the same origin as `url` (the links carry the public base URL, which in tests is not where the server listens).
 */
export async function fetchAllPages<T>(url: string, headers: Record<string, string> = {}): Promise<T[]> {
  const items: T[] = [];
  let next: string | null = url;
  while (next) {
    const response: Response = await fetch(next, { headers });
    if (response.status !== 200) throw new Error(`GET ${next} answered ${response.status}: ${await response.text()}`);
    items.push(...((await response.json()) as T[]));
    const link = nextLink(response.headers.get('link'));
    next = link ? new URL(new URL(link).pathname + new URL(link).search, url).href : null;
  }
  return items;
}
