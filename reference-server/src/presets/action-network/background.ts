/**
 * What Action Network processes in the background, as its API's general principles
 * page documents it (`actionnetwork.org/docs/v2/`, section "Background Processing and
 * Queueing"): a client adds `background_request=true` to the URL of a call it does not
 * need the result of (heavy work, or calls that would exceed the rate limit), and gets
 * an immediate success with an empty JSON body (the page's example: `200 OK {}`), the
 * call going to a queue to be done later. The page lists the operations that take it,
 * by resource; every other call is done at once, whatever the parameter says.
 */
import type { BackgroundProcessing } from '../background-processing.js';

/**
 * Action Network's background processing: the page's table, row for row ("Attendances:
 * POST, PUT, record attendance helper", …), answered `200` with `{}`.
 */
export const ACTION_NETWORK_BACKGROUND: BackgroundProcessing = {
  status: 200,
  operations: {
    attendances: ['POST', 'PUT', 'helper'],
    donations: ['POST', 'PUT', 'helper'],
    outreaches: ['POST', 'PUT', 'helper'],
    // Not the create: under the preset a POST to people is the person signup helper.
    people: ['PUT', 'helper'],
    signatures: ['POST', 'PUT', 'helper'],
    submissions: ['POST', 'PUT', 'helper'],
    // Listed by the page with its record response helper; this server has no responses
    // collection, so the row applies to nothing here. Kept so the table reads as documented.
    responses: ['POST', 'PUT', 'helper'],
    taggings: ['POST', 'DELETE'],
  },
};
