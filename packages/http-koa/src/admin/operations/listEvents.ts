import { ListEvents, type PetStore } from '@petstore/core';
import { defineOperation, type AdminOperation } from '../../operations/Operation.js';
import { pageParameters, sendJson } from '../adminParameters.js';
import { EventsSchema } from '../webhookSchemas.js';

/** `GET /events`: the recorded events, newest first. */
export function listEvents(store: Pick<PetStore, 'listEvents'>): AdminOperation {
  return defineOperation({
    operationId: 'listEvents',
    method: 'GET',
    path: '/events',
    admission: 'admin-token',
    tag: 'webhooks',
    summary: 'List events',
    description:
      'Every change to an animal, newest first: `pet.created` and `pet.updated`, each with the payload its webhooks carry. ' +
      'Each is recorded in the same transaction as its change.',
    parameters: pageParameters(ListEvents.cursorAt({ at: new Date('2026-11-25T10:00:00.000Z'), id: 'evt_019ab3c4d5e20001f0e1d2c3b4a5' })),
    responses: [{ status: 200, description: 'A page of events.', body: EventsSchema }],
    errors: ['validation_error'],
    input: ({ query }) => query,
    async handle(ctx, query) {
      sendJson(ctx, await store.listEvents.execute(query));
    },
  });
}
