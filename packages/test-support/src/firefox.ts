import { existsSync } from 'node:fs';
import type { Browser } from 'puppeteer-core';

export type { Browser as FirefoxBrowser } from 'puppeteer-core';

/** Firefox from the Debian package (`apt-get install firefox-esr`), or FIREFOX_PATH. */
export const FIREFOX_PATH = process.env['FIREFOX_PATH'] ?? '/usr/bin/firefox-esr';

/**
 * Whether the Firefox browser tests run: they are skipped, with a warning, where Firefox is not installed; never in
 * CI, which installs it (a missing browser fails there).
 */
export const firefoxAvailable = existsSync(FIREFOX_PATH) || Boolean(process.env['CI']);

/**
 * Headless Firefox driven over WebDriver BiDi by puppeteer-core (Playwright drives only its own patched Firefox
 * builds), with a fresh profile that puppeteer deletes when the browser closes. The preferences keep Firefox from
 * calling home.
 */
export async function launchFirefox(): Promise<Browser> {
  // Loaded here, not with this module: every suite imports the test support, few start a browser.
  const { default: puppeteer } = await import('puppeteer-core');
  return puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    extraPrefsFirefox: {
      'app.update.enabled': false,
      'browser.shell.checkDefaultBrowser': false,
      'datareporting.policy.dataSubmissionEnabled': false,
      'network.captive-portal-service.enabled': false,
      'network.connectivity-service.enabled': false,
      'toolkit.telemetry.reportingpolicy.firstRun': false,
    },
  });
}
