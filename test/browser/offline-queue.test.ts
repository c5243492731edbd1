/**
 * The signup widget's offline queue in a real browser (headless Chromium, as
 * widget.test.ts): a signature made offline is kept on the device (IndexedDB) with its
 * Idempotency-Key, survives a reload, and is sent when the browser is back online,
 * counted once by the reference server; the server's 503 and 429 on the way back are
 * waited out as Retry-After asks; two tabs open when the connection returns send it
 * once; a signature the server refuses leaves the queue and is shown; and where
 * IndexedDB is unavailable the widget says so and sends directly.
 *
 * "Offline" is Chromium's network emulation (`context.setOffline`, which also fires the
 * page's `online` event when it ends); "the server unreachable" while the page itself
 * loads is a route that aborts every request to the API's origin.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { build } from 'tsup';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildWidget } from '../../examples/signup-widget/build.js';
import type { RunningServer } from '../../reference-server/src/index.js';
import { type Client, connect, type PetitionResource } from '../../src/index.js';
import { browserHelpers } from '../../tsup.config.js';
import { type TestServer, testServer } from '../e2e/reference-server.js';
import { launchChromium, SKIP_REASON } from './chromium.js';
import { type StaticServer, serveStatic } from './static-server.js';

const WIDGET_DIR = fileURLToPath(new URL('../../examples/signup-widget/', import.meta.url));

let api: TestServer;
let running: RunningServer;
let site: StaticServer;
let browser: Browser | undefined;
let client: Client;
/** A page of its own with the no-bundler file beside it: the queue's API called directly. */
let bare: StaticServer;
let bareFolder: string;

beforeAll(async () => {
  browser = await launchChromium();
  if (!browser) return;
  await buildWidget();
  api = testServer();
  running = await api.listen();
  client = await connect(running.entryPoint, { apiKey: api.keys.write });
  // The page's form points at the petition named by ?href=.
  site = await serveStatic(WIDGET_DIR, (url, html) =>
    html.replace(
      /data-helper-href="[^"]*"/,
      `data-helper-href="${url.searchParams.get('href') ?? ''}"`,
    ),
  );
  bareFolder = mkdtempSync(join(tmpdir(), 'adis-queue-'));
  await build({ ...browserHelpers, outDir: bareFolder, silent: true, config: false });
  writeFileSync(join(bareFolder, 'index.html'), '<!doctype html><title>queue</title>');
  bare = await serveStatic(bareFolder);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await bare?.close();
  await api?.close();
  if (bareFolder) rmSync(bareFolder, { recursive: true, force: true });
});

/** What the widget says of one signature saved on the device, and of a saved one sent. */
const ONE_SAVED = '1 signature saved on this device: it will be sent when the connection is back.';
const SAVED_SENT = 'Your saved signature has been sent and recorded. Thank you!';

/** A new petition and its helper href, so that each test counts its own signatures. */
async function newPetition(title: string): Promise<{ petition: PetitionResource; href: string }> {
  const petition = await client.petitions.create({ title });
  const link = petition.link('std:record_signature_helper');
  if (!link) throw new Error('the petition has no std:record_signature_helper link');
  return { petition, href: link.href };
}

/** A fresh browser context (its own IndexedDB), recording the POSTs to `href` and their times. */
async function openContext(
  href: string,
): Promise<{ context: BrowserContext; posts: number[]; open: () => Promise<Page> }> {
  if (!browser) throw new Error('no browser');
  const context = await browser.newContext();
  const posts: number[] = [];
  context.on('request', (request) => {
    if (request.url() === href && request.method() === 'POST') posts.push(Date.now());
  });
  const open = async () => {
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const errors: Error[] = [];
    page.on('pageerror', (error) => errors.push(error));
    await page.goto(`${site.url}?href=${encodeURIComponent(href)}`);
    return page;
  };
  return { context, posts, open };
}

async function sign(page: Page, email: string): Promise<void> {
  await page.getByLabel('Given name').fill('Ana');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Sign' }).click();
}

/** Waits until the status region has `className` and says `text`. */
async function statusSays(page: Page, className: string, text: string | RegExp): Promise<void> {
  await page.locator(`[role="status"].${className}`).filter({ hasText: text }).waitFor();
}

/** Waits until the pending line (a live region) says `text`, or is empty for `null`. */
async function pendingSays(page: Page, text: string | null): Promise<void> {
  const pending = page.locator('[data-queue-pending][aria-live="polite"]');
  if (text === null) await pending.waitFor({ state: 'hidden' });
  else await pending.filter({ hasText: text }).waitFor();
}

/** The browser's connection drops and comes back: the page gets `offline`, then `online`. */
async function reconnect(context: BrowserContext): Promise<void> {
  await context.setOffline(true);
  await context.setOffline(false);
}

async function signatureCount(petition: PetitionResource): Promise<number> {
  return (await petition.signatures().toArray()).length;
}

describe('the signup widget offline, in Chromium', () => {
  test('offline: a signature is saved, survives a reload, and is sent once when back online', async (ctx) => {
    ctx.skip(SKIP_REASON !== undefined, SKIP_REASON);
    const { petition, href } = await newPetition('Offline: reload');
    const { context, posts, open } = await openContext(href);
    const page = await open();
    await context.setOffline(true);
    await sign(page, 'ana.offline@example.org');
    await statusSays(page, 'status--queued', 'Saved: it will be sent when you are back online.');
    await pendingSays(page, ONE_SAVED);
    expect(posts).toEqual([]); // offline: not even tried

    // Back online, but the server cannot be reached: the call stays saved, through a reload.
    const apiOrigin = `${running.url}/**`;
    await context.route(apiOrigin, (route) => route.abort('internetdisconnected'));
    await context.setOffline(false);
    await page.reload();
    await pendingSays(page, ONE_SAVED);
    expect(await signatureCount(petition)).toBe(0);

    await context.unroute(apiOrigin);
    await reconnect(context);
    await statusSays(page, 'status--success', SAVED_SENT);
    await pendingSays(page, null);
    expect(await signatureCount(petition)).toBe(1);
    const [signature] = await petition.signatures().toArray();
    expect((await signature!.person()).data.email_addresses?.[0]?.address).toBe(
      'ana.offline@example.org',
    );
    await context.close();
  });

  test('offline: a 503 and a 429 on the way back are waited out as Retry-After asks, one signature', async (ctx) => {
    ctx.skip(SKIP_REASON !== undefined, SKIP_REASON);
    const { petition, href } = await newPetition('Offline: 503 and 429');
    const { context, posts, open } = await openContext(href);
    const page = await open();
    await context.setOffline(true);
    await sign(page, 'ben.offline@example.org');
    await statusSays(page, 'status--queued', 'Saved');

    // The server is coming back: it refuses the first POST with 503, the second with 429.
    const refusals = [503, 429];
    await context.route(href, async (route) => {
      const status = route.request().method() === 'POST' ? refusals.shift() : undefined;
      if (status === undefined) return route.continue();
      return route.fulfill({
        status,
        contentType: 'application/json',
        headers: {
          'access-control-allow-origin': '*',
          'access-control-expose-headers': 'Retry-After',
          'retry-after': '1',
        },
        body: '{}',
      });
    });
    await context.setOffline(false);
    await statusSays(page, 'status--success', SAVED_SENT);
    expect(posts).toHaveLength(3);
    // Each attempt came after the second the server asked for.
    expect(posts[1]! - posts[0]!).toBeGreaterThanOrEqual(900);
    expect(posts[2]! - posts[1]!).toBeGreaterThanOrEqual(900);
    expect(await signatureCount(petition)).toBe(1);
    await context.close();
  });

  test('offline: two tabs open when the connection returns send the signature once, and both say so', async (ctx) => {
    ctx.skip(SKIP_REASON !== undefined, SKIP_REASON);
    const { petition, href } = await newPetition('Offline: two tabs');
    const { context, posts, open } = await openContext(href);
    const first = await open();
    const second = await open();
    await context.setOffline(true);
    await sign(first, 'cleo.offline@example.org');
    await statusSays(first, 'status--queued', 'Saved');
    // The other tab is told of the call saved in the first.
    await pendingSays(second, ONE_SAVED);
    // Both tabs get `online` and both look at the queue: one sends (whichever takes the
    // lock first), the other finds it gone, and both pages say it was sent.
    await context.setOffline(false);
    await statusSays(first, 'status--success', SAVED_SENT);
    await statusSays(second, 'status--success', SAVED_SENT);
    await pendingSays(first, null);
    await pendingSays(second, null);
    await reconnect(context); // and once more: nothing is left to send
    await first.evaluate(() => new Promise((resolve) => setTimeout(resolve, 200)));
    expect(posts).toHaveLength(1);
    expect(await signatureCount(petition)).toBe(1);
    await context.close();
  });

  test('offline: the tab that saved a call is told when another tab sends it', async (ctx) => {
    ctx.skip(SKIP_REASON !== undefined, SKIP_REASON);
    const { petition, href } = await newPetition('Offline: the other tab sends');
    const { context, open } = await openContext(href);
    const first = await open();
    await context.setOffline(true);
    await sign(first, 'cleo.elsewhere@example.org');
    await statusSays(first, 'status--queued', 'Saved');
    // This tab cannot reach the server when the connection is back (each of its attempts
    // fails, and it waits with backoff); a second tab, opened then, can. The connection
    // drops once more and returns: both tabs send what is saved at once (in the order
    // they take the lock), and only the second's attempt gets through.
    await first.route(href, (route) => route.abort('internetdisconnected'));
    await context.setOffline(false);
    const second = await open();
    await reconnect(context);
    await statusSays(second, 'status--success', SAVED_SENT);
    await statusSays(first, 'status--success', SAVED_SENT);
    await pendingSays(first, null);
    expect(await signatureCount(petition)).toBe(1);
    await context.close();
  });

  test('offline: the page itself loads with no connection (a service worker), and says when its saved signature is sent', async (ctx) => {
    ctx.skip(SKIP_REASON !== undefined, SKIP_REASON);
    const { petition, href } = await newPetition('Offline: the page offline');
    const { context, posts, open } = await openContext(href);
    const page = await open();
    // Loaded once online: the page's service worker keeps it from then on.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller)
        await new Promise((resolve) =>
          navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }),
        );
    });
    await context.setOffline(true);
    await sign(page, 'fay.offline@example.org');
    await statusSays(page, 'status--queued', 'Saved');
    // Focus moved to the answer, which a screen reader then reads.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('status');
    // Truly offline, the page and its script come from the service worker.
    const reload = await page.reload();
    expect(reload?.fromServiceWorker()).toBe(true);
    await pendingSays(page, ONE_SAVED);
    await page.getByRole('button', { name: 'Sign' }).waitFor();
    expect(posts).toEqual([]);
    await context.setOffline(false);
    await statusSays(page, 'status--success', SAVED_SENT);
    await pendingSays(page, null);
    expect(posts).toHaveLength(1);
    expect(await signatureCount(petition)).toBe(1);
    await context.close();
  });

  test('offline: a signature the server refuses (400) leaves the queue and is shown, not retried', async (ctx) => {
    ctx.skip(SKIP_REASON !== undefined, SKIP_REASON);
    const { petition, href } = await newPetition('Offline: refused');
    const { context, posts, open } = await openContext(href);
    const page = await open();
    await context.setOffline(true);
    // Valid for the browser's type=email check, refused by the server's.
    await sign(page, 'dana@example');
    await statusSays(page, 'status--queued', 'Saved');
    await context.setOffline(false);
    await statusSays(
      page,
      'status--error',
      /^Sorry, your saved signature was not accepted: .*email/,
    );
    await pendingSays(page, null);
    await reconnect(context);
    await page.reload();
    await page.locator('[data-queue-pending]').waitFor({ state: 'hidden' });
    expect(posts).toHaveLength(1);
    expect(await signatureCount(petition)).toBe(0);
    await context.close();
  });

  test('offline: without IndexedDB the widget says so, sends directly and shows the failure', async (ctx) => {
    ctx.skip(SKIP_REASON !== undefined, SKIP_REASON);
    const { petition, href } = await newPetition('Offline: no IndexedDB');
    const { context, open } = await openContext(href);
    // As in a private mode that refuses storage.
    await context.addInitScript(() =>
      Object.defineProperty(window, 'indexedDB', { value: undefined }),
    );
    const page = await open();
    await page
      .locator('[data-queue-notice]')
      .filter({ hasText: 'This browser will not keep entries made offline' })
      .waitFor();
    const apiOrigin = `${running.url}/**`;
    await context.route(apiOrigin, (route) => route.abort('internetdisconnected'));
    await sign(page, 'eli.offline@example.org');
    await statusSays(
      page,
      'status--error',
      /^Sorry, that did not work: The server could not be reached\..*cannot keep it/,
    );
    await context.unroute(apiOrigin);
    await page.getByRole('button', { name: 'Sign' }).click();
    await statusSays(page, 'status--success', 'Thank you! Your signature has been recorded.');
    expect(await signatureCount(petition)).toBe(1);
    await context.close();
  });
});

describe("the queue's limits, called from a page, in Chromium", () => {
  /** Runs `script` in a fresh page of the bare site, with the queue's module as `helpers`. */
  async function inPage<T>(
    href: string,
    script: string,
  ): Promise<{ result: T; context: BrowserContext }> {
    if (!browser) throw new Error('no browser');
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(bare.url);
    // Loaded while online (a module cannot be fetched offline), then the connection drops.
    // A string, not a function: Vitest would rewrite a function's import() for Node.
    await page.evaluate(
      "import(location.origin + '/helpers.js').then((module) => { window.helpers = module; })",
    );
    await context.setOffline(true);
    const run = new Function(
      'href',
      `const helpers = window.helpers; return (async () => { ${script} })()`,
    );
    const result = (await page.evaluate(run as (href: string) => Promise<T>, href)) as T;
    return { result, context };
  }

  test('offline: past maxEntries a call is sent directly, and its failure is told (full)', async (ctx) => {
    ctx.skip(SKIP_REASON !== undefined, SKIP_REASON);
    const { href } = await newPetition('Offline: full');
    const { result, context } = await inPage<string[]>(
      href,
      `const queue = helpers.createSignupQueue({ maxEntries: 1, name: 'full' });
       const events = [];
       queue.on((event) => events.push(event.type + (event.reason ? ':' + event.reason : '')));
       const first = await queue.submit(href, { person: { given_name: 'A' } });
       const second = await queue.submit(href, { person: { given_name: 'B' } });
       return [first.state, second.state + ':' + second.reason + ':' + second.error.code, String(await queue.pending()), ...events];`,
    );
    expect(result.slice(0, 3)).toEqual(['queued', 'failed:full:NETWORK', '1']);
    expect(result).toContain('failed:full');
    await context.close();
  });

  test('offline: a saved call is not looked at again until the connection is back (no timer spins)', async (ctx) => {
    ctx.skip(SKIP_REASON !== undefined, SKIP_REASON);
    const { href } = await newPetition('Offline: idle');
    const { result, context } = await inPage<number>(
      href,
      `const queue = helpers.createSignupQueue({ name: 'idle' });
       let looks = 0;
       queue.on((event) => { if (event.type === 'pending') looks++; });
       await queue.submit(href, { person: { given_name: 'D' } });
       await new Promise((resolve) => setTimeout(resolve, 500));
       queue.close();
       return looks;`,
    );
    // The look at load and the one after the submit; a timer of 0 ms made hundreds.
    expect(result).toBeLessThanOrEqual(2);
    await context.close();
  });

  test('offline: a call kept longer than maxAgeMs is removed at its next attempt and told (expired)', async (ctx) => {
    ctx.skip(SKIP_REASON !== undefined, SKIP_REASON);
    const { petition, href } = await newPetition('Offline: expired');
    const { result, context } = await inPage<string[]>(
      href,
      `const queue = helpers.createSignupQueue({ maxAgeMs: 50, name: 'expired' });
       const events = [];
       queue.on((event) => events.push(event.type + (event.reason ? ':' + event.reason : '')));
       const outcome = await queue.submit(href, { person: { given_name: 'C' } });
       await new Promise((resolve) => setTimeout(resolve, 100));
       await queue.flush();
       return [outcome.state, String(await queue.pending()), ...events];`,
    );
    expect(result.slice(0, 2)).toEqual(['queued', '0']);
    expect(result).toContain('failed:expired');
    expect(await signatureCount(petition)).toBe(0);
    await context.close();
  });
});
