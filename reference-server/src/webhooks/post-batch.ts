/**
 * One delivery attempt: a signed POST of one batch, bounded in time, and what came of it.
 *
 * Why the receiver's body is discarded unread: only its status counts (2xx: delivered),
 * and a receiver answering slowly or at length must not hold the worker.
 */
import { signWebhookBody, WEBHOOK_SIGNATURE_HEADER } from 'adis-sdk/server-kit';

/** The `User-Agent` of every delivery: receivers can tell (and allow) the server's calls. */
export const WEBHOOK_USER_AGENT = 'adis-server-webhooks/1';

/** What one attempt is made of. */
export interface BatchPost {
  url: string;
  /** The JSON array, as sent and signed. */
  body: string;
  /** The subscription's signing secret. */
  secret: string;
  /** Unix seconds of the signature's timestamp. */
  timestampSeconds: number;
  /** How long the attempt may take, headers of the answer included. */
  timeoutMs: number;
  fetch: typeof globalThis.fetch;
  /**
   * Aborts the attempt from outside (shutdown past its grace). The attempt listens on it
   * while it runs: give each attempt a signal of its own (`AttemptAborts`), since many
   * attempts on one signal are many listeners on it.
   */
  signal?: AbortSignal;
}

/** How an attempt ended: 2xx, another status, or no answer at all (`error` says why). */
export interface BatchPostResult {
  delivered: boolean;
  status?: number;
  /** What went wrong, in words (`HTTP 503`, `connection refused`, `timed out after 10000 ms`). */
  error?: string;
}

/**
 * POSTs a batch with its signature and reports the outcome; never throws.
 */
export async function postBatch(post: BatchPost): Promise<BatchPostResult> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, post.timeoutMs);
  timer.unref?.();
  const abortFromOutside = () => controller.abort();
  post.signal?.addEventListener('abort', abortFromOutside, { once: true });
  // Aborted before it began (a stop past its grace): no listener would ever fire.
  if (post.signal?.aborted) controller.abort();
  try {
    const signature = await signWebhookBody([post.secret], post.body, post.timestampSeconds);
    const response = await post.fetch(post.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': WEBHOOK_USER_AGENT,
        [WEBHOOK_SIGNATURE_HEADER]: signature,
      },
      body: post.body,
      redirect: 'manual',
      signal: controller.signal,
    });
    await response.body?.cancel().catch(() => undefined);
    const delivered = response.status >= 200 && response.status < 300;
    return delivered
      ? { delivered, status: response.status }
      : { delivered, status: response.status, error: `HTTP ${response.status}` };
  } catch (error) {
    if (timedOut) return { delivered: false, error: `timed out after ${post.timeoutMs} ms` };
    if (post.signal?.aborted) return { delivered: false, error: 'cut short by shutdown' };
    return { delivered: false, error: describeFailure(error) };
  } finally {
    clearTimeout(timer);
    post.signal?.removeEventListener('abort', abortFromOutside);
  }
}

/** Words for the errors Node's fetch throws (`fetch failed`, with the system error as cause). */
const CODES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_SOCKET: 'connection closed by the receiver',
};

function describeFailure(error: unknown): string {
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  const code = (cause as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string') return CODES[code] ?? code;
  if (cause instanceof Error) return cause.message;
  return error instanceof Error ? error.message : String(error);
}
