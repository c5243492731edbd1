/**
 * What the checks of one run share: the prober, the entry point once read, the
 * collections it links, a sample record of each, the server recognised, and the list
 * the checks add to. Each check is judged as it is added: its rule's requirement level
 * (requirements.ts), and the recognised server's departures for what it is about
 * (departures.ts), which is why the server is recognised before any check is made.
 */
import type { HalDocument, Link } from '../hal/document.js';
import type { AnyKind } from '../schema/kind.js';
import { type FindingScope, judge } from './departures.js';
import type { KnownServer } from './known-servers.js';
import type { ProbeResponse, Prober } from './prober.js';
import type { Check, CheckArea, CheckStatus } from './report.js';
import { RULE_REQUIREMENTS, type RuleName } from './requirements.js';

/** A collection the entry point links, with the kind its records should be. */
export interface LinkedCollection {
  plural: string;
  /** The relation as the entry point writes it (`std:people`, `osdi:people`). */
  rel: string;
  link: Link;
  /** Undefined for a relation that names no kind the SDK knows. */
  kind?: AnyKind;
  /** Whether the kind is the vendor's own (Action Network's event campaigns…). */
  vendorKind: boolean;
}

/** An answer as the run's summaries see it. */
export interface AnswerSummary {
  url: string;
  status: number;
  contentType: string;
  /** Whether its body was JSON. */
  json: boolean;
}

/** The checks' shared state of one run. */
export interface CheckContext {
  readonly prober: Prober;
  readonly entryUrl: string;
  /** The server under test: the entry point's origin. Nothing elsewhere is contacted unless `followDocs`. */
  readonly origin: string;
  /** Whether documentation on other origins (a curie's href) may be read (`--follow-docs`). */
  readonly followDocs: boolean;
  /** The header the key goes in, and whether a key was given. */
  keyHeader: string;
  readonly hasKey: boolean;
  readonly write: boolean;
  entry?: HalDocument;
  /** The curie prefix the entry point uses for the specification's relations. */
  prefix: string;
  detected?: KnownServer;
  readonly collections: LinkedCollection[];
  /** The first record read of each collection, by plural. */
  readonly samples: Map<string, HalDocument>;
  /** What the content-type summary needs of every answer read (not their bodies). */
  readonly answers: AnswerSummary[];
  readonly checks: Check[];
  /**
   * Adds a check of `rule`, with the rule's requirement level; a fail or warn about a
   * `subject` that the recognised server documents (within a departure's scope) is added
   * as a vendor difference citing its page.
   */
  add(
    area: CheckArea,
    rule: RuleName,
    status: CheckStatus,
    message: string,
    extra?: { spec?: string; url?: string; subject?: FindingScope },
  ): void;
  /** Sends a request and keeps its answer for the summaries. */
  request(url: string, init?: Parameters<Prober['request']>[1]): Promise<ProbeResponse>;
}

/** A new context. */
export function createContext(
  prober: Prober,
  init: {
    entryUrl: string;
    keyHeader: string;
    hasKey: boolean;
    write: boolean;
    followDocs: boolean;
  },
): CheckContext {
  const context: CheckContext = {
    prober,
    ...init,
    origin: new URL(init.entryUrl).origin,
    prefix: 'std',
    collections: [],
    samples: new Map(),
    answers: [],
    checks: [],
    add(area, rule, status, message, extra = {}) {
      const { subject, ...where } = extra;
      const judged = judge(context.detected, rule, status, message, subject);
      context.checks.push({
        area,
        rule,
        status: judged.status,
        requirement: RULE_REQUIREMENTS[rule],
        message: judged.message,
        ...where,
        ...(judged.page ? { spec: judged.page } : {}),
      });
    },
    async request(url, init) {
      const answer = await prober.request(url, init);
      const { status, contentType } = answer;
      context.answers.push({ url, status, contentType, json: answer.json !== undefined });
      return answer;
    },
  };
  return context;
}

/**
 * Whether `url` is on `origin` (the server under test's); a URL that does not parse is
 * on no origin.
 */
export function onOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}

/** The specification's sections the checks cite. */
export const SPEC = {
  entryPoint: 'spec: API Entry Point; Entry point and metadata',
  curies: 'spec: API Entry Point (curies); HAL draft, CURIEs',
  versioning: 'spec: Versioning',
  limits: 'spec: Limits',
  collection: 'spec: Collection document',
  resources: 'spec: Resources and their fields',
  common: 'spec: Common fields (all resources)',
  errors: 'spec: Errors; Response codes for atomic requests',
  errorObject: 'spec: Error object (std:error)',
  auth: 'spec: Authentication',
  createUpdate: 'spec: Resource collections and records (rules for create and update)',
  helpers: 'spec: Helper endpoints',
  notes: 'reading notes: Things servers in the wild do',
  filtering: 'reading notes: incremental sync by filter (OData subset)',
  idempotency: 'docs/servers-in-the-wild.md: Idempotency-Key',
  cors: 'Fetch standard: CORS protocol (browser helper calls)',
} as const;
