import { describe, expect, it } from 'vitest';
import { originOf, TrustedOrigins } from '../../src/http/origins.js';
import { isRedirectStatus, nextHop } from '../../src/http/redirects.js';

describe('originOf', () => {
  it('normalises scheme and host case and drops default ports and paths', () => {
    expect(originOf('HTTPS://API.Example.org:443/api/v1/?x=1')).toBe('https://api.example.org');
    expect(originOf('http://localhost:8080/api')).toBe('http://localhost:8080');
  });

  it('is undefined for relative, opaque and non-http URLs', () => {
    expect(originOf('/api/v1')).toBeUndefined();
    expect(originOf('mailto:a@example.org')).toBeUndefined();
    expect(originOf('file:///etc/passwd')).toBeUndefined();
  });
});

describe('TrustedOrigins', () => {
  it('trusts exactly the origins added', () => {
    const origins = new TrustedOrigins(['https://api.example.org']);
    origins.add('http://localhost:3000/api/v1/');
    expect(origins.has('https://api.example.org/people')).toBe(true);
    expect(origins.has('http://localhost:3000/other')).toBe(true);
    expect(origins.has('https://api.example.org.evil.test/')).toBe(false);
    expect(origins.has('https://user@evil.test/@api.example.org')).toBe(false);
  });
});

describe('redirect rules', () => {
  it('follows the Fetch standard for method and body', () => {
    const post = { method: 'POST' as const, url: 'https://a.test/x', body: { a: 1 } };
    expect(nextHop(post, 302, 'https://a.test/y')).toEqual({
      method: 'GET',
      url: 'https://a.test/y',
      body: undefined,
    });
    expect(nextHop(post, 307, 'https://a.test/y')).toEqual({ ...post, url: 'https://a.test/y' });
    const put = { method: 'PUT' as const, url: 'https://a.test/x', body: { a: 1 } };
    expect(nextHop(put, 301, 'https://a.test/y').method).toBe('PUT');
    expect(nextHop(put, 303, 'https://a.test/y').method).toBe('GET');
    expect(isRedirectStatus(304)).toBe(false);
  });
});
