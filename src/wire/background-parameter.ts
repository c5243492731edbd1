/**
 * The query parameter by which a call asks to be processed in the background, spelt as
 * Action Network documents it: its API's general principles page (`actionnetwork.org/
 * docs/v2/`, "Background Processing and Queueing") has clients add
 * `background_request=true` to a call's URL, and the server then answers at once with
 * an empty JSON object (its example: `200 OK {}`) and does the work later, from a
 * queue. This is the SDK's default (`background: true` on the light entry's helper
 * calls always sends it; on the navigator's writes and helpers `connect`'s
 * `backgroundParameter` may name another) and a spelling the reference server accepts.
 *
 * Why not `background_processing`, which earlier versions of the SDK sent: Action
 * Network documents no such parameter, so there the option did nothing, and no error
 * said so. The reference server still accepts it, for the clients that send it.
 */
export const DEFAULT_BACKGROUND_PARAMETER = 'background_request';
