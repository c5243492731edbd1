/**
 * Authentication: the key header in use, a request without a key and one with a wrong
 * key refused with 401 (collections at least: an entry point may be public), and what
 * the 401 carries.
 */
import { DEFAULT_API_KEY_HEADER } from '../../wire/api-key-header.js';
import { type CheckContext, SPEC } from '../context.js';
import { checkErrorBody } from './errors.js';

/** Sends requests without a key and with a wrong one. */
export async function checkAuthentication(context: CheckContext): Promise<void> {
  const area = 'authentication';
  context.add(
    area,
    'authentication.key-header',
    context.keyHeader.toLowerCase() === DEFAULT_API_KEY_HEADER.toLowerCase() ? 'pass' : 'fail',
    context.keyHeader.toLowerCase() === DEFAULT_API_KEY_HEADER.toLowerCase()
      ? `the key goes in ${DEFAULT_API_KEY_HEADER}`
      : `the key goes in ${context.keyHeader}, not ${DEFAULT_API_KEY_HEADER}`,
    { spec: SPEC.auth, subject: { header: context.keyHeader } },
  );
  const target =
    context.collections.find((collection) => !collection.vendorKind)?.link.url({}) ??
    context.entryUrl;
  const anonymous = await context.request(target, { withKey: false });
  if (anonymous.status === 401) {
    context.add(
      area,
      'authentication.required',
      'pass',
      'a collection read without a key answers 401',
      { spec: SPEC.auth, url: target },
    );
    checkErrorBody(context, area, 'authentication.401-body', anonymous);
  } else {
    context.add(
      area,
      'authentication.required',
      anonymous.status === 403 ? 'warn' : 'fail',
      anonymous.status === 403
        ? 'a read without a key answers 403, where the specification says 401'
        : `a collection read without a key answers ${anonymous.status}: its records are open to anyone`,
      { spec: SPEC.auth, url: target },
    );
  }
  if (!context.hasKey) return;
  const wrong = await context.request(target, {
    withKey: false,
    headers: { [context.keyHeader]: `adis-check-wrong-${crypto.randomUUID()}` },
  });
  context.add(
    area,
    'authentication.wrong-key',
    wrong.status === 401 ? 'pass' : wrong.status === 403 ? 'warn' : 'fail',
    wrong.status === 401
      ? 'a wrong key answers 401'
      : `a wrong key answers ${wrong.status}, not 401`,
    { spec: SPEC.auth, url: target },
  );
}
