import { describe, expect, it } from 'vitest';
import {
  formatIdentifier,
  identifiersOf,
  localId,
  localIdentifier,
  parseIdentifier,
} from '../../src/schema/identifiers.js';

describe('identifiers', () => {
  it('splits at the first colon, so ids may contain colons', () => {
    expect(parseIdentifier('crm:881')).toEqual({ system: 'crm', id: '881' });
    expect(parseIdentifier('vendor:urn:x:1')).toEqual({ system: 'vendor', id: 'urn:x:1' });
  });

  it.each(['', 'nocolon', ':881', 'crm:', 'my crm:1'])('refuses %j', (value) => {
    expect(() => parseIdentifier(value)).toThrow(TypeError);
  });

  it('formats and refuses system names that would not parse back', () => {
    expect(formatIdentifier('crm', 'a:b')).toBe('crm:a:b');
    expect(parseIdentifier(formatIdentifier('crm', 'a:b'))).toEqual({ system: 'crm', id: 'a:b' });
    expect(() => formatIdentifier('a:b', '1')).toThrow(TypeError);
    expect(() => formatIdentifier('crm', '')).toThrow(TypeError);
  });

  it('finds the identifiers of one system and the local one by namespace', () => {
    const ids = ['crm:7', 'adis:4c1e', 'crm:8', 'adisx:9', 'broken'];
    expect(identifiersOf(ids, 'crm')).toEqual(['crm:7', 'crm:8']);
    expect(localIdentifier(ids, 'adis')).toBe('adis:4c1e');
    expect(localId(ids, 'adis')).toBe('4c1e');
    expect(localIdentifier(ids, 'other')).toBeUndefined();
    expect(localId(ids, 'other')).toBeUndefined();
  });
});
