// The quick start of docs/client.md. Run against a server (`pnpm start` prints a key on first run):
//   PETSTORE_BASE_URL=http://127.0.0.1:3000/v1 PETSTORE_API_KEY=pst_... node examples/dist/client-quickstart.js
import { createClient, PetstoreError } from '@petstore/client';

const client = createClient({
  baseUrl: process.env['PETSTORE_BASE_URL'] ?? 'http://127.0.0.1:3000/v1',
  apiKey: process.env['PETSTORE_API_KEY'] ?? '',
  onWait: ({ operation, reason, delayMs }) => console.error(`${operation}: waiting ${delayMs} ms (${reason})`),
});

// Safe to retry: the client sends one Idempotency-Key for every attempt of this create.
const rex = await client.createPet({ name: 'Rex', categoryId: 1, status: 'available' });
console.log(`created pet ${rex.id}: ${rex.name}`);

// Every available pet, page after page (Link: rel="next" is followed for you).
const names: string[] = [];
for await (const pet of client.iteratePets({ status: 'available', limit: 100 })) names.push(pet.name);
console.log(`${names.length} pets available`);

// Errors carry the service's code, status, message, details and the request id.
try {
  await client.createPet({ name: '', categoryId: 1 });
} catch (error) {
  if (!PetstoreError.is(error) || error.code !== 'validation_error') throw error;
  console.log(`refused as expected: ${error.code} ${error.details?.map((d) => d.field).join(', ')} (request ${error.requestId})`);
}

console.log(
  `rate limit: ${client.rateLimit?.remaining} of ${client.rateLimit?.limit} left until ${new Date((client.rateLimit?.reset ?? 0) * 1000).toISOString()}`,
);
