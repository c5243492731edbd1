// The README's tour as a program: npx tsx examples/tour.ts <entry point URL> <API key>
import { connect, isHTTPError, primaryEmail } from 'adis-sdk';

const [url = 'http://127.0.0.1:8000/api/v1/', apiKey] = process.argv.slice(2);
const client = await connect(url, { apiKey, rateLimit: 10 }); // at most 10 requests a second
// Page through every person: one page in memory at a time, the next one read ahead.
let emails = 0;
for await (const p of client.people.items({ readAhead: true })) if (primaryEmail(p.data)) emails++;
console.log(`${emails} people with an email address`);
// Record a signature: the server matches or creates the signer, and counts the signature.
const petition = await client.petitions.create({ title: 'Save Elm Park' });
const signer = { given_name: 'Ana', email_addresses: [{ address: 'ana@example.org' }] };
const { person } = await petition.recordSignature({ person: signer, comments: 'Yes!' });
console.log(person?.data.given_name, (await petition.refresh()).data.total_signatures); // Ana 1
// Handle an error: an HTTPError has the status, the server's codes and its decoded std:error.
await petition.delete();
await petition.refresh().catch((error: unknown) => {
  if (!isHTTPError(error)) throw error;
  console.log(error.status, error.errorCode); // 404 NOT_FOUND (every code: error.errorCodes)
});
