/**
 * A signup widget for any web page: a plain HTML form that records a petition signature
 * or an event RSVP through the server's record helper, from the visitor's browser,
 * without an API key.
 *
 * Why the record helpers and not person signup: the spec lets browser pages call the
 * record signature / attendance / outreach / donation / canvass helpers anonymously,
 * but the person signup helper needs a key, and a key must never be put in a page.
 *
 * The form says where to send and what to record:
 *
 * ```html
 * <form data-helper="signature"
 *       data-helper-href="https://api.example.org/api/v1/petitions/…/record_signature_helper">
 * ```
 *
 * Build: `npm run build:widget` (see build.ts) bundles this file with the light
 * `adis-sdk/helpers` entry into `dist/widget.js`, a classic script that also works when
 * the page is opened from a file.
 */
import {
  errorDescriptions,
  type HelperCallOptions,
  isHTTPError,
  isNetworkError,
  recordAttendance,
  recordSignature,
} from 'adis-sdk/helpers';

/** What the form records: `signature` (a petition) or `attendance` (an event RSVP). */
export type WidgetMode = 'signature' | 'attendance';

/** The visitor's answers, trimmed; empty fields are left out of the request. */
export interface WidgetFields {
  givenName: string;
  familyName: string;
  email: string;
  postalCode: string;
  comments: string;
}

/** The outcome shown to the visitor. */
export interface WidgetOutcome {
  ok: boolean;
  message: string;
}

/**
 * Reads the mode from the form's `data-helper` attribute. Anything but the two known
 * modes is a page author's mistake, so it throws rather than guessing.
 *
 * @example
 * ```ts
 * widgetMode(document.querySelector('form')!); // 'signature'
 * ```
 */
export function widgetMode(form: HTMLFormElement): WidgetMode {
  const mode = form.dataset.helper;
  if (mode === 'signature' || mode === 'attendance') return mode;
  throw new Error(`data-helper must be "signature" or "attendance", got ${JSON.stringify(mode)}`);
}

/**
 * Reads the visitor's answers from the form's named inputs.
 *
 * @example
 * ```ts
 * readFields(form).email; // 'ana@example.org'
 * ```
 */
export function readFields(form: HTMLFormElement): WidgetFields {
  const data = new FormData(form);
  const text = (name: string) => {
    const value = data.get(name);
    return typeof value === 'string' ? value.trim() : '';
  };
  return {
    givenName: text('given_name'),
    familyName: text('family_name'),
    email: text('email'),
    postalCode: text('postal_code'),
    comments: text('comments'),
  };
}

/** Leaves out empty strings: the server would store `""` rather than "not given". */
function present(value: string): string | undefined {
  return value === '' ? undefined : value;
}

/**
 * The person as the helpers take it, from the visitor's answers.
 *
 * @example
 * ```ts
 * personOf({ givenName: 'Ana', familyName: '', email: 'ana@example.org', postalCode: '', comments: '' });
 * // { given_name: 'Ana', email_addresses: [{ address: 'ana@example.org', primary: true }] }
 * ```
 */
export function personOf(fields: WidgetFields) {
  return {
    given_name: present(fields.givenName),
    family_name: present(fields.familyName),
    email_addresses: fields.email ? [{ address: fields.email, primary: true }] : undefined,
    postal_addresses: fields.postalCode
      ? [{ postal_code: fields.postalCode, primary: true }]
      : undefined,
  };
}

/**
 * The words of the server's refusal: the descriptions of its `std:error`, else the
 * error's own message. A network failure (server down, CORS refused) gets a sentence a
 * visitor can act on.
 *
 * @example
 * ```ts
 * errorMessage(error); // 'must be an email address'
 * ```
 */
export function errorMessage(error: unknown): string {
  if (isHTTPError(error)) {
    const descriptions = errorDescriptions(error.stdError).map(
      (description) => description.description ?? description.error_code,
    );
    if (descriptions.length > 0) return descriptions.join('; ');
    return error.message;
  }
  if (isNetworkError(error)) return 'The server could not be reached. Please try again later.';
  return error instanceof Error ? error.message : String(error);
}

/**
 * Sends the form's answers to its helper. Resolves with what to show: success whenever
 * the helper accepted the record, even when some of its extra parts (tags, lists)
 * failed, since the signature or RSVP itself counted.
 *
 * @example
 * ```ts
 * const outcome = await send(form);
 * if (!outcome.ok) console.warn(outcome.message);
 * ```
 */
export async function send(
  form: HTMLFormElement,
  options: HelperCallOptions = {},
): Promise<WidgetOutcome> {
  const href = form.dataset.helperHref;
  if (!href) return { ok: false, message: 'This form has no data-helper-href.' };
  const fields = readFields(form);
  const person = personOf(fields);
  try {
    // No apiKey: the call is anonymous, as a public page's must be.
    if (widgetMode(form) === 'signature') {
      await recordSignature(href, { comments: present(fields.comments), person }, options);
      return { ok: true, message: 'Thank you! Your signature has been recorded.' };
    }
    await recordAttendance(
      href,
      { status: 'accepted', comment: present(fields.comments), person },
      options,
    );
    return { ok: true, message: "Thank you! You're on the list." };
  } catch (error) {
    return { ok: false, message: `Sorry, that did not work: ${errorMessage(error)}` };
  }
}

/**
 * Wires one form: on submit, disables its button, sends, and writes the outcome into
 * the form's `[role=status]` region with the class `status--success` or
 * `status--error`.
 *
 * @example
 * ```ts
 * attach(document.querySelector<HTMLFormElement>('form[data-helper-href]')!);
 * ```
 */
export function attach(form: HTMLFormElement): void {
  const status = form.querySelector<HTMLElement>('[role="status"]');
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"], button:not([type])');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (button?.disabled) return; // one request at a time
    if (button) button.disabled = true;
    form.setAttribute('aria-busy', 'true');
    show(status, 'status--sending', 'Sending…');
    void send(form)
      .then((outcome) => {
        show(status, outcome.ok ? 'status--success' : 'status--error', outcome.message);
        if (outcome.ok) form.reset();
      })
      .finally(() => {
        if (button) button.disabled = false;
        form.removeAttribute('aria-busy');
      });
  });
}

function show(status: HTMLElement | null, className: string, message: string): void {
  if (!status) return;
  status.classList.remove('status--sending', 'status--success', 'status--error');
  status.classList.add(className);
  status.textContent = message;
}

for (const form of document.querySelectorAll<HTMLFormElement>('form[data-helper-href]')) {
  attach(form);
}
