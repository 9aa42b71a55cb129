import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { get } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from '@jest/globals';
import type { Locator, Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const DOCS_IMAGES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'docs', 'console');
const TAKEN = join(tmpdir(), 'petstore-console-screenshots');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * Runs axe-core on the page as it is and fails on any serious or critical violation (WCAG 2.x A and AA and best
 * practices). axe is evaluated through the DevTools protocol, which the page's Content-Security-Policy does not govern.
 */
export async function checkAccessibility(page: Page, name: string): Promise<void> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate<AxeViolation[]>(
    'axe.run(document).then((results) => results.violations.map(({ id, impact, help, nodes }) => ({ id, impact, help, nodes: nodes.map((n) => ({ target: n.target })) })))',
  );
  const serious = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect({ page: name, serious }).toEqual({ page: name, serious: [] });
}

/** A screenshot of the page, copied into docs/console/ with UPDATE_DOCS_SCREENSHOT=1 (secrets masked). */
export async function consoleScreenshot(page: Page, name: string, mask: Locator[] = []): Promise<void> {
  mkdirSync(TAKEN, { recursive: true });
  const path = join(TAKEN, `${name}.png`);
  await page.screenshot({ path, fullPage: true, mask, maskColor: '#333333' });
  if (process.env['UPDATE_DOCS_SCREENSHOT'] === '1') {
    mkdirSync(DOCS_IMAGES, { recursive: true });
    copyFileSync(path, join(DOCS_IMAGES, `${name}.png`));
  }
}

/** The bytes of `path` as the server sends them for `encoding` (node:http leaves the body encoded), and the header. */
function bytesSent(url: string, encoding: string): Promise<{ bytes: number; contentEncoding: string | undefined }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'Accept-Encoding': encoding } }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () => resolve({ bytes, contentEncoding: response.headers['content-encoding'] }));
    }).on('error', reject);
  });
}

/** The bytes of each path as served without compression, with Brotli and with gzip, and their totals. */
export async function consoleSizes(origin: string, paths: readonly string[]) {
  const files: Record<string, { raw: number; brotli: number; gzip: number }> = {};
  for (const path of paths) {
    const [raw, brotli, gzip] = await Promise.all(['identity', 'br', 'gzip'].map((encoding) => bytesSent(`${origin}${path}`, encoding)));
    expect([raw!.contentEncoding, brotli!.contentEncoding, gzip!.contentEncoding]).toEqual([undefined, 'br', 'gzip']);
    files[path] = { raw: raw!.bytes, brotli: brotli!.bytes, gzip: gzip!.bytes };
  }
  const total = (field: 'raw' | 'brotli' | 'gzip') => Object.values(files).reduce((sum, size) => sum + size[field], 0);
  return { files, rawTotal: total('raw'), brotliTotal: total('brotli'), gzipTotal: total('gzip') };
}
