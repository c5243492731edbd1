import { describe, expect, it } from 'vitest';
import { ACTION_NETWORK_TARGET, SPECIFICATION_TARGET } from '../../src/sync/profiles.js';
import { adjustPerson } from '../../src/sync/target-members.js';

describe('adjustPerson', () => {
  it('writes a status Action Network does not take as unsubscribed, and says so', () => {
    const body = {
      email_addresses: [
        { address: 'ana@example.org', status: 'subscribed' },
        { address: 'ana@old.example.org', status: 'bouncing' },
      ],
      phone_numbers: [{ number: '+15555550100', status: 'spam complaint' }],
    };
    expect(adjustPerson(body, ACTION_NETWORK_TARGET)).toEqual([
      'Action Network takes only subscribed and unsubscribed: a bouncing email address is written unsubscribed',
      'Action Network takes only subscribed and unsubscribed: a spam complaint phone number is written unsubscribed',
    ]);
    expect(body.email_addresses.map((email) => email.status)).toEqual([
      'subscribed',
      'unsubscribed',
    ]);
    expect(body.phone_numbers[0]?.status).toBe('unsubscribed');
  });

  it('leaves every status to a target that takes any', () => {
    const body = { email_addresses: [{ address: 'ana@example.org', status: 'bouncing' }] };
    expect(adjustPerson(body, SPECIFICATION_TARGET)).toEqual([]);
    expect(body.email_addresses[0]?.status).toBe('bouncing');
  });
});
