/**
 * The answer while the database cannot take the request: 503 `SERVICE_UNAVAILABLE` with
 * `Retry-After`, never a 500 (nothing went wrong with the request, and nothing of it was
 * committed: a client may send it again, the SDK's retries do) and never a hang (the
 * engine bounds its waits, see `storage/postgres/connection.ts`).
 */
import { ApiError, ErrorCode } from '../domain/errors.js';
import type { StorageUnavailableError } from '../storage/storage.js';

/**
 * The 503 for a {@link StorageUnavailableError}.
 */
export function unavailable(error: StorageUnavailableError): ApiError {
  const seconds = String(error.retryAfterSeconds);
  return new ApiError(
    503,
    [
      {
        error_code: ErrorCode.SERVICE_UNAVAILABLE,
        description: `the database is unavailable (${error.message}); retry in ${seconds} s`,
        hint: 'send the request again after Retry-After seconds: nothing of it was kept',
      },
    ],
    'request',
    { 'Retry-After': seconds },
  );
}
