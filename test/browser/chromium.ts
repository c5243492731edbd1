import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium, or another binary named by ADIS_CHROMIUM. */
export const CHROMIUM = process.env.ADIS_CHROMIUM ?? '/usr/bin/chromium';

/** ADIS_REQUIRE_BROWSER=1 (CI): a missing Chromium fails the tests instead of skipping them. */
export const REQUIRED = process.env.ADIS_REQUIRE_BROWSER === '1';

/** Why the browser tests cannot run here, or undefined when they can. */
export const SKIP_REASON = existsSync(CHROMIUM)
  ? undefined
  : `no Chromium at ${CHROMIUM} (install it with: apt-get install -y chromium)`;

/**
 * Launches Chromium headless, or returns undefined after warning when there is none
 * (and throws instead under ADIS_REQUIRE_BROWSER=1).
 */
export async function launchChromium(): Promise<Browser | undefined> {
  if (SKIP_REASON) {
    if (REQUIRED) throw new Error(`ADIS_REQUIRE_BROWSER=1 but ${SKIP_REASON}`);
    console.warn(`browser tests skipped: ${SKIP_REASON}; ADIS_REQUIRE_BROWSER=1 fails instead`);
    return undefined;
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    // Without the background-networking flags Chromium keeps calling Google's hosts,
    // which this machine's closed network refuses.
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
