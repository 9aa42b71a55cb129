// Dredd hooks for the admin document (/admin/v1/openapi.json): the command in docs/http-api.md, against a server on
// a fresh database started with ADMIN_TOKEN (packages/app/src/openapiTools.e2e.spec.ts runs the same). The
// examples name a key id no database has: each request that names it gets a key of its own, created just before
// (revoking or rotating one key does not change what the next request sees). The animal operations are the public
// document's, with the admin token: their examples' animals are added first (pets.cjs). Error answers: see provoke.cjs.
const hooks = require('hooks');
const { NEEDS_A_STATE, baseOf, header, provoke, setUri } = require('./provoke.cjs');
const { PET_STATES, preparePetTransaction, seedPets } = require('./pets.cjs');

/** The key id the examples name (`key_` and 16 hex digits). */
const KEY_ID = /key_[0-9a-f]{16}/;
/** The webhook endpoint id the examples name; each request that names it gets an endpoint of its own. */
const ENDPOINT_ID = /we_[0-9a-f]{16}/;
let base;

async function send(transaction, method, path, body) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: header(transaction, 'Authorization'), 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status} ${await response.text()}`);
  return response.json();
}

/** A new key whose plan then changes (as in the audit example): two audit events. */
async function createKey(transaction) {
  const { id } = await send(transaction, 'POST', '/keys', { plan: 'free', name: 'dredd' });
  await send(transaction, 'PATCH', `/keys/${id}`, { plan: 'pro' });
  return id;
}

async function createEndpoint(transaction) {
  return (await send(transaction, 'POST', '/webhook-endpoints', { url: 'https://crm.example.org/hooks/petstore' })).id;
}

/** An event the server recorded (the run starts on a database with a pet: see openapiTools.e2e.spec.ts). */
async function anEventId(transaction) {
  const response = await fetch(`${base}/events?limit=1`, { headers: { Authorization: header(transaction, 'Authorization') } });
  return (await response.json()).events[0].id;
}

hooks.beforeAll(async (transactions, done) => {
  try {
    base = baseOf(transactions[0]);
    await seedPets(transactions, base);
    done();
  } catch (error) {
    done(error);
  }
});

hooks.beforeEach(async (transaction, done) => {
  try {
    if (/^(\/unknown)?\/pets(\/|\?|$)/.test(transaction.request.uri)) {
      await preparePetTransaction(transaction, base, { ...NEEDS_A_STATE, ...PET_STATES });
      return done();
    }
    const status = Number(transaction.expected.statusCode);
    provoke(transaction, NEEDS_A_STATE);
    if (transaction.skip) return done();
    const [path, query] = transaction.request.uri.split('?');
    if (status === 404 && ENDPOINT_ID.test(path)) {
      setUri(transaction, transaction.request.uri.replace(/^\/unknown\//, '/').replace(ENDPOINT_ID, 'we_0000000000000000'));
    } else if (status !== 404 && ENDPOINT_ID.test(transaction.request.uri)) {
      setUri(transaction, transaction.request.uri.replace(ENDPOINT_ID, await createEndpoint(transaction)));
      if (status === 202) transaction.request.body = JSON.stringify({ eventId: await anEventId(transaction) });
      if (status === 409 && path.endsWith('/resend')) {
        // A resend of the event to the endpoint already waits: the second is refused.
        const eventId = await anEventId(transaction);
        const endpointPath = transaction.request.uri.replace(/^\/unknown\//, '/');
        await send(transaction, 'POST', endpointPath, { eventId });
        transaction.request.body = JSON.stringify({ eventId });
      }
    }
    if (status === 404 && KEY_ID.test(path)) {
      setUri(transaction, transaction.request.uri.replace(/^\/unknown\//, '/').replace(KEY_ID, 'key_0000000000000000'));
    } else if (status !== 404 && KEY_ID.test(transaction.request.uri)) {
      setUri(transaction, transaction.request.uri.replaceAll(new RegExp(KEY_ID, 'g'), await createKey(transaction)));
    }
    if (status === 200 && query?.includes('cursor=')) {
      // The example's cursor names a place in a listing this database does not have: the first page of one
      // item instead, of at least two (so it names the next page, as the example does).
      if (!query.includes('keyId=')) await createKey(transaction);
      const params = new URLSearchParams(transaction.request.uri.split('?')[1]);
      params.delete('cursor');
      params.set('limit', '1');
      setUri(transaction, `${transaction.request.uri.split('?')[0]}?${params}`);
    }
    done();
  } catch (error) {
    done(error);
  }
});
