import { nextLink } from '@petstore/test-support';

/**
 * Cold pages: every cursor of the whole table (walked 5 pets at a time), each asked with a limit from 11 to 30, so
 * about 40,000 distinct pages are drawn uniformly at random and no cache of a few thousand pages can help.
 */
export async function coldPaths(port: number, key: string): Promise<string[]> {
  const paths: string[] = [];
  let url: string | null = `http://127.0.0.1:${port}/v1/pets?limit=5`;
  while (url) {
    const response: Response = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
    await response.arrayBuffer();
    const link = nextLink(response.headers.get('link'));
    if (!link) break;
    const next = new URL(link);
    for (let limit = 11; limit <= 30; limit++) paths.push(`/v1/pets?limit=${limit}&cursor=${next.searchParams.get('cursor')}`);
    url = `http://127.0.0.1:${port}/v1/pets${next.search}`;
  }
  return paths;
}

/** The same cold pages for the peer, whose cursor is a plain `after` id. */
export function peerColdPaths(count: number): string[] {
  const paths: string[] = [];
  for (let after = 0; after < count; after += 5) for (let limit = 11; limit <= 30; limit++) paths.push(`/v1/pets?limit=${limit}&after=${after}`);
  return paths;
}
