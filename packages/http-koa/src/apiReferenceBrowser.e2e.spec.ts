import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { eventsOfCreate } from '@petstore/core';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { CHROMIUM_PATH, chromiumAvailable, launchChromium, type LaunchedChromium } from '@petstore/test-support';
import type { BrowserContext } from 'playwright-core';
import { startTestApi, type TestApi } from './testing/startTestApi.js';
const SCREENSHOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'docs', 'api-reference.png');

jest.setTimeout(90_000);

if (!chromiumAvailable) {
  console.warn(`\n*** ${CHROMIUM_PATH} not found: the API reference browser tests are SKIPPED (apt-get install chromium) ***\n`);
  it.skip('API reference in a real browser (chromium not installed)', () => undefined);
} else {
  describe('GET /docs in headless Chromium', () => {
    let api: TestApi;
    let key: string;
    let chromium: LaunchedChromium;
    let context: BrowserContext;
    let userDataDir: string;
    const requested: string[] = [];

    beforeAll(async () => {
      api = await startTestApi({ now: '2026-06-01T12:00:15Z' });
      key = await api.issueKey('pro');
      for (const name of ['Rex', 'Whiskers', 'Nibbles']) await api.pets.create({ name, categoryId: 1, status: 'available' }, eventsOfCreate());
      userDataDir = mkdtempSync(join(tmpdir(), 'petstore-api-reference-'));
      chromium = await launchChromium({ viewport: { width: 1280, height: 1400 } });
      context = chromium.context;
      context.on('request', (request) => requested.push(request.url()));
    });
    afterAll(async () => {
      await chromium?.close();
      await api?.close();
      if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
    });

    it('renders the operations, the deprecated one with its sunset date, and tries listPets with a key', async () => {
      const page = await context.newPage();
      const consoleErrors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(message.text());
      });
      const response = await page.goto(`${api.baseUrl}/docs`);
      expect(response?.status()).toBe(200);

      for (const operationId of ['listPets', 'createPet', 'getPet']) {
        await expect(page.locator(`#operations-pets-${operationId}`).isVisible({ timeout: 30_000 })).resolves.toBe(true);
      }
      await page.locator('#operations-pets-listPets').waitFor({ state: 'visible', timeout: 30_000 });
      const getPet = page.locator('#operations-pets-getPet');
      await expect(getPet.getAttribute('class')).resolves.toContain('opblock-deprecated');
      await getPet.locator('.opblock-summary-control').click();
      await expect(getPet.locator('.opblock-description-wrapper').innerText({ timeout: 10_000 })).resolves.toContain('Sunset: Thu, 05 Dec 2030');
      await getPet.locator('.opblock-summary-control').click();
      await getPet.locator('.opblock-description-wrapper').waitFor({ state: 'detached' });

      await page.locator('button.authorize').click();
      await page.locator('.auth-container input').fill(key);
      await page.locator('.auth-btn-wrapper button.authorize').click();
      await page.locator('button.btn-done').click();

      const listPets = page.locator('#operations-pets-listPets');
      await listPets.locator('.opblock-summary-control').click();
      await listPets.locator('button.try-out__btn').click();
      const answered = page.waitForResponse((r) => r.url().startsWith(`${api.baseUrl}/v1/pets`));
      await listPets.locator('button.execute').click();
      expect((await answered).status()).toBe(200);
      const live = listPets.locator('.live-responses-table .response');
      await expect(live.locator('.response-col_status').innerText({ timeout: 10_000 })).resolves.toContain('200');
      const shown = await live.locator('.response-col_description').innerText();
      for (const name of ['Rex', 'Whiskers', 'Nibbles']) expect(shown).toContain(name);

      // For the README: from the top down to the live answer, the key in the curl example masked.
      const answer = (await live.boundingBox())!;
      await page.screenshot({
        path: join(userDataDir, 'api-reference.png'),
        fullPage: true,
        clip: { x: 0, y: 0, width: 1280, height: Math.ceil(answer.y + answer.height + 16) },
        mask: [page.locator('.curl-command')],
        maskColor: '#333333',
      });
      if (process.env['UPDATE_DOCS_SCREENSHOT'] === '1') copyFileSync(join(userDataDir, 'api-reference.png'), SCREENSHOT);

      expect(consoleErrors).toEqual([]);
      expect(requested.length).toBeGreaterThan(3);
      const elsewhere = requested.filter((url) => new URL(url).origin !== api.baseUrl);
      expect(elsewhere).toEqual([]);
    });
  });
}
