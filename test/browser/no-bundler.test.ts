/**
 * The prebuilt `adis-sdk/helpers/browser` file in a real browser, without a bundler:
 * examples/no-bundler/index.html (the page docs/browser.md shows) is served from one
 * origin with the file beside it, as a site owner would copy it, and the petition's
 * JSON as the site's server would serve it. Its `<script type="module">` imports the
 * file, reads the helper's href with `helperHref` and records a signature on the
 * reference server, on another origin, without a key: once with the reference
 * server's `std:` curie, once with the JSON renamed to an `osdi:` server's.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { build } from 'tsup';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ApiError, errorBody } from '../../reference-server/src/domain/errors.js';
import type { RunningServer } from '../../reference-server/src/index.js';
import { connect, type PetitionResource } from '../../src/index.js';
import { browserHelpers } from '../../tsup.config.js';
import { type TestServer, testServer } from '../e2e/reference-server.js';
import { launchChromium, SKIP_REASON } from './chromium.js';
import { type StaticServer, serveStatic } from './static-server.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const EXAMPLE = join(ROOT, 'examples/no-bundler');

let api: TestServer;
let running: RunningServer;
let site: StaticServer;
let browser: Browser | undefined;
let folder: string;
let petition: PetitionResource;
let petitionJson: string;

beforeAll(async () => {
  browser = await launchChromium();
  if (!browser) return;
  // The file as `npm run build` makes it (the same tsup options), into a folder of the
  // test's own: the site's folder, beside the page.
  folder = mkdtempSync(join(tmpdir(), 'adis-no-bundler-'));
  await build({ ...browserHelpers, outDir: join(folder, 'build'), silent: true, config: false });
  cpSync(join(folder, 'build/helpers.js'), join(folder, 'adis-helpers.js'));
  for (const file of ['index.html', 'style.css']) cpSync(join(EXAMPLE, file), join(folder, file));

  api = testServer();
  running = await api.listen();
  const client = await connect(running.entryPoint, { apiKey: api.keys.write });
  petition = await client.petitions.create({ title: 'Save Elm Park' });
  // What the site's server does: read the petition with its key, serve it to the page.
  const response = await fetch(petition.url, { headers: { 'STD-API-Token': api.keys.read } });
  petitionJson = await response.text();
  site = await serveStatic(folder);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await api?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** The petition's JSON as an `osdi:` server would send it: every `std:` relation renamed. */
function asOsdi(json: string): string {
  const renamed = json.replaceAll('"std:', '"osdi:').replace('"name":"std"', '"name":"osdi"');
  expect(renamed).not.toContain('"std:');
  return renamed;
}

async function signOnce(json: string, email: string): Promise<void> {
  if (!browser) throw new Error('no browser');
  writeFileSync(join(folder, 'petition.json'), json);
  const context = await browser.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const pageErrors: Error[] = [];
  page.on('pageerror', (error) => pageErrors.push(error));
  const posts: { url: string; headers: Record<string, string> }[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST') posts.push({ url: request.url(), headers: request.headers() });
  });
  const scripts: string[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.push(response.url());
  });
  await page.goto(site.url);
  await page.getByRole('heading', { name: 'Save Elm Park' }).waitFor();
  await page.getByLabel('Given name').fill('Ana');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Sign' }).click();
  await page
    .getByRole('status')
    .getByText('Thank you! Your signature has been recorded.')
    .waitFor();
  expect(pageErrors).toEqual([]);
  // One module, loaded as it is: nothing was built for the page.
  expect(scripts).toEqual([`${site.url}adis-helpers.js`]);
  const helper = petition.link('std:record_signature_helper')?.href;
  expect(posts.map((post) => post.url)).toEqual([helper]);
  expect(Object.keys(posts[0]?.headers ?? {})).not.toContain('std-api-token');
  await context.close();
}

describe('the prebuilt helpers file in a page without a bundler', () => {
  test('records a signature with the std: curie', async (ctx) => {
    ctx.skip(SKIP_REASON !== undefined, SKIP_REASON);
    expect(readFileSync(join(folder, 'adis-helpers.js'), 'utf8')).not.toMatch(/\bimport\s*[{("'*]/);
    await signOnce(petitionJson, 'ana@example.org');
    const signatures = await petition.signatures().toArray();
    expect(signatures).toHaveLength(1);
    const signer = await signatures[0]?.person();
    expect(signer?.data.email_addresses?.map((email) => email.address)).toEqual([
      'ana@example.org',
    ]);
    expect((await petition.refresh()).data.total_signatures).toBe(1);
  });

  test('records a signature when the server calls its curie osdi', async (ctx) => {
    ctx.skip(SKIP_REASON !== undefined, SKIP_REASON);
    await signOnce(asOsdi(petitionJson), 'ana.osdi@example.org');
    expect((await petition.refresh()).data.total_signatures).toBe(2);
  });
});

/** The page opened on `json` (none: petition.json is missing), with what it did. */
async function openPage(json: string | undefined) {
  if (!browser) throw new Error('no browser');
  const file = join(folder, 'petition.json');
  if (json === undefined) rmSync(file, { force: true });
  else writeFileSync(file, json);
  const context = await browser.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const pageErrors: Error[] = [];
  page.on('pageerror', (error) => pageErrors.push(error));
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  const navigations: string[] = [];
  const requests: string[] = [];
  page.on('request', (request) => requests.push(`${request.method()} ${request.url()}`));
  await page.goto(site.url);
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) navigations.push(frame.url());
  });
  return { page, context, pageErrors, consoleErrors, navigations, requests };
}

async function focusedId(page: Page): Promise<string | undefined> {
  return page.evaluate(() => document.activeElement?.id);
}

describe('the no-bundler page speaks plainly when something fails', () => {
  test('says the petition cannot be signed when its JSON does not load, and never submits', async (ctx) => {
    ctx.skip(SKIP_REASON !== undefined, SKIP_REASON);
    for (const json of [undefined, '<!doctype html><p>Server error</p>']) {
      const { page, context, pageErrors, consoleErrors, navigations, requests } =
        await openPage(json);
      const status = page.getByRole('status');
      await status.getByText('This petition cannot be signed right now.').waitFor();
      expect(await focusedId(page)).toBe('status');
      expect(await page.getByRole('button', { name: 'Sign' }).isDisabled()).toBe(true);
      // Even a submission forced by a script (Enter cannot reach the disabled fields)
      // stays in the page: no navigation, no request carrying the person's details.
      await page.evaluate(() => {
        const form = document.getElementById('sign') as HTMLFormElement;
        (form.elements.namedItem('email') as HTMLInputElement).value = 'ana@example.org';
        form.requestSubmit();
      });
      await page.waitForTimeout(200);
      expect(navigations).toEqual([]);
      expect(page.url()).toBe(site.url);
      expect(requests.filter((request) => request.includes('ana%40example.org'))).toEqual([]);
      expect(requests.filter((request) => request.startsWith('POST'))).toEqual([]);
      expect(pageErrors).toEqual([]);
      expect(consoleErrors.length).toBeGreaterThan(0);
      await context.close();
    }
  });

  test('shows plain words, not the server’s text, for a refused signature, and focuses them', async (ctx) => {
    ctx.skip(SKIP_REASON !== undefined, SKIP_REASON);
    const helper = petition.link('std:record_signature_helper')?.href as string;
    const raw = 'person.email_addresses[0].address: INVALID_PROPERTY: not an email address';
    const { page, context, pageErrors, consoleErrors, navigations } = await openPage(petitionJson);
    await page.route(helper, (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
            status: 400,
            contentType: 'application/hal+json',
            headers: { 'access-control-allow-origin': '*' },
            body: JSON.stringify(
              errorBody(
                new ApiError(
                  400,
                  [{ error_code: 'INVALID_PROPERTY', description: raw }],
                  'request',
                ),
              ),
            ),
          })
        : route.continue(),
    );
    await page.getByRole('heading', { name: 'Save Elm Park' }).waitFor();
    // With the keyboard only: type, Tab, type, Enter.
    await page.getByLabel('Given name').focus();
    await page.keyboard.type('Ana');
    await page.keyboard.press('Tab');
    await page.keyboard.type('ana@example.org');
    await page.keyboard.press('Enter');
    const status = page.getByRole('status');
    await status.getByText('Please check your name and email address, then try again.').waitFor();
    expect(await status.textContent()).not.toContain('INVALID_PROPERTY');
    expect(await focusedId(page)).toBe('status');
    // The details are for the site's developers, in the console; the form can be sent again.
    expect(consoleErrors.join('\n')).toContain('400');
    expect(await page.getByRole('button', { name: 'Sign' }).isEnabled()).toBe(true);
    expect(await page.getByLabel('Email').inputValue()).toBe('ana@example.org');
    expect(navigations).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
