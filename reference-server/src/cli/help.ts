/**
 * `adis-server --help`: the usage text. Every flag is described in full in the server
 * README's table (https://github.com/adis-project/adis-sdk/tree/main/reference-server#flags);
 * `test/cli-help.test.ts` checks that both list the same flags.
 */

/**
 * What `--help` prints, as it is: the installed command first, then `npm start` for the
 * repository, then one entry per flag.
 */
export const HELP = `ADIS reference server

Usage: adis-server [options]     (npx adis-server where installed from npm, and
                                  in the adis-sdk repository after npm run build;
                                  npm start -- [options] in the adis-sdk repository
                                  without a build)

Options:
  --port <n>        TCP port (default 8000; 0 picks a free port)
  --host <addr>     interface to listen on (default 127.0.0.1)
  --db <path|url>   SQLite file, :memory:, or a PostgreSQL URL
                    (postgres://user:password@host:5432/db; several instances may
                    share it) (default: $DATABASE_URL when set, else data/adis.db in
                    the server's folder of this repository; ./adis.db when installed
                    from npm); a URL of another engine (mysql://…) is refused
  --pool-size <n>   PostgreSQL connections of this instance (default 10)
  --keys <file>     JSON API keys: {"keys":[{"token":"…","tenant":"…","access":"read"|"write"}]}
                    (without it, a write key for the 'demo' tenant is created and printed)
  --webhooks <file> JSON webhook subscriptions: {"webhooks":[{"tenant":"…","url":"…",
                    "secret":"…","triggers":["*"]}]}; any http(s) URL; triggers:
                    signature, attendance, submission, donation, outreach, canvass,
                    signup, or * for all (the default); tenants created when missing
  --remove-demo-key remove the demo tenant's write key an earlier start without
                    --keys left in the database (needs --keys)
  --webhooks-allow-private
                    let subscriptions made through the API name loopback, private
                    and link-local addresses (default: refused, with a 400)
  --seed <n>        add n demo people to the 'demo' tenant
                    (default: 300 when the database is new, 0 otherwise); on a new
                    database with n > 0, also demo activity for the first 60 of them
                    (petitions, signatures, events, donations, tags, …); --seed 0 on a
                    new database leaves it empty
  --public-url <u>  absolute root for links (default: the request's origin)
  --cors-origin <o> origins whose browser pages may call the API, comma-separated
                    or repeated, like https://www.example.org (default: * = any)
  --trust-proxy     count calls without a key per X-Forwarded-For (only behind a
                    proxy you run, which sets it), not per TCP peer
  --keyless-tag <name>
                    a tag helper calls without a key may apply (add_tags), in every
                    tenant; repeat for each (default: none, refused as missing)
  --keyless-list <name>
                    a list helper calls without a key may add people to
                    (add_lists); repeat for each (default: none)
  --message-send-rate <n>
                    recipients per second of a simulated message send (default 50)
  --preset <name>   answer as a real server documents its API: action-network
                    (entry point /api/v2/, OSDI-API-Token, osdi: and action_network:
                    relations, 4 calls a second per key, pages of 25, identifiers
                    action_network:<id>, nested record addresses, POST /people as
                    the upsert, its vocabulary and its own collections); the flags
                    below win over the preset's values (default: specification)
  --key-header <name>
                    header carrying the API key (default STD-API-Token)
  --curie-prefix <name>
                    curie prefix of the relations the server writes (default std);
                    with osdi: osdi:people, osdi:error, osdi_version
  --key-rate <n>    at most n calls per API key in any rolling second; more get 429
                    with Retry-After (default: no limit)
  --webhook-retry-hours <n>
                    how long a failing webhook subscription is retried (with
                    backoff) before it is switched off (default 24)
  --webhook-subscription-limit <n>
                    webhook subscriptions a tenant may make through the API; more
                    get 409 WEBHOOK_LIMIT_REACHED (default 100; 0: none; the
                    --webhooks file is not counted)
  --webhook-concurrency <n>
                    webhook POSTs in flight at most, server-wide, each tenant half
                    of them at most; more wait their turn (default 16)
  --headers-timeout <s>
                    seconds a client may take to send a request's headers; then 408
                    and the connection is closed (default 10)
  --request-timeout <s>
                    seconds a client may take to send a whole request, body included,
                    at least --headers-timeout (default 30)
  --keep-alive-timeout <s>
                    seconds an idle connection is kept open for the next request
                    (default 5; above your load balancer's idle timeout behind one)
  --quiet           no access log (default: one line per request on stdout)
  --help            show this help

Every flag in detail: https://github.com/adis-project/adis-sdk/tree/main/reference-server#flags
`;
