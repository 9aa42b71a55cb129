import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  CHROMIUM_PATH,
  chromiumAvailable,
  eventually,
  FIREFOX_PATH,
  firefoxAvailable,
  launchChromium,
  launchFirefox,
  spawnServer,
  STOPPED_AT_ONCE,
  type FirefoxBrowser,
  type LaunchedChromium,
  type ServerProcess,
} from '@petstore/test-support';
import type { Locator, Page } from 'playwright-core';
import { checkAccessibility, consoleScreenshot, consoleSizes } from './testing/consolePages.js';
import { seedConsoleVolume } from './testing/seedConsoleVolume.js';

const ADMIN_TOKEN = 'console-e2e-admin-token-7d2f9a4c1e8b5d3f6a0c9e2b4d7f1a3c';
const XSS = '<img src=x onerror=alert(1)>';

/** A webhook receiver on loopback whose status and body the test sets. */
async function startReceiver() {
  const receiver = { status: 200, body: 'ok', received: 0, server: undefined as unknown as Server, url: '' };
  receiver.server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      receiver.received += 1;
      res.writeHead(receiver.status, { 'Content-Type': 'text/html' }).end(receiver.body);
    });
  });
  await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/hooks`;
  return receiver;
}

if (!chromiumAvailable) {
  console.warn(`\n*** ${CHROMIUM_PATH} not found: the console's browser tests are SKIPPED (apt-get install chromium) ***\n`);
  it.skip('the operator console in a real browser (chromium not installed)', () => undefined);
} else {
  describe('the operator console, in headless Chromium against the built server', () => {
    let work: string;
    let server: ServerProcess;
    let origin: string;
    let chromium: LaunchedChromium;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    /** Launched at the start, beside the server and Chromium: Firefox takes seconds to start, mostly waiting. */
    let firefox: Promise<FirefoxBrowser> | undefined;
    const requested: string[] = [];
    const dialogs: string[] = [];
    const pageErrors: string[] = [];

    beforeAll(async () => {
      work = await mkdtemp(join(tmpdir(), 'petstore-console-'));
      if (firefoxAvailable) {
        firefox = launchFirefox();
        // Reported by the Firefox test, which awaits it.
        firefox.catch(() => undefined);
      }
      receiver = await startReceiver();
      [server, chromium] = await Promise.all([
        spawnServer({
          ...STOPPED_AT_ONCE,
          DATABASE_URL: `sqlite:${join(work, 'petstore.db')}`,
          ADMIN_TOKEN,
          ADMIN_PORT: '0',
          // Loopback receivers; a failed delivery's retry is scheduled 10 minutes on, so the test sees it waiting.
          WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
          WEBHOOK_RETRY_SCHEDULE_MS: '600000',
          WEBHOOK_POLL_INTERVAL_MS: '50',
          KEY_USAGE_FLUSH_MS: '200',
        }),
        launchChromium(),
      ]);
      origin = new URL(server.adminUrl!).origin;
      chromium.context.on('request', (request) => requested.push(request.url()));
      await chromium.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    }, 60_000);
    afterAll(async () => {
      await chromium?.close();
      await (await firefox?.catch(() => undefined))?.close();
      await server?.stop();
      receiver?.server.closeAllConnections();
      await new Promise((resolve) => receiver?.server.close(resolve));
      if (work) await rm(work, { recursive: true, force: true });
    });

    /** A new tab on the console, watched for dialogs and script errors. */
    async function openConsole(path = ''): Promise<Page> {
      const page = await chromium.context.newPage();
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      page.on('pageerror', (error) => pageErrors.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error' && !/status of (401|409|412|422|400)/.test(message.text()))
          pageErrors.push(`${page.url()}: ${message.text()} ${JSON.stringify(message.location())}`);
      });
      await page.goto(`${origin}/console${path}`);
      return page;
    }
    async function signIn(page: Page): Promise<void> {
      await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
    }
    const go = async (page: Page, hash: string, heading: string | RegExp) => {
      await page.evaluate(`location.hash = ${JSON.stringify(hash)}`);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    };

    it('is served by the admin listener alone, with hashed assets cached for good and a strict policy', async () => {
      const page = await fetch(`${origin}/console`, { headers: { 'Accept-Encoding': 'br' } });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toBe(
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
          "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      );
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      expect(page.headers.get('cache-control')).toBe('no-cache');
      const html = await page.text();
      const assets = [...html.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((match) => match[1]!);
      expect(assets).toHaveLength(2);
      expect(html).not.toMatch(/<script>|<style|style=|https?:\/\//);
      for (const asset of assets) {
        expect(asset).toMatch(/-[A-Z0-9]{8}\.(js|css)$/);
        const answer = await fetch(`${origin}${asset}`);
        expect(answer.status).toBe(200);
        expect(answer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        expect(answer.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      }
      // What a browser downloads on the first visit, compressed as it is sent.
      const sizes = await consoleSizes(origin, ['/console', ...assets]);
      console.info(`console first load: ${JSON.stringify(sizes)}`);
      expect(sizes.brotliTotal).toBeLessThan(150 * 1024);

      expect((await fetch(`${server.url.replace(/\/v1$/, '')}/console`)).status).toBe(404);
      expect((await fetch(`${origin}/console/assets/nothing.js`)).status).toBe(404);
      expect((await fetch(`${origin}/console`, { method: 'POST' })).status).toBe(405);
    });

    it('signs in with the admin token only, keeps it for the tab, and returns to the sign-in page on any 401', async () => {
      const page = await openConsole();
      await checkAccessibility(page, 'sign-in');
      await page.getByLabel('Admin token').fill('not-the-token-at-all-but-long-enough-0000');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByRole('alert').innerText()).resolves.toContain('That is not the admin token of this server');
      await consoleScreenshot(page, 'sign-in');

      await signIn(page);
      await expect(page.evaluate<number>('sessionStorage.length')).resolves.toBe(1);
      expect(await chromium.context.cookies()).toEqual([]);

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      await expect(page.evaluate<number>('sessionStorage.length')).resolves.toBe(0);

      // With the keyboard alone: Tab to the token, Enter to sign in, Tab along the sections, Enter to open one.
      await page.reload();
      await page.keyboard.press('Tab');
      await page.keyboard.type(ADMIN_TOKEN);
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      for (let i = 0; i < 3; i++) await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Keys' }).waitFor();

      // A token that stops working (ADMIN_TOKEN changed, say): the next call's 401 brings the sign-in page back.
      await page.evaluate(`sessionStorage.setItem('petstore-console-token', 'a-token-the-server-no-longer-takes-000000')`);
      await page.reload();
      await expect(page.getByRole('status').innerText()).resolves.toContain('The admin token was refused');
      await expect(page.evaluate<number>('sessionStorage.length')).resolves.toBe(0);
      await page.close();

      const withToken = requested.filter((url) => url.includes(ADMIN_TOKEN));
      expect(withToken).toEqual([]);
      expect(server.output()).not.toContain(ADMIN_TOKEN);
    });

    it('adds animals with the API own messages, changes their status, and tells the second of two tabs what happened (412)', async () => {
      const page = await openConsole('#/animals');
      await signIn(page);
      await page.getByRole('heading', { level: 1, name: 'Animals' }).waitFor();

      await page.getByLabel('Name').fill('');
      await page.getByLabel('Category id').fill('0');
      await page.getByRole('button', { name: 'Add', exact: true }).click();
      await expect(page.locator('#pet-name-problem').innerText()).resolves.toMatch(/name/i);
      await expect(page.locator('#pet-category-problem').innerText()).resolves.toMatch(/categoryId/);
      await expect(page.getByLabel('Name').getAttribute('aria-invalid')).resolves.toBe('true');

      for (const name of ['Rex', XSS]) {
        await page.getByLabel('Name').fill(name);
        await page.getByLabel('Category id').fill('1');
        await page.getByRole('button', { name: 'Add', exact: true }).click();
        await expect(page.getByRole('status').innerText()).resolves.toContain(`Added ${name}`);
      }
      await page.getByRole('link', { name: XSS }).waitFor();
      await checkAccessibility(page, 'animals');
      await consoleScreenshot(page, 'animals');

      await page.getByLabel('Status').selectOption('sold');
      await page.getByText('No animals.').waitFor();
      await page.getByLabel('Status').selectOption('');
      await page.getByRole('link', { name: 'Rex' }).click();
      await page.getByRole('heading', { name: /^Animal \d+$/ }).waitFor();
      const rex = page.url();

      const second = await openConsole(new URL(rex).hash);
      await signIn(second);
      await second.getByTestId('pet-status').waitFor();
      await expect(second.getByRole('button', { name: /^Mark / }).allInnerTexts()).resolves.toEqual(['Mark pending', 'Mark sold']);

      await page.getByRole('button', { name: 'Mark pending' }).click();
      await expect(page.getByRole('status').innerText()).resolves.toBe('Status changed to pending.');
      await second.getByRole('button', { name: 'Mark sold' }).click();
      await expect(second.getByRole('alert').innerText()).resolves.toContain('Someone else changed this animal first');
      await expect(second.getByTestId('pet-status').innerText()).resolves.toBe('pending');
      await expect(second.getByRole('button', { name: /^Mark / }).allInnerTexts()).resolves.toEqual(['Mark available', 'Mark sold']);
      await checkAccessibility(second, 'animal');
      await consoleScreenshot(second, 'animal-412');
      await second.getByRole('button', { name: 'Mark sold' }).click();
      await second.getByText('Sold is final').waitFor();
      await second.close();
      await page.close();
    });

    it('creates a key, copies its secret once, and shows its use from Node in the usage chart', async () => {
      const page = await openConsole('#/keys');
      await signIn(page);
      await page.getByRole('heading', { level: 1, name: 'Keys' }).waitFor();
      await page.getByLabel('Name', { exact: true }).fill(XSS);
      await page.getByLabel('Plan', { exact: true }).selectOption('pro');
      await page.getByLabel("Requests per day (empty: the plan's)").fill('many');
      await page.getByRole('button', { name: 'Create key' }).click();
      await expect(page.locator('#key-per-day-problem').innerText()).resolves.toMatch(/perDay/);
      await page.getByLabel("Requests per day (empty: the plan's)").fill('50');
      await page.getByRole('button', { name: 'Create key' }).click();
      // The API's rule, in its words: a day allows no fewer requests than a minute (pro: 600 a minute).
      await expect(page.locator('#key-per-day-problem').innerText()).resolves.toMatch(/perMinute/);
      await page.getByLabel("Requests per minute (empty: the plan's)").fill('10');
      await page.getByRole('button', { name: 'Create key' }).click();
      const secret = await page.getByTestId('secret').innerText();
      expect(secret).toMatch(/^pst_/);
      await page.getByRole('button', { name: 'Copy' }).click();
      await page.getByRole('button', { name: 'Copied' }).waitFor();
      await expect(page.evaluate<string>('navigator.clipboard.readText()')).resolves.toBe(secret);
      await checkAccessibility(page, 'keys');
      await consoleScreenshot(page, 'keys', [page.getByTestId('secret')]);

      await page.getByLabel('Name contains').fill('onerror');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByRole('link', { name: XSS }).click();
      await page.getByTestId('usage-total').filter({ hasText: '0 requests admitted and 0 refused' }).waitFor();

      // Used until its limit refuses it: 10 a minute, 50 a day, so within 51 requests whenever the minute turns.
      let admitted = 0;
      for (;;) {
        const used = await fetch(`${server.url}/pets`, { headers: { Authorization: `Bearer ${secret}` } });
        await used.arrayBuffer();
        if (used.status === 429) break;
        expect(used.status).toBe(200);
        admitted += 1;
        expect(admitted).toBeLessThanOrEqual(50);
      }
      const total = `${admitted} requests admitted and 1 refused by the rate limit in these 30 days`;
      await eventually(
        async () => {
          await page.getByRole('button', { name: 'Refresh usage' }).click();
          return (await page.getByTestId('usage-total').innerText()) === total;
        },
        { timeoutMs: 15_000, intervalMs: 300 },
      );
      await page.locator('.uplot canvas').first().waitFor();
      await checkAccessibility(page, 'key');
      await consoleScreenshot(page, 'key');

      await page.getByRole('button', { name: 'Revoke' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
      await expect(page.getByTestId('key-status').innerText()).resolves.toBe('active');
      await page.getByRole('button', { name: 'Revoke' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
      await page.getByTestId('key-status').filter({ hasText: 'revoked' }).waitFor();
      await page.getByRole('cell', { name: 'key.revoked' }).waitFor();
      await page.close();
    });

    it('subscribes a receiver, shows the delivery, then the failure and its retry waiting, and resends', async () => {
      const page = await openConsole('#/webhooks');
      await signIn(page);
      await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
      await page.getByLabel('URL').fill(receiver.url);
      await page.getByLabel('Description').fill(XSS);
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      await expect(page.getByTestId('secret').innerText()).resolves.toMatch(/^whsec_/);
      await checkAccessibility(page, 'webhooks');
      await page.getByRole('link', { name: receiver.url }).click();
      await page.getByRole('heading', { level: 1, name: 'Endpoint' }).waitFor();
      const endpoint = new URL(page.url()).hash;

      const createAnimal = async (name: string) => {
        const animals = await openConsole('#/animals');
        await signIn(animals);
        await animals.getByLabel('Name').fill(name);
        await animals.getByRole('button', { name: 'Add', exact: true }).click();
        await animals.getByRole('status').waitFor();
        await animals.close();
      };
      const attemptsWith = async (status: string) => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        return page
          .locator('tbody tr')
          .filter({ has: page.getByRole('cell', { name: status, exact: true }) })
          .count();
      };

      await createAnimal('Delivered');
      await eventually(async () => (await attemptsWith('200')) === 1, { timeoutMs: 15_000, intervalMs: 200 });

      receiver.status = 500;
      receiver.body = XSS;
      await createAnimal('Refused');
      await eventually(async () => (await attemptsWith('500')) === 1, { timeoutMs: 15_000, intervalMs: 200 });
      // The receiver's answer, kept as it came: shown as text.
      await page.locator('code.response').filter({ hasText: XSS }).waitFor();
      // Its retry, scheduled 10 minutes on (give or take 10 %); none after the success.
      const rowWith = (status: string) => page.locator('tbody tr').filter({ has: page.getByRole('cell', { name: status, exact: true }) });
      const retryAt = Date.parse((await rowWith('500').locator('time').getAttribute('datetime')) ?? '');
      expect(retryAt - Date.now()).toBeGreaterThan(8 * 60_000);
      expect(retryAt - Date.now()).toBeLessThanOrEqual(11 * 60_000);
      await expect(rowWith('200').locator('time').count()).resolves.toBe(0);
      await checkAccessibility(page, 'endpoint');
      await consoleScreenshot(page, 'endpoint');

      const overview = await openConsole('#/overview');
      await signIn(overview);
      await overview
        .getByTestId('webhook-pending')
        .filter({ hasText: /^[1-9]/ })
        .waitFor();
      await overview.getByTestId('requests-per-minute').filter({ hasText: /^\d+$/ }).waitFor({ timeout: 15_000 });
      await checkAccessibility(overview, 'overview');
      await consoleScreenshot(overview, 'overview');
      await overview.close();

      receiver.status = 200;
      receiver.body = 'ok';
      await page
        .locator('tbody tr')
        .filter({ has: page.getByRole('cell', { name: '500', exact: true }) })
        .getByRole('button', { name: /^Resend/ })
        .click();
      await expect(page.getByRole('status').innerText()).resolves.toMatch(/^Event evt_\w+ queued again/);
      await eventually(async () => (await attemptsWith('200')) === 2, { timeoutMs: 15_000, intervalMs: 200 });

      await go(page, '#/events', 'Events');
      await page.getByRole('cell', { name: 'pet.created' }).first().waitFor();
      await checkAccessibility(page, 'events');
      await go(page, endpoint, 'Endpoint');
      await page.getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
      await page.getByText('No endpoints.').waitFor();
      await page.close();
    });

    it('shows the first screen of every page in under a second with 10,000 keys and 100,000 delivery attempts', async () => {
      const { keyId, endpointId } = seedConsoleVolume(join(work, 'petstore.db'), { keys: 10_000, attempts: 100_000 });
      const page = await openConsole();
      await signIn(page);
      const firstScreens: [string, string, (page: Page) => Locator][] = [
        ['overview', '#/overview', (p) => p.getByTestId('webhook-pending')],
        ['animals', '#/animals', (p) => p.locator('tbody tr').first()],
        ['keys', '#/keys', (p) => p.locator('tbody tr').nth(19)],
        ['keys, searched', '#/keys', (p) => p.locator('tbody tr').first()],
        ['key', `#/keys/${keyId}`, (p) => p.locator('.uplot canvas').first()],
        ['webhooks', '#/webhooks', (p) => p.locator('tbody tr').first()],
        ['endpoint', `#/webhooks/${endpointId}`, (p) => p.locator('tbody tr').nth(19)],
        ['events', '#/events', (p) => p.locator('tbody tr').first()],
      ];
      /** From the navigation to the page's first screen, in ms. */
      const firstScreenOf = async (name: string, hash: string, firstScreen: (page: Page) => Locator) => {
        const started = Date.now();
        await page.goto(`${origin}/console${hash}`);
        if (name === 'keys, searched') {
          await page.getByLabel('Name contains').fill('volume key 09999');
          await page.getByRole('button', { name: 'Search' }).click();
          await page.getByRole('link', { name: 'volume key 09999' }).waitFor();
        }
        await firstScreen(page).waitFor();
        return Date.now() - started;
      };
      const timings: Record<string, number> = {};
      for (const [name, hash, firstScreen] of firstScreens) {
        // A fresh load of the page (its assets from the browser's cache), as an operator opening a bookmark; the
        // better of two, so that a moment when the shared machine's cores are busy elsewhere is not taken for the page.
        timings[name] = await firstScreenOf(name, hash, firstScreen);
        if (timings[name] >= 1_000) timings[name] = Math.min(timings[name], await firstScreenOf(name, hash, firstScreen));
      }
      console.info(`console first screens with 10,000 keys and 100,000 attempts (ms): ${JSON.stringify(timings)}`);
      expect(Object.entries(timings).filter(([, ms]) => ms >= 1_000)).toEqual([]);
      await page.close();
    });

    if (!firefoxAvailable) console.warn(`\n*** ${FIREFOX_PATH} not found: the console's Firefox test is SKIPPED (apt-get install firefox-esr) ***\n`);
    (firefoxAvailable ? it : it.skip)('signs in and shows every page in Firefox too (puppeteer-core over WebDriver BiDi)', async () => {
      const page = await (await firefox!).newPage();
      try {
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(String(error)));
        page.on('console', (message) => {
          if (message.type() === 'error') errors.push(message.text());
        });
        await page.setViewport({ width: 1280, height: 1000 });
        await page.goto(`${origin}/console`);
        await page.type('#token', ADMIN_TOKEN);
        await page.click('button[type=submit]');
        /** Follows the first link matching `link`, then waits for the page's heading and its first screen (`ready`). */
        const show = async (link: string, heading: RegExp, ready: string) => {
          await page.waitForSelector(link);
          await page.click(link);
          await page.waitForFunction(
            `${heading}.test(document.querySelector('h1')?.textContent ?? '') && !!document.querySelector(${JSON.stringify(ready)})`,
            { timeout: 15_000 },
          );
        };
        await show('nav a[href="#/overview"]', /^Overview$/, '[data-testid=webhook-pending]');
        await show('nav a[href="#/animals"]', /^Animals$/, 'tbody tr');
        await show('tbody a[href^="#/animals/"]', /^Animal \d+$/, 'dl');
        await show('nav a[href="#/keys"]', /^Keys$/, 'tbody tr');
        await show('tbody a[href^="#/keys/"]', /^Key /, '.uplot canvas');
        await show('nav a[href="#/webhooks"]', /^Webhooks$/, 'tbody tr');
        await show('tbody a[href^="#/webhooks/"]', /^Endpoint$/, 'tbody tr');
        await show('nav a[href="#/events"]', /^Events$/, 'tbody tr');
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    });

    it('ran no script of anyone else: no dialog, no request for the image, no request off the listener', () => {
      expect(dialogs).toEqual([]);
      expect(pageErrors).toEqual([]);
      expect(requested.filter((url) => new URL(url).pathname.endsWith('/x'))).toEqual([]);
      expect(requested.filter((url) => new URL(url).origin !== origin)).toEqual([]);
    });
  });
}
