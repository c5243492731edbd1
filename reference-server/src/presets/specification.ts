import { DEFAULT_API_KEY_HEADER } from 'adis-sdk/server-kit';
import type { ServingPreset } from './serving-preset.js';

/**
 * The plain server: the specification's behaviour, as the preset every other one
 * replaces piece by piece. `createApp` without a preset uses it.
 */
export const SPECIFICATION_PRESET: ServingPreset = {
  name: 'specification',
  apiPrefix: '/api/v1',
  apiKeyHeader: DEFAULT_API_KEY_HEADER,
  curiePrefix: 'std',
  extraCuries: [],
  keyRateLimit: false,
  maxPageSize: 100,
  specVersion: '1.0',
  motd: 'Welcome to the ADIS reference server.',
  vendorName: 'ADIS project',
  productName: 'ADIS reference server',
  maxPageSizeMember: 'max_pagesize',
  relationNames: {},
  namespace: 'adis',
  collectionsWithoutTotals: [],
  nestedAddresses: false,
  recordsUnderParents: {},
  nativeIdMembers: null,
  readOnlyKinds: [],
  deleteNotice: null,
  personSignupPath: 'people/person_signup_helper',
  recordHelpersAtSubCollections: false,
  // Kept as the server has always done it: every helper call (the record helpers and
  // person signup) may be accepted in the background, answered 202 Accepted with {} (the
  // work is taken, not done); plain writes ignore the parameter.
  background: { status: 202, operations: { '*': ['helper'] } },
  vocabulary: 'strict',
  signupStatuses: null,
  money: 'number',
  dateTimes: 'as-stored',
  kinds: [],
  metadata: [],
  kindChanges: {},
  embeds: null,
  seed: null,
};
