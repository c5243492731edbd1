/**
 * The signup widget in a real browser: headless Chromium (Debian's, driven by
 * playwright-core) opens examples/signup-widget/index.html from one origin, and the
 * widget calls the reference server's record signature helper on another origin,
 * without a key. Checks what the visitor sees and what the server stored.
 *
 * Without Chromium at /usr/bin/chromium (or ADIS_CHROMIUM) the tests are skipped with
 * the reason, unless ADIS_REQUIRE_BROWSER=1 (CI), where they fail.
 */
import { fileURLToPath } from 'node:url';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildWidget } from '../../examples/signup-widget/build.js';
import type { RunningServer } from '../../reference-server/src/index.js';
import {
  type Client,
  connect,
  type EventResource,
  type PetitionResource,
} from '../../src/index.js';
import { type TestServer, testServer } from '../e2e/reference-server.js';
import { launchChromium, SKIP_REASON } from './chromium.js';
import { type StaticServer, serveStatic } from './static-server.js';

const WIDGET_DIR = fileURLToPath(new URL('../../examples/signup-widget/', import.meta.url));

let api: TestServer;
let running: RunningServer;
let site: StaticServer;
let browser: Browser | undefined;
let client: Client;
let petition: PetitionResource;
let helperHref: string;
let event: EventResource;
let attendanceHref: string;

beforeAll(async () => {
  browser = await launchChromium();
  if (!browser) return;
  await buildWidget();
  api = testServer();
  running = await api.listen();
  client = await connect(running.entryPoint, { apiKey: api.keys.write });
  petition = await client.petitions.create({ title: 'Save Elm Park' });
  const link = petition.link('std:record_signature_helper');
  if (!link) throw new Error('the petition has no std:record_signature_helper link');
  helperHref = link.href;
  event = await client.events.create({ title: 'Elm Park picnic' });
  const rsvp = event.link('std:record_attendance_helper');
  if (!rsvp) throw new Error('the event has no std:record_attendance_helper link');
  attendanceHref = rsvp.href;
  // The site owner's edit: point the form at this petition's helper, or with ?event at
  // the event's.
  site = await serveStatic(WIDGET_DIR, (url, html) =>
    url.searchParams.has('event')
      ? html
          .replace(/data-helper-href="[^"]*"/, `data-helper-href="${attendanceHref}"`)
          .replace('data-helper="signature"', 'data-helper="attendance"')
      : html.replace(/data-helper-href="[^"]*"/, `data-helper-href="${helperHref}"`),
  );
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await api?.close();
});

/** Opens the page in a fresh context (no shared cookies or cache) and records its script errors. */
async function openWidget(
  query = '',
): Promise<{ page: Page; pageErrors: Error[]; helperCalls: Request[] }> {
  if (!browser) throw new Error('no browser');
  const context = await browser.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const pageErrors: Error[] = [];
  page.on('pageerror', (error) => pageErrors.push(error));
  const helperCalls: Request[] = [];
  page.on('request', (request) => {
    const helper = request.url() === helperHref || request.url() === attendanceHref;
    if (helper && request.method() === 'POST') helperCalls.push(request);
  });
  await page.goto(`${site.url}${query}`);
  // Record every change of the button's disabled state, to see it was disabled while sending.
  await page.evaluate(() => {
    const button = document.querySelector('button[type="submit"]');
    const seen: boolean[] = [];
    (window as unknown as { disabledStates: boolean[] }).disabledStates = seen;
    new MutationObserver(() => seen.push((button as HTMLButtonElement).disabled)).observe(
      button as Node,
      { attributes: true, attributeFilter: ['disabled'] },
    );
  });
  return { page, pageErrors, helperCalls };
}

async function fillForm(page: Page, email: string): Promise<void> {
  await page.getByLabel('Given name').fill('Ana');
  await page.getByLabel('Family name').fill('Lopez');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Postal code').fill('20001');
  await page.getByLabel('Comments').fill('The park matters to my kids.');
}

describe('signup widget in Chromium', () => {
  test('records a signature from another origin without a key and shows success', async (ctx) => {
    ctx.skip(SKIP_REASON !== undefined, SKIP_REASON);
    const { page, pageErrors, helperCalls } = await openWidget();
    await fillForm(page, 'ana@example.org');
    await page.getByRole('button', { name: 'Sign' }).click();

    const status = page.getByRole('status');
    await status.and(page.locator('.status--success')).waitFor();
    expect(await status.textContent()).toBe('Thank you! Your signature has been recorded.');
    expect(await status.getAttribute('aria-live')).toBe('polite');
    expect(await page.getByRole('button', { name: 'Sign' }).isDisabled()).toBe(false);
    expect(
      await page.evaluate(
        () => (window as unknown as { disabledStates: boolean[] }).disabledStates,
      ),
    ).toEqual([true, false]);
    expect(await page.getByLabel('Email').inputValue()).toBe(''); // the form was reset
    expect(pageErrors).toEqual([]);

    // One cross-origin POST, with no API key.
    expect(helperCalls).toHaveLength(1);
    const headers = await helperCalls[0]!.allHeaders();
    expect(headers.origin).toBe(site.url.replace(/\/$/, ''));
    expect(new URL(helperHref).origin).not.toBe(headers.origin);
    expect(Object.keys(headers).map((name) => name.toLowerCase())).not.toContain('std-api-token');
    expect((await helperCalls[0]!.response())?.status()).toBe(200);

    // What the server stored, read back with the write key.
    const signatures = await petition.signatures().toArray();
    expect(signatures).toHaveLength(1);
    expect(signatures[0]!.data.comments).toBe('The park matters to my kids.');
    const signer = await signatures[0]!.person();
    expect(signer.data.given_name).toBe('Ana');
    expect(signer.data.family_name).toBe('Lopez');
    expect(signer.data.email_addresses?.map((email) => email.address)).toEqual(['ana@example.org']);
    expect(signer.data.postal_addresses?.map((address) => address.postal_code)).toEqual(['20001']);
    expect((await petition.refresh()).data.total_signatures).toBe(1);
    await page.context().close();
  });

  test("shows the server's message when it refuses the signature", async (ctx) => {
    ctx.skip(SKIP_REASON !== undefined, SKIP_REASON);
    const before = (await petition.refresh()).data.total_signatures;
    const { page, pageErrors } = await openWidget();
    // Valid for the browser's type=email check (no dot needed), refused by the server's.
    await fillForm(page, 'ana@example');
    const answer = page.waitForResponse(
      (response) => response.url() === helperHref && response.request().method() === 'POST',
    );
    await page.getByRole('button', { name: 'Sign' }).click();
    const response = await answer;
    expect(response.status()).toBe(400);
    const body = (await response.json()) as {
      'std:error'?: { resource_status?: { error_descriptions?: { description?: string }[] }[] };
    };
    const description =
      body['std:error']?.resource_status?.[0]?.error_descriptions?.[0]?.description;
    expect(description).toBeTruthy();

    const status = page.getByRole('status');
    await status.and(page.locator('.status--error')).waitFor();
    const text = await status.textContent();
    expect(text).toMatch(/^Sorry, that did not work: /);
    expect(text).toContain(description);
    expect(await status.evaluate((element) => element.classList.contains('status--success'))).toBe(
      false,
    );
    // The visitor keeps what they typed, to correct it; the button works again.
    expect(await page.getByLabel('Email').inputValue()).toBe('ana@example');
    expect(await page.getByRole('button', { name: 'Sign' }).isDisabled()).toBe(false);
    expect(pageErrors).toEqual([]);

    // Nothing was recorded.
    expect((await petition.refresh()).data.total_signatures).toBe(before);
    await page.context().close();
  });

  test('in attendance mode, records an RSVP for an event', async (ctx) => {
    ctx.skip(SKIP_REASON !== undefined, SKIP_REASON);
    const { page, pageErrors, helperCalls } = await openWidget('?event');
    await fillForm(page, 'ben@example.org');
    await page.getByRole('button', { name: 'Sign' }).click();

    const status = page.getByRole('status');
    await status.and(page.locator('.status--success')).waitFor();
    expect(await status.textContent()).toBe("Thank you! You're on the list.");
    expect(pageErrors).toEqual([]);
    expect(helperCalls.map((request) => request.url())).toEqual([attendanceHref]);

    const attendances = await event.attendances().toArray();
    expect(attendances).toHaveLength(1);
    expect(attendances[0]!.data.status).toBe('accepted');
    expect(attendances[0]!.data.comment).toBe('The park matters to my kids.');
    const attendee = await attendances[0]!.person();
    expect(attendee.data.email_addresses?.map((email) => email.address)).toEqual([
      'ben@example.org',
    ]);
    expect((await event.refresh()).data.total_accepted).toBe(1);
    await page.context().close();
  });
});
