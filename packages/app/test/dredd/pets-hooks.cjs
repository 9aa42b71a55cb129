// Dredd hooks for the public document (/v1/openapi.json): the command in docs/http-api.md, against a server on a
// fresh database with a key that does not run out (packages/app/src/openapiTools.e2e.spec.ts runs the same). The
// animals the examples name are added first (pets.cjs). Error answers: see provoke.cjs.
const hooks = require('hooks');
const { NEEDS_A_STATE, baseOf } = require('./provoke.cjs');
const { PET_STATES, preparePetTransaction, seedPets } = require('./pets.cjs');

const SKIPPED = {
  ...NEEDS_A_STATE,
  ...PET_STATES,
  403: 'needs a key without the scope (this run has one key, with every scope)',
  410: 'needs the clock past the sunset of GET /pets/{petId}',
  429: 'needs a key whose quota is spent (this run uses one that does not run out)',
};

let base;

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
    await preparePetTransaction(transaction, base, SKIPPED);
    done();
  } catch (error) {
    done(error);
  }
});
