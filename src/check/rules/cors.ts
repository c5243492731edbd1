/**
 * CORS, which browser pages need to call the server: a preflight that allows the key
 * header, answers that name the allowed origin, and helpers a page can call without a
 * key. The specification says nothing of browsers, so each finding is a warn at worst.
 */
import { type CheckContext, SPEC } from '../context.js';

const ORIGIN = 'https://adis-check.example';

/** Sends preflights (OPTIONS) and one GET with an `Origin`. */
export async function checkCors(context: CheckContext): Promise<void> {
  const area = 'cors';
  const extra = (url: string) => ({ spec: SPEC.cors, url });
  const preflight = await context.request(context.entryUrl, {
    method: 'OPTIONS',
    withKey: false,
    headers: {
      Origin: ORIGIN,
      'Access-Control-Request-Method': 'GET',
      'Access-Control-Request-Headers': context.keyHeader.toLowerCase(),
    },
  });
  const allowsOrigin = (headers: Headers) => {
    const value = headers.get('access-control-allow-origin');
    return value === '*' || value === ORIGIN;
  };
  const allowedHeaders = (preflight.headers.get('access-control-allow-headers') ?? '')
    .toLowerCase()
    .split(',')
    .map((name) => name.trim());
  const keyAllowed =
    allowedHeaders.includes('*') || allowedHeaders.includes(context.keyHeader.toLowerCase());
  context.add(
    area,
    'cors.preflight-key',
    preflight.status < 300 && allowsOrigin(preflight.headers) && keyAllowed ? 'pass' : 'warn',
    preflight.status < 300 && allowsOrigin(preflight.headers) && keyAllowed
      ? `a preflight allows ${context.keyHeader} from another origin`
      : `a preflight for ${context.keyHeader} answers ${preflight.status}${allowsOrigin(preflight.headers) ? '' : ' without Access-Control-Allow-Origin'}${keyAllowed ? '' : `, not allowing ${context.keyHeader}`}: browser pages cannot call with a key`,
    extra(context.entryUrl),
  );
  const helper =
    context.entry?.link(`${context.prefix}:person_signup_helper`) ??
    context.samples.get('petitions')?.link(`${context.prefix}:record_signature_helper`);
  if (helper) {
    const url = helper.url({});
    const helperPreflight = await context.request(url, {
      method: 'OPTIONS',
      withKey: false,
      headers: {
        Origin: ORIGIN,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type',
      },
    });
    const ok = helperPreflight.status < 300 && allowsOrigin(helperPreflight.headers);
    context.add(
      area,
      'cors.helper-preflight',
      ok ? 'pass' : 'warn',
      ok
        ? `a browser may POST to ${helper.rel} without a key`
        : `a preflight of a keyless POST to ${helper.rel} answers ${helperPreflight.status}${allowsOrigin(helperPreflight.headers) ? '' : ' without Access-Control-Allow-Origin'}: signup widgets cannot call it`,
      extra(url),
    );
  } else {
    context.add(
      area,
      'cors.helper-preflight',
      'skip',
      "no helper link found (person_signup_helper, a petition's record_signature_helper)",
      { spec: SPEC.cors },
    );
  }
  const get = await context.request(context.entryUrl, { headers: { Origin: ORIGIN } });
  context.add(
    area,
    'cors.allow-origin',
    allowsOrigin(get.headers) ? 'pass' : 'warn',
    allowsOrigin(get.headers)
      ? 'answers name the allowed origin'
      : 'a GET from another origin gets no Access-Control-Allow-Origin: browsers cannot read it',
    extra(context.entryUrl),
  );
}
