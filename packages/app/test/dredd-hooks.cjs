// Dredd hooks for the public document (/v1/openapi.json), for the command in docs/http-api.md, run against a server
// on a fresh database with a key that will not run out (packages/app/src/openapiTools.e2e.spec.ts runs the same).
//
// Dredd 14 sends the documented request (its examples) once for every documented answer, and expects every header
// that answer documents. So, before the run, the hooks add what the examples name: 25 available animals (the
// listing example then has a next page, so `Link`) and the documented create once (Dredd's create, with the same
// `Idempotency-Key`, is then its replay: `Idempotent-Replayed`). Each error answer is provoked by changing only what
// it is about (no key, an unknown parameter, another method, ...); those that need a state no request can set up are
// skipped, and so is HEAD, which Dredd 14 cannot send (its HTTP library refuses a HEAD with a body, and Dredd always
// attaches one); the e2e suites check those answers against the document instead (OpenApiResponseChecker).
const hooks = require('hooks');

/** Answers that need a state no request of this run can set up. */
const CANNOT_PROVOKE = {
  403: 'needs a key without the scope (this run has one key, with every scope)',
  408: 'needs a client that stops sending its request',
  409: 'needs two requests with one Idempotency-Key in flight at once',
  410: 'needs the clock past the sunset of GET /pets/{petId}',
  429: 'needs a key whose quota is spent (this run uses one that does not run out)',
  500: 'needs a fault in the server',
  503: 'needs the database or the rate-limit store down',
};

let base;
const header = (transaction, name) => Object.entries(transaction.request.headers).find(([key]) => key.toLowerCase() === name)?.[1];
const setHeader = (transaction, name, value) => {
  for (const key of Object.keys(transaction.request.headers)) if (key.toLowerCase() === name.toLowerCase()) delete transaction.request.headers[key];
  if (value !== undefined) transaction.request.headers[name] = value;
};
/** Sends the request to another path under the API's base, the query kept. */
const setPath = (transaction, uri) => {
  transaction.request.uri = uri;
  transaction.fullPath = `${new URL(base).pathname}${uri}`;
};

hooks.beforeAll(async (transactions, done) => {
  try {
    const first = transactions[0];
    base = `${first.protocol}//${first.host}:${first.port}${first.fullPath.slice(0, first.fullPath.length - first.request.uri.length)}`;
    const create = transactions.find((t) => t.request.method === 'POST' && t.request.uri === '/pets');
    const headers = { Authorization: header(create, 'authorization').trim(), 'Content-Type': 'application/json' };
    for (let i = 0; i < 25; i++) {
      const response = await fetch(`${base}/pets`, { method: 'POST', headers, body: JSON.stringify({ name: `pet ${i}`, categoryId: 2 }) });
      if (response.status !== 201) throw new Error(`seeding: POST /pets answered ${response.status} ${await response.text()}`);
    }
    const replayed = { ...headers, 'Idempotency-Key': header(create, 'idempotency-key') };
    const response = await fetch(`${base}/pets`, { method: 'POST', headers: replayed, body: create.request.body });
    if (response.status !== 201) throw new Error(`seeding: the documented create answered ${response.status} ${await response.text()}`);
    done();
  } catch (error) {
    done(error);
  }
});

hooks.beforeEach(async (transaction, done) => {
  try {
    await provoke(transaction);
    done();
  } catch (error) {
    done(error);
  }
});

async function provoke(transaction) {
  const status = Number(transaction.expected.statusCode);
  const { request } = transaction;
  if (request.method === 'HEAD') {
    transaction.skip = true;
  } else if (CANNOT_PROVOKE[status]) {
    transaction.skip = true;
  } else if (status === 304) {
    const current = await fetch(`${base}${request.uri}`, { headers: { Authorization: header(transaction, 'authorization').trim() } });
    setHeader(transaction, 'If-None-Match', current.headers.get('etag'));
  } else if (status === 400) {
    setPath(transaction, `${request.uri}${request.uri.includes('?') ? '&' : '?'}dredd=unknown`);
  } else if (status === 401) {
    setHeader(transaction, 'Authorization', 'Bearer pst_not_a_key');
  } else if (status === 404) {
    setPath(transaction, /^\/pets\/[^/?]+/.test(request.uri) ? request.uri.replace(/^\/pets\/[^/?]+/, '/pets/999999999') : `/unknown${request.uri}`);
  } else if (status === 405) {
    request.method = 'DELETE';
  } else if (status === 413) {
    request.body = JSON.stringify({ name: 'x'.repeat(17 * 1024), categoryId: 2 });
  } else if (status === 415) {
    setHeader(transaction, 'Content-Type', 'text/plain');
  } else if (status === 417) {
    setHeader(transaction, 'Expect', 'something-else');
  } else if (status === 422) {
    request.body = JSON.stringify({ ...JSON.parse(request.body), name: 'Not the documented body' });
  } else if (status === 431) {
    setHeader(transaction, 'X-Padding', 'x'.repeat(20 * 1024));
  }
}
