import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Client,
  connect,
  HalDocument,
  isHTTPError,
  LinkNotFoundError,
} from '../../src/index.js';
import { NavigatorContext } from '../../src/navigator/context.js';
import { Metadata } from '../../src/navigator/metadata.js';
import { type TestServer, testServer } from './reference-server.js';

let server: TestServer;
let client: Client;
let context: NavigatorContext;

beforeAll(async () => {
  server = testServer();
  client = await connect(server.entryPoint, { apiKey: server.keys.read, fetch: server.fetch });
  // The client keeps its context private; one over the same transport and curies reads
  // exactly as the client would.
  context = new NavigatorContext(client.transport, client.curies, true);
});
afterAll(() => server.close());

async function metadata(): Promise<Metadata> {
  return new Metadata(context, await client.follow('std:metadata'));
}

describe('metadata through the SDK, against the reference server', () => {
  it('reads the metadata root from the entry point link', async () => {
    const root = await metadata();
    expect(root.url).toBe('http://adis.test/api/v1/metadata');
    expect(root.data.name).toEqual(expect.any(String));
    for (const rel of [
      'std:canvass_response_codes',
      'std:canvass_contact_types',
      'std:canvass_input_types',
    ]) {
      expect(root.root.link(rel)?.title).toEqual(expect.any(String));
    }
  });

  it('loads the root by URL', async () => {
    const root = await Metadata.load(context, client.root.link('std:metadata')!.url());
    expect(root.root.relations()).toContain('std:canvass_input_types');
  });

  it('reads the three lists', async () => {
    const root = await metadata();
    const codes = await root.responseCodes();
    expect(codes).toMatchObject({
      name: 'canvass_response_codes',
      identifiers: [`${client.entryPoint.namespace}:canvass_response_codes`],
      origin_system: expect.any(String),
      description: expect.any(String),
    });
    expect(codes.response_codes?.map((code) => code.response_code)).toEqual(
      expect.arrayContaining(['not_home', 'refused', 'spoke_with_target', 'busy']),
    );
    const contactTypes = await root.contactTypes();
    expect(contactTypes.contact_types?.map((type) => type.contact_type)).toEqual([
      'door',
      'phone',
      'text',
      'email',
      'event',
    ]);
    expect(contactTypes.contact_types?.[0]?.name).toEqual(expect.any(String));
    const inputTypes = await root.inputTypes();
    expect(inputTypes.input_types?.map((type) => type.input_type)).toEqual(
      expect.arrayContaining(['mobile_app', 'paper_scan', 'data_entry', 'predictive_dialer']),
    );
  });

  it('filters the response codes by contact type', async () => {
    const root = await metadata();
    const all = (await root.responseCodes()).response_codes ?? [];
    const door = (await root.responseCodes({ contactType: 'door' })).response_codes ?? [];
    const doorCodes = door.map((code) => code.response_code);
    expect(doorCodes).toContain('not_home');
    expect(doorCodes).not.toContain('busy');
    expect(door.length).toBeLessThan(all.length);
    // Every contact type the server lists is a valid filter.
    for (const type of (await root.contactTypes()).contact_types ?? []) {
      const list = await root.responseCodes({ contactType: type.contact_type ?? '' });
      expect(list.response_codes?.length).toBeGreaterThan(0);
    }
  });

  it('an unknown contact type is an HTTPError 400 with INVALID_PARAMETER', async () => {
    const root = await metadata();
    const error = await root.responseCodes({ contactType: 'carrier_pigeon' }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(isHTTPError(error)).toBe(true);
    if (!isHTTPError(error)) return;
    expect(error.status).toBe(400);
    expect(error.url).toBe(
      'http://adis.test/api/v1/metadata/canvass_response_codes?contacttype=carrier_pigeon',
    );
    const description = error.stdError?.resource_status[0]?.error_descriptions?.[0];
    expect(description?.error_code).toBe('INVALID_PARAMETER');
    expect(description?.hint).toContain('door');
  });

  it('passes the filter through a templated link as its variable', async () => {
    const root = HalDocument.parse(
      {
        name: 'Metadata',
        _links: {
          'std:canvass_response_codes': {
            href: '/api/v1/metadata/canvass_response_codes{?contacttype}',
            templated: true,
          },
        },
      },
      'http://adis.test/api/v1/metadata',
      client.curies,
    );
    const phone = await new Metadata(context, root).responseCodes({ contactType: 'phone' });
    expect(phone.response_codes?.map((code) => code.response_code)).toContain('wrong_number');
    expect(phone.response_codes?.map((code) => code.response_code)).not.toContain('not_home');
    const all = await new Metadata(context, root).responseCodes();
    expect(all.response_codes?.length).toBeGreaterThan(phone.response_codes?.length ?? 0);
  });

  it('a missing link is a LinkNotFoundError naming the relations present', async () => {
    const root = HalDocument.parse(
      { _links: { self: { href: '/api/v1/metadata' } } },
      'http://adis.test/api/v1/metadata',
      client.curies,
    );
    const error = await new Metadata(context, root).inputTypes().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LinkNotFoundError);
    expect((error as LinkNotFoundError).rel).toBe('std:canvass_input_types');
    expect((error as LinkNotFoundError).available).toEqual(['self']);
  });
});
