/**
 * The same requests sent to the plain server and to the server under the Action Network
 * preset, for tests that compare the two.
 */
import { expect } from 'vitest';
import { ACTION_NETWORK_PRESET } from '../src/presets/action-network.js';
import { type Harness, harness, type Json, presetHarness } from './helpers.js';

/** One server and what differs between the two: paths, the curie prefix, helper paths. */
export interface Server {
  h: Harness;
  api: string;
  prefix: string;
  /** Path of the record signature helper below a petition. */
  signatureHelper: string;
  /** Path of the record donation helper below a fundraising page. */
  donationHelper: string;
  /** Path of the record attendance helper below an event. */
  attendanceHelper: string;
}

/** The server under ACTION_NETWORK_PRESET (its key rate off). */
export function actionNetwork(): Server {
  return {
    h: presetHarness(ACTION_NETWORK_PRESET),
    api: '/api/v2',
    prefix: 'osdi',
    signatureHelper: 'signatures',
    donationHelper: 'donations',
    attendanceHelper: 'attendances',
  };
}

/** The plain server. */
export function plain(): Server {
  return {
    h: harness(),
    api: '/api/v1',
    prefix: 'std',
    signatureHelper: 'record_signature_helper',
    donationHelper: 'record_donation_helper',
    attendanceHelper: 'record_attendance_helper',
  };
}

/** A call to `path` below the server's API prefix. */
export async function send(server: Server, method: string, path: string, body?: unknown) {
  return server.h.json(method, `${server.api}/${path}`, body === undefined ? {} : { body });
}

/** The id in a record's self href. */
export function idOf(record: Json): string {
  return String(record._links.self.href).split('/').pop() ?? '';
}

/** Creates a record (201 expected) and answers the document. */
export async function created(server: Server, plural: string, body: unknown): Promise<Json> {
  const answer = await send(server, 'POST', plural, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body;
}
