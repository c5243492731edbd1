/**
 * Action Network's rules for the subscription statuses of the people its helpers write
 * (docs/v2/person_signup_helper, and the record helpers, which take a person the same
 * way): a person new to the email list is subscribed unless the call sends
 * `unsubscribed`; a new phone number is unsubscribed unless it sends `subscribed` (the
 * opposite default); a person already there keeps their statuses unless the call sends
 * `subscribed` or `unsubscribed`: no other status is taken at those endpoints. Action
 * Network keeps one email address and one phone number per person, always primary.
 */
import type { SignupStatuses } from '../../domain/helpers/signup-statuses.js';

/**
 * The statuses Action Network's helpers give the email addresses and phone numbers
 * they write.
 */
export const ACTION_NETWORK_SIGNUP_STATUSES: SignupStatuses = {
  emailDefault: 'subscribed',
  phoneDefault: 'unsubscribed',
  changeableBy: ['subscribed', 'unsubscribed'],
  firstIsPrimary: true,
};
