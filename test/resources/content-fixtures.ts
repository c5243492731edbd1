import { Curies, HalDocument } from '../../src/hal/index.js';
import type { HttpRequest, Transport } from '../../src/http/transport.js';
import { NavigatorContext } from '../../src/navigator/context.js';
import type { ResourceOf } from '../../src/navigator/typed.js';
import type { AnyKind } from '../../src/schema/kind.js';
import { KINDS } from '../../src/schema/kinds/index.js';

export const BASE = 'https://api.example.org/api/v1';
const CURIES = [{ name: 'std', href: 'https://api.example.org/docs/v1/{rel}', templated: true }];

/** A link object to `path` below the base URL. */
export function href(path: string) {
  return { href: `${BASE}/${path}` };
}

/**
 * Wraps `body` (read from `BASE/<path>`) as a record of `kind`, in a context that knows
 * every kind of the specification and whose transport answers GETs from `pages`
 * (path → body) and records the paths asked for; any other request fails the test.
 */
export function fixture<K extends AnyKind>(
  kind: K,
  path: string,
  body: Record<string, unknown>,
  pages: Record<string, unknown> = {},
) {
  const requested: string[] = [];
  const transport: Transport = {
    async request(request: HttpRequest) {
      const key = request.url.slice(BASE.length + 1);
      requested.push(key);
      if (request.method !== 'GET' || !(key in pages)) {
        throw new Error(`unexpected ${request.method} ${request.url}`);
      }
      return { status: 200, url: request.url, headers: new Headers(), body: pages[key] };
    },
    trustOrigin() {},
    isTrusted: () => true,
  };
  const curies = Curies.from(CURIES, BASE);
  const context = new NavigatorContext(transport, curies, true, 'std', KINDS);
  const document = HalDocument.parse(body, `${BASE}/${path}`, curies);
  const resource = context.wrap(kind, document) as ResourceOf<K>;
  return { resource, requested };
}
