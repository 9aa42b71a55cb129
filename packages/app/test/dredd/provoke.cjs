// What the two hook files (pets-hooks.cjs, admin-hooks.cjs) share: Dredd 14 sends the documented request (its
// examples) once for every documented answer and expects every header that answer documents, so each error answer
// is provoked by changing only what it is about. HEAD is skipped: Dredd 14 cannot send it (its HTTP library refuses
// a HEAD with a body, and Dredd always attaches one); the e2e suites check HEAD answers against the document instead.

/** The API's base URL (`http://host:port/v1`), from a transaction. */
const baseOf = (transaction) =>
  `${transaction.protocol}//${transaction.host}:${transaction.port}${transaction.fullPath.slice(0, transaction.fullPath.length - transaction.request.uri.length)}`;

const header = (transaction, name) =>
  Object.entries(transaction.request.headers)
    .find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1]
    ?.trim();

function setHeader(transaction, name, value) {
  for (const key of Object.keys(transaction.request.headers)) if (key.toLowerCase() === name.toLowerCase()) delete transaction.request.headers[key];
  if (value !== undefined) transaction.request.headers[name] = value;
}

/** Sends the request to another URI under the API's base. */
function setUri(transaction, uri) {
  const prefix = transaction.fullPath.slice(0, transaction.fullPath.length - transaction.request.uri.length);
  transaction.request.uri = uri;
  transaction.fullPath = `${prefix}${uri}`;
}

/**
 * Changes the transaction so that the server gives the answer it expects, when a change of the request alone can;
 * `skipped` names the statuses that need a state no request of the run can set up (status to reason).
 */
function provoke(transaction, skipped) {
  const status = Number(transaction.expected.statusCode);
  const { request } = transaction;
  if (request.method === 'HEAD' || skipped[status] !== undefined) transaction.skip = true;
  else if (status === 400) setUri(transaction, `${request.uri}${request.uri.includes('?') ? '&' : '?'}dredd=unknown`);
  else if (status === 401) setHeader(transaction, 'Authorization', 'Bearer not-the-credential');
  else if (status === 404) setUri(transaction, `/unknown${request.uri}`);
  else if (status === 405) request.method = 'PUT';
  else if (status === 413) request.body = JSON.stringify({ name: 'x'.repeat(17 * 1024) });
  else if (status === 415) setHeader(transaction, 'Content-Type', 'text/plain');
  else if (status === 417) setHeader(transaction, 'Expect', 'something-else');
  else if (status === 431) setHeader(transaction, 'X-Padding', 'x'.repeat(20 * 1024));
}

/** The reasons for the statuses no request can provoke, common to both documents. */
const NEEDS_A_STATE = {
  408: 'needs a client that stops sending its request',
  500: 'needs a fault in the server',
  503: 'needs the database or the rate-limit store down',
};

module.exports = { NEEDS_A_STATE, baseOf, header, provoke, setHeader, setUri };
