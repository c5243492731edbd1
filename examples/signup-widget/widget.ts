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
 * A signature made offline is not lost: the widget keeps each call on the device
 * (`createSignupQueue`, IndexedDB) before sending it, says "Saved: it will be sent when
 * you are back online", and sends it when the browser is back (even after the page was
 * closed and opened again). The form's `data-idempotency-keys-honoured="true"` says the
 * server answers a repeated Idempotency-Key once (the reference server does): a call
 * sent again after a lost answer then counts once.
 *
 * Build: `npm run build:widget` (see build.ts) bundles this file with the light
 * `adis-sdk/helpers` entry into `dist/widget.js`, a classic script that also works when
 * the page is opened from a file.
 */
import {
  createSignupQueue,
  errorDescriptions,
  isHTTPError,
  isNetworkError,
  type QueueEvent,
  type QueueSubmitOutcome,
  type SignupQueue,
  type StdError,
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
  // An HTTPError, or a refusal told by another tab (a plain Error with its stdError).
  const stdError = (error as { stdError?: StdError } | null)?.stdError;
  const descriptions = errorDescriptions(stdError).map(
    (description) => description.description ?? description.error_code,
  );
  if (descriptions.length > 0) return descriptions.join('; ');
  if (isHTTPError(error)) return error.message;
  if (isNetworkError(error)) return 'The server could not be reached. Please try again later.';
  return error instanceof Error ? error.message : String(error);
}

/**
 * What to tell the visitor about a submitted call: thanks, "saved", or what went wrong
 * (and, where the browser keeps nothing, that it could not be saved for later).
 *
 * @example
 * ```ts
 * outcomeOf('signature', { state: 'queued', id: 'k' }).message; // 'Saved: it will be sent when you are back online.'
 * ```
 */
export function outcomeOf(
  mode: WidgetMode,
  outcome: QueueSubmitOutcome,
): WidgetOutcome & { queued?: boolean } {
  if (outcome.state === 'sent') {
    return {
      ok: true,
      message:
        mode === 'signature'
          ? 'Thank you! Your signature has been recorded.'
          : "Thank you! You're on the list.",
    };
  }
  if (outcome.state === 'queued') {
    return { ok: true, queued: true, message: 'Saved: it will be sent when you are back online.' };
  }
  const kept =
    outcome.reason === 'unsaved' && isNetworkError(outcome.error)
      ? ' This browser cannot keep it to send later (private browsing, or storage turned off): please try again when you are back online.'
      : '';
  return { ok: false, message: `Sorry, that did not work: ${errorMessage(outcome.error)}${kept}` };
}

/**
 * Sends the form's answers to its helper through the page's queue. Resolves with what
 * to show: success whenever the helper accepted the record, even when some of its extra
 * parts (tags, lists) failed, since the signature or RSVP itself counted; "saved" when
 * the browser is offline or the server could not be reached, the call kept on the
 * device to be sent later.
 *
 * @example
 * ```ts
 * const outcome = await send(form, queue);
 * if (!outcome.ok) console.warn(outcome.message);
 * ```
 */
export async function send(
  form: HTMLFormElement,
  queue: SignupQueue,
): Promise<WidgetOutcome & { queued?: boolean }> {
  const href = form.dataset.helperHref;
  if (!href) return { ok: false, message: 'This form has no data-helper-href.' };
  const fields = readFields(form);
  const person = personOf(fields);
  const mode = widgetMode(form);
  // No apiKey: the call is anonymous, as a public page's must be.
  const outcome =
    mode === 'signature'
      ? await queue.submit(
          href,
          { comments: present(fields.comments), person },
          { record: 'signature' },
        )
      : await queue.submit(
          href,
          { status: 'accepted', comment: present(fields.comments), person },
          { record: 'attendance' },
        );
  return outcomeOf(mode, outcome);
}

/**
 * Wires one form: on submit, disables its button, sends through the page's queue, and
 * writes the outcome into the form's `[role=status]` region with the class
 * `status--success`, `status--queued` or `status--error`. Calls saved earlier are sent
 * when the browser is back online; the `[data-queue-pending]` element says how many
 * wait, and `[data-queue-notice]` says when this browser cannot keep any.
 *
 * @example
 * ```ts
 * attach(document.querySelector<HTMLFormElement>('form[data-helper-href]')!);
 * ```
 */
export function attach(form: HTMLFormElement): SignupQueue {
  const status = form.querySelector<HTMLElement>('[role="status"]');
  const pending = form.querySelector<HTMLElement>('[data-queue-pending]');
  const notice = form.querySelector<HTMLElement>('[data-queue-notice]');
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"], button:not([type])');
  const mode = widgetMode(form); // a page author's mistake shows at once
  const queue = createSignupQueue({
    idempotencyKeysHonoured: form.dataset.idempotencyKeysHonoured === 'true',
  });
  // Calls met while a submit is in flight: their outcome is the submit handler's to show.
  // (Registered first, so that it sees each event before the listener that shows it.)
  const submitting = new Set<string>();
  let inFlight = false;
  queue.on((event) => {
    if (inFlight && event.type !== 'pending') submitting.add(event.call.id);
  });
  queue.on((event: QueueEvent) => {
    if (event.type === 'pending' && pending) {
      // Always in the page (a live region that is hidden is not announced): empty when none wait.
      pending.textContent = pendingText(mode, event.count);
    } else if (event.type === 'sent' && !submitting.has(event.call.id)) {
      show(status, 'status--success', savedSentText(event.call.record));
    } else if (event.type === 'failed' && !submitting.has(event.call.id)) {
      show(
        status,
        'status--error',
        `Sorry, your saved ${nounOf(event.call.record)} was not accepted: ${errorMessage(event.error)}`,
      );
    }
  });
  void queue.ready.then(({ persistent }) => {
    if (notice && !persistent) {
      notice.hidden = false;
      notice.textContent =
        'This browser will not keep entries made offline: send them when you are online.';
    }
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (button?.disabled) return; // one request at a time
    if (button) button.disabled = true;
    form.setAttribute('aria-busy', 'true');
    show(status, 'status--sending', 'Sending…');
    inFlight = true;
    void send(form, queue)
      .then((outcome) => {
        show(
          status,
          outcome.ok ? (outcome.queued ? 'status--queued' : 'status--success') : 'status--error',
          outcome.message,
        );
        // The answer is where the person's attention goes next (and a screen reader's).
        status?.focus();
        if (outcome.ok) form.reset();
      })
      .finally(() => {
        // Later events of these calls (a saved one sent after all) are the listener's to show.
        inFlight = false;
        submitting.clear();
        if (button) button.disabled = false;
        form.removeAttribute('aria-busy');
      });
  });
  return queue;
}

/** What a saved call records, in the visitor's words: `signature` or `RSVP`. */
function nounOf(record: string | undefined): string {
  return record === 'attendance' ? 'RSVP' : record === 'signature' ? 'signature' : 'entry';
}

/**
 * The pending line: how many of the visitor's entries this device keeps, and when they
 * go; empty when none wait.
 *
 * @example
 * ```ts
 * pendingText('signature', 1); // '1 signature saved on this device: it will be sent when the connection is back.'
 * ```
 */
export function pendingText(mode: WidgetMode, count: number): string {
  if (count === 0) return '';
  const noun = nounOf(mode);
  return count === 1
    ? `1 ${noun} saved on this device: it will be sent when the connection is back.`
    : `${count} ${noun}s saved on this device: they will be sent when the connection is back.`;
}

/**
 * The thanks for a saved call that has now been sent, by this page or another.
 *
 * @example
 * ```ts
 * savedSentText('signature'); // 'Your saved signature has been sent and recorded. Thank you!'
 * ```
 */
export function savedSentText(record: string | undefined): string {
  return `Your saved ${nounOf(record)} has been sent and recorded. Thank you!`;
}

function show(status: HTMLElement | null, className: string, message: string): void {
  if (!status) return;
  status.classList.remove('status--sending', 'status--success', 'status--queued', 'status--error');
  status.classList.add(className);
  status.textContent = message;
}

for (const form of document.querySelectorAll<HTMLFormElement>('form[data-helper-href]')) {
  attach(form);
}
