/**
 * A petition signup on Cloudflare Workers: a form, its signatures recorded with the API
 * key kept server-side, and the server's webhooks received back.
 *
 *   GET  /          the signup form
 *   POST /          records the signature (form-encoded), answers a thank-you page
 *   POST /webhooks  the ADIS server's signed deliveries; each signature is kept in KV
 *
 * Run it locally with `npx wrangler dev`, deploy with `npx wrangler deploy`: see
 * README.md for the environment (vars, secrets, the KV namespace). It uses only the
 * Fetch API and Web Crypto, so it needs no `nodejs_compat` flag.
 */
import {
  errorDescriptions,
  isHTTPError,
  isNetworkError,
  isTimeoutError,
  recordSignature,
} from 'adis-sdk/helpers';
import { type WebhookEventHandlers, webhookHandler } from 'adis-sdk/webhooks';
import { type KVStore, kvSeenStore } from './kv-seen-store.js';

/** The Worker's bindings (wrangler.json's `vars`, the secrets, the KV namespace). */
export interface Env {
  /** Secret: the ADIS API key (write access) the signatures are recorded with. Never sent to a browser. */
  ADIS_KEY: string;
  /** Var: the petition's `std:record_signature_helper` href, as the server links it. */
  PETITION_HELPER_HREF: string;
  /** Secret: the webhook subscription's signing secret. */
  ADIS_WEBHOOK_SECRET: string;
  /** KV namespace: handled webhook events (`seen:<key>`) and the signatures they told of. */
  WEBHOOK_EVENTS: KVStore;
}

/** What the form sent, as typed (shown again when something is missing). */
interface FormValues {
  givenName: string;
  familyName: string;
  email: string;
  comments: string;
}

const EMPTY: FormValues = { givenName: '', familyName: '', email: '', comments: '' };

// A person waiting on a page should not wait for long; the SDK's default is 30 s.
const HELPER_TIMEOUT_MS = 10_000;

/**
 * The Worker's handlers: `fetch` routes each request to the form, the signature or the
 * webhook receiver.
 *
 * @example
 * ```ts
 * // What workerd does with each request (Miniflare's dispatchFetch in the test):
 * const response = await worker.fetch(new Request('https://signup.example.org/'), env);
 * ```
 */
export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname === '/') {
      if (request.method === 'GET' || request.method === 'HEAD') return formPage(EMPTY);
      if (request.method === 'POST') return sign(request, env);
      return new Response('Method Not Allowed', { status: 405, headers: { allow: 'GET, POST' } });
    }
    if (pathname === '/webhooks') {
      // Without a secret the handler would take unsigned deliveries from anyone.
      if (!env.ADIS_WEBHOOK_SECRET) {
        console.error('ADIS_WEBHOOK_SECRET is not set: webhooks refused');
        return new Response('Webhooks are not configured', { status: 503 });
      }
      return webhooks(env)(request);
    }
    return new Response('Not Found', { status: 404 });
  },
};

/** Records the signature the form sent, and answers the page the signer sees. */
async function sign(request: Request, env: Env): Promise<Response> {
  const values = await readForm(request);
  if (!values) return formPage(EMPTY, 'Please send the form.', 400);
  if (!/^[^\s@]+@[^\s@]+$/.test(values.email)) {
    return formPage(values, 'Please give your email address.', 400);
  }
  try {
    await recordSignature(
      env.PETITION_HELPER_HREF,
      {
        ...(values.comments ? { comments: values.comments } : {}),
        person: {
          ...(values.givenName ? { given_name: values.givenName } : {}),
          ...(values.familyName ? { family_name: values.familyName } : {}),
          email_addresses: [{ address: values.email, primary: true }],
        },
      },
      { apiKey: env.ADIS_KEY, timeout: HELPER_TIMEOUT_MS },
    );
    // A non-atomic answer (`complete: false`) still recorded the signature: thank them.
    const name = values.givenName ? `, ${values.givenName}` : '';
    return page(
      'Thank you',
      `<p>Thank you${escapeHtml(name)}! Your signature has been recorded.</p>`,
    );
  } catch (error) {
    return failurePage(error, values);
  }
}

/** The form's fields, trimmed; undefined when the body is not a form. */
async function readForm(request: Request): Promise<FormValues | undefined> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return undefined;
  }
  const field = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value.trim() : '';
  };
  return {
    givenName: field('given_name'),
    familyName: field('family_name'),
    email: field('email'),
    comments: field('comments'),
  };
}

/**
 * The page for a helper call that failed. The server's own words are shown only when
 * they are about what the signer typed (a 400); anything else is this site's problem,
 * logged for its operator, and the signer is told to try later.
 */
function failurePage(error: unknown, values: FormValues): Response {
  if (isHTTPError(error) && (error.status === 400 || error.status === 422)) {
    const reason = errorDescriptions(error.stdError)[0]?.description ?? 'the server refused it';
    return formPage(values, `Your signature could not be recorded: ${reason}`, 400);
  }
  if (isHTTPError(error) && error.status === 429) {
    const retryAfter = error.headers.get('retry-after');
    return page('Busy', '<p>Too many signatures at once: please try again in a minute.</p>', {
      status: 503,
      headers: retryAfter ? { 'retry-after': retryAfter } : {},
    });
  }
  // 401/403: a wrong or revoked key; 404: the petition is gone; 5xx: the server failed.
  // The message names the status and the helper's URL, never the key.
  console.error('signature not recorded:', error instanceof Error ? error.message : error);
  const status = isTimeoutError(error)
    ? 504
    : isHTTPError(error) || isNetworkError(error)
      ? 502
      : 500;
  return page(
    'Not recorded',
    '<p>Sorry, your signature could not be recorded right now. Please try again later.</p>',
    { status },
  );
}

/**
 * The webhook receiver, built per request because a module Worker gets its `env` with
 * each request. The seen store is KV, not the default memory store: memory lasts no
 * longer than one isolate, and here not even past this request.
 */
function webhooks(env: Env) {
  const on: WebhookEventHandlers = {
    async signature(event) {
      const email = event.person?.email_addresses?.[0]?.address;
      console.log(`webhook: ${email ?? 'someone'} signed ${event.links.petition}`);
      // Keyed by the signature's URL: a person signing again updates the same entry.
      await env.WEBHOOK_EVENTS.put(
        `signature:${event.links.self ?? event.idempotencyKey}`,
        JSON.stringify({ email, petition: event.links.petition, comments: event.record.comments }),
      );
    },
    event(event) {
      if (event.type !== 'signature') console.log(`webhook: ${event.name} (not kept)`);
    },
  };
  return webhookHandler({
    secret: env.ADIS_WEBHOOK_SECRET,
    seen: kvSeenStore(env.WEBHOOK_EVENTS),
    on,
  });
}

/** The signup form, with what was typed and an error line when there is one. */
function formPage(values: FormValues, error?: string, status = 200): Response {
  const input = (name: string, label: string, value: string, extra = '') =>
    `<label>${label} <input name="${name}" value="${escapeHtml(value)}"${extra}></label>`;
  return page(
    'Sign the petition',
    `${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/">
  ${input('given_name', 'First name', values.givenName, ' autocomplete="given-name"')}
  ${input('family_name', 'Last name', values.familyName, ' autocomplete="family-name"')}
  ${input('email', 'Email', values.email, ' type="email" required autocomplete="email"')}
  <label>Comment (optional) <textarea name="comments">${escapeHtml(values.comments)}</textarea></label>
  <button>Sign</button>
</form>`,
    { status },
  );
}

function page(title: string, body: string, init: ResponseInit = {}): Response {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(title)}</title></head>
<body><h1>${escapeHtml(title)}</h1>
${body}
</body></html>`;
  const headers = new Headers(init.headers);
  headers.set('content-type', 'text/html; charset=utf-8');
  return new Response(html, { ...init, headers });
}

/** Text made safe to put in HTML (element content and quoted attributes). */
function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}
