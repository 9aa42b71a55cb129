import { ListAuditEvents, type PetStore } from '@petstore/core';
import { defineOperation, type AdminOperation } from '../../operations/Operation.js';
import { AuditEventsSchema } from '../adminSchemas.js';
import { KEY_ID, pageParameters, sendJson } from '../adminParameters.js';

/** `GET /audit-events`: the audit trail, newest first. */
export function listAuditEvents(store: Pick<PetStore, 'listAuditEvents'>): AdminOperation {
  return defineOperation({
    operationId: 'listAuditEvents',
    method: 'GET',
    path: '/audit-events',
    admission: 'admin-token',
    tag: 'audit',
    summary: 'List audit events',
    description:
      'Every administrative action on keys, from the CLI (`cli`) and this API (`admin-api`), newest first, append-only: ' +
      'when, who, what, which key and each changed field before and after. Never a secret.',
    parameters: [
      {
        name: 'keyId',
        in: 'query',
        required: false,
        description: "Only this key's events.",
        schema: { type: 'string', minLength: 1 },
        example: KEY_ID.example,
      },
      // The cursor example continues the listing the `keyId` example asks for: tools send the examples together.
      ...pageParameters(
        ListAuditEvents.cursorAt({ at: new Date('2026-11-25T10:00:00.000Z'), id: 'evt_019ab3c4d5e60001a1b2c3d4e5f6' }, KEY_ID.example as string),
      ),
    ],
    responses: [{ status: 200, description: 'A page of events.', body: AuditEventsSchema }],
    errors: ['validation_error'],
    input: ({ query }) => query,
    async handle(ctx, query) {
      sendJson(ctx, await store.listAuditEvents.execute(query));
    },
  });
}
