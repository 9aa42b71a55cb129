import { generateApiKeySecret, hashApiKeySecret } from '../access/ApiKeySecret.js';
import type { AuditActor } from '../access/AuditEvent.js';
import { NotFoundError } from '../errors/NotFoundError.js';
import { ValidationError, type FieldProblem } from '../errors/ValidationError.js';
import type { Clock } from '../ports/Clock.js';
import type { KeyStore } from '../ports/KeyStore.js';
import { findKeyToChange } from './findKey.js';
import type { IssuedApiKey } from './IssueApiKey.js';
import type { KeyAudit } from './KeyAudit.js';
import type { KeyViews } from './KeyViews.js';

export interface RotationOptions {
  /** How long the replaced secret keeps working: whole seconds, 0 to 30 days, default 24 hours. */
  gracePeriodSeconds?: unknown;
}

export const DEFAULT_GRACE_PERIOD_SECONDS = 86_400;
export const MAX_GRACE_PERIOD_SECONDS = 30 * 86_400;

function gracePeriodOf(options: unknown, problems: FieldProblem[]): number {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    problems.push({ field: 'body', message: 'the rotation options must be an object' });
    return 0;
  }
  for (const field of Object.keys(options)) {
    if (field !== 'gracePeriodSeconds') problems.push({ field, message: `${field} is not a rotation option (use gracePeriodSeconds)` });
  }
  const { gracePeriodSeconds = DEFAULT_GRACE_PERIOD_SECONDS } = options as RotationOptions;
  if (Number.isSafeInteger(gracePeriodSeconds) && (gracePeriodSeconds as number) >= 0 && (gracePeriodSeconds as number) <= MAX_GRACE_PERIOD_SECONDS) {
    return gracePeriodSeconds as number;
  }
  problems.push({
    field: 'gracePeriodSeconds',
    message: `gracePeriodSeconds must be a whole number from 0 to ${MAX_GRACE_PERIOD_SECONDS} (30 days)`,
  });
  return 0;
}

/**
 * Gives a key a new secret, keeping its id and everything else (plan, limits, scopes, expiry, ban, quota). The
 * replaced secret keeps working for the grace period, then gets 401; a secret replaced by an earlier rotation stops
 * at once. A revoked key cannot be rotated. Audited as `key.rotated` (never a secret).
 */
export class RotateApiKey {
  constructor(
    private readonly keys: KeyStore,
    private readonly views: KeyViews,
    private readonly audit: KeyAudit,
    private readonly clock: Clock,
  ) {}

  async execute(id: string, options: RotationOptions, actor: AuditActor): Promise<IssuedApiKey> {
    const now = this.clock.now();
    const before = await findKeyToChange(this.keys, id);
    const problems: FieldProblem[] = [];
    const gracePeriodSeconds = gracePeriodOf(options, problems);
    if (problems.length > 0) throw new ValidationError(problems);

    const secret = generateApiKeySecret();
    const previousSecretExpiresAt = new Date(now.getTime() + gracePeriodSeconds * 1000);
    const after = await this.keys.rotate(id, { secretHash: hashApiKeySecret(secret), previousSecretExpiresAt });
    if (!after) throw new NotFoundError(`No API key with id ${id}.`);
    await this.audit.record(now, actor, 'key.rotated', before, after);
    return { key: await this.views.one(after), secret };
  }
}
