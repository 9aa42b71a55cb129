import { ValidationError } from '../errors/ValidationError.js';
import type { WebhookTargets } from '../ports/WebhookTargets.js';

/** ValidationError on `url` when webhooks may not be sent there. */
export async function checkTarget(targets: WebhookTargets, url: string): Promise<void> {
  const problem = await targets.problem(url);
  if (problem !== null) throw ValidationError.of('url', problem);
}
