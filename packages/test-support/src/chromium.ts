import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';

/** Chromium from the Debian package (`apt-get install chromium`, done by .ci/run), or CHROMIUM_PATH. */
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/**
 * Whether the browser suites run: Chromium is installed, or this is CI (where its absence must fail the suite like a
 * missing PostgreSQL or Redis would, rather than skip it).
 */
export const chromiumAvailable = existsSync(CHROMIUM_PATH) || Boolean(process.env['CI']);

export interface LaunchedChromium {
  context: BrowserContext;
  /** Closes the browser and deletes its profile. */
  close(): Promise<void>;
}

/**
 * Headless Chromium with a fresh profile. A persistent context is how Playwright takes a user-data-dir; the flags keep
 * Chromium from calling home (without them its own background connections get refused many at a time).
 */
export async function launchChromium(options: { viewport?: { width: number; height: number } } = {}): Promise<LaunchedChromium> {
  // Loaded here, not with this module: every suite imports the test support, few start a browser (about 1 CPU-s each).
  const { chromium } = await import('playwright-core');
  const userDataDir = mkdtempSync(join(tmpdir(), 'petstore-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
    viewport: options.viewport ?? { width: 1280, height: 1000 },
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
