// What the two hook files share about the animal operations (the public document's, and the admin document's, which
// are the same operations with the admin token). Before the run: 25 available animals (the listing example, the start
// of the `available` listing, then has a next page: `Link`), the documented create and change once (Dredd's, with
// the same `Idempotency-Key`, are then their replays: `Idempotent-Replayed`) and a sold animal (whose status cannot
// change: `409`). Each animal transaction is then changed so that the server gives the answer it expects.
const { header, provoke, setHeader, setUri } = require('./provoke.cjs');

/** A sold animal: a change of its status is refused (409 invalid_transition). */
let soldId;

/** Adds what the animal examples name, through the API at `base` with the create transaction's credential. */
async function seedPets(transactions, base) {
  const create = transactions.find((t) => t.request.method === 'POST' && t.request.uri === '/pets');
  const headers = { Authorization: header(create, 'Authorization'), 'Content-Type': 'application/json' };
  for (let i = 0; i < 25; i++) {
    const response = await fetch(`${base}/pets`, { method: 'POST', headers, body: JSON.stringify({ name: `pet ${i}`, categoryId: 2 }) });
    if (response.status !== 201) throw new Error(`seeding: POST /pets answered ${response.status} ${await response.text()}`);
  }
  const documented = { ...headers, 'Idempotency-Key': header(create, 'Idempotency-Key') };
  const response = await fetch(`${base}/pets`, { method: 'POST', headers: documented, body: create.request.body });
  if (response.status !== 201) throw new Error(`seeding: the documented create answered ${response.status} ${await response.text()}`);
  const change = transactions.find((t) => t.request.method === 'PATCH' && t.request.uri.startsWith('/pets/') && t.expected.statusCode === '200');
  const changed = await fetch(`${base}${change.request.uri}`, {
    method: 'PATCH',
    headers: {
      ...headers,
      'If-Match': header(change, 'If-Match'),
      'If-None-Match': header(change, 'If-None-Match'),
      'Idempotency-Key': header(change, 'Idempotency-Key'),
    },
    body: change.request.body,
  });
  if (changed.status !== 200) throw new Error(`seeding: the documented change answered ${changed.status} ${await changed.text()}`);
  const sold = await fetch(`${base}/pets`, { method: 'POST', headers, body: JSON.stringify({ name: 'Adopted', categoryId: 2, status: 'sold' }) });
  soldId = (await sold.json()).id;
}

/** Prepares an animal transaction (`/pets...`) against `base`, `skipped` naming the statuses no request can provoke. */
async function preparePetTransaction(transaction, base, skipped) {
  const status = Number(transaction.expected.statusCode);
  const { request } = transaction;
  if (request.method === 'PATCH' && (status === 409 || status === 412)) {
    // A change the rules refuse (a sold animal made available), or one from a tag the animal does not have.
    setHeader(transaction, 'Idempotency-Key', undefined);
    if (status === 412) setHeader(transaction, 'If-Match', '"p1.1.0"');
    else {
      setHeader(transaction, 'If-Match', undefined);
      setUri(transaction, `/pets/${soldId}`);
      request.body = JSON.stringify({ status: 'available' });
    }
    return;
  }
  provoke(transaction, skipped);
  if (transaction.skip) return;
  if (status === 304) {
    // The ETag the same request gets now.
    const current = await fetch(`${base}${request.uri}`, { headers: { Authorization: header(transaction, 'Authorization') } });
    setHeader(transaction, 'If-None-Match', current.headers.get('etag'));
  } else if (status === 404 && /^\/unknown\/pets\/[^/?]+/.test(request.uri)) {
    // An animal that does not exist.
    setUri(transaction, request.uri.replace(/^\/unknown\/pets\/[^/?]+/, '/pets/999999999'));
    // The documented Idempotency-Key was spent on the documented change of another animal.
    setHeader(transaction, 'Idempotency-Key', undefined);
  } else if (status === 413) {
    request.body = JSON.stringify({ name: 'x'.repeat(17 * 1024), categoryId: 2 });
  } else if (status === 422) {
    // The documented Idempotency-Key (used by the seeding) with another body.
    request.body = JSON.stringify({ ...JSON.parse(request.body), name: 'Not the documented body' });
  }
}

/** The statuses of the animal operations no request of a run can provoke. */
const PET_STATES = {
  409: 'needs two requests with one Idempotency-Key in flight at once (a change refused by the rules is provoked)',
};

module.exports = { PET_STATES, preparePetTransaction, seedPets };
