import { defineOperation, type AdminOperation } from '../../operations/Operation.js';
import { sendJson } from '../adminParameters.js';
import { OverviewSchema, type ServiceOverview } from '../overviewSchema.js';

/** `GET /overview`: this instance's request counts and the webhook backlog, for the console's overview page. */
export function getOverview(readOverview: () => Promise<ServiceOverview>): AdminOperation {
  return defineOperation({
    operationId: 'getOverview',
    method: 'GET',
    path: '/overview',
    admission: 'admin-token',
    tag: 'overview',
    summary: "The service's traffic and webhook backlog",
    description:
      'What the metrics endpoint also shows, as JSON: how many `/v1` requests this instance answered since it started ' +
      'and how many of them were `429`, and the webhook backlog (pending deliveries, undispatched events, lag). ' +
      'Read it twice to get a rate.',
    responses: [{ status: 200, description: 'The overview, read now.', body: OverviewSchema }],
    errors: [],
    input: () => undefined,
    async handle(ctx) {
      sendJson(ctx, await readOverview());
    },
  });
}
