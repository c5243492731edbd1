/**
 * Shared setup for the end-to-end tests of resources and actions: a reference server,
 * clients of both tenants that record the status of every response, and small
 * helpers for errors and raw requests.
 */
import { expect } from 'vitest';
import {
  type Client,
  connect,
  type HTTPError,
  isHTTPError,
  linkTo,
  type PersonResource,
} from '../../src/index.js';
import { type TestServer, testServer } from './reference-server.js';

/** Statuses of the responses a client received, in order, by method. */
export class StatusLog {
  readonly entries: { method: string; url: string; status: number }[] = [];

  /** The status of the last response to `method`. */
  last(method: string): number | undefined {
    return this.entries.filter((entry) => entry.method === method).at(-1)?.status;
  }
}

/** A server with a writing client of each tenant and one that skips local validation. */
export interface Fixture {
  server: TestServer;
  /** Writes to tenant `demo`. */
  client: Client;
  /** Statuses `client` received. */
  statuses: StatusLog;
  /** Tenant `demo`, with the SDK's local validation off (to see the server's errors). */
  lax: Client;
  /** Writes to tenant `other`. */
  other: Client;
}

/**
 * Starts a fresh reference server and connects the clients.
 *
 * @example
 * ```ts
 * let f: Fixture;
 * beforeAll(async () => { f = await startFixture(); });
 * afterAll(() => f.server.close());
 * ```
 */
export async function startFixture(): Promise<Fixture> {
  const server = testServer();
  const statuses = new StatusLog();
  const client = await connect(server.entryPoint, {
    apiKey: server.keys.write,
    fetch: server.fetch,
    hooks: {
      afterResponse: ({ method, url, status }) => {
        statuses.entries.push({ method, url, status });
      },
    },
  });
  const lax = await connect(server.entryPoint, {
    apiKey: server.keys.write,
    fetch: server.fetch,
    validate: false,
  });
  const other = await connect(server.entryPoint, {
    apiKey: server.keys.otherTenant,
    fetch: server.fetch,
  });
  return { server, client, statuses, lax, other };
}

/** Awaits a call that must fail with an HTTPError of `status`, and returns the error. */
export async function httpError(call: Promise<unknown>, status: number): Promise<HTTPError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isHTTPError(error)) throw new Error(`expected an HTTPError ${status}, got ${String(error)}`);
  expect(error.status).toBe(status);
  return error;
}

/** The error codes and properties of a std:error, flattened. */
export function problems(error: HTTPError): { code: string; properties: string[] }[] {
  return (error.stdError?.resource_status ?? []).flatMap((status) =>
    status.error_descriptions.map((d) => ({ code: d.error_code, properties: d.properties ?? [] })),
  );
}

/** Creates a person with a unique email address. */
export async function newPerson(client: Client, givenName: string): Promise<PersonResource> {
  const slug = `${givenName.toLowerCase().replace(/\W+/g, '-')}-${crypto.randomUUID().slice(0, 8)}`;
  return client.people.create({
    given_name: givenName,
    email_addresses: [{ address: `${slug}@example.org`, primary: true }],
  });
}

/** `_links` of a write body from relation → resource. */
export function links(
  targets: Record<string, { readonly url: string }>,
): Record<string, { href: string }> {
  return Object.fromEntries(Object.entries(targets).map(([rel, target]) => [rel, linkTo(target)]));
}

/**
 * Sends a raw JSON request with the write key (for bodies the SDK refuses to send)
 * and returns the status and parsed body.
 */
export async function rawRequest(
  server: TestServer,
  method: string,
  url: string,
  body?: unknown,
): Promise<{ status: number; body: unknown; headers: Headers }> {
  const response = await server.fetch(url, {
    method,
    headers: {
      'STD-API-Token': server.keys.write,
      'Content-Type': 'application/json',
      Accept: 'application/hal+json',
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? JSON.parse(text) : undefined,
    headers: response.headers,
  };
}
