import type { AuditActor } from '../access/AuditEvent.js';
import type { KeyView } from '../access/KeyView.js';
import { limitProblems, parseKeySettings, type KeySettingName } from '../access/parseKeySettings.js';
import { NotFoundError } from '../errors/NotFoundError.js';
import { ValidationError } from '../errors/ValidationError.js';
import type { Clock } from '../ports/Clock.js';
import type { KeyChanges, KeyStore } from '../ports/KeyStore.js';
import { findKeyToChange } from './findKey.js';
import type { KeyAudit } from './KeyAudit.js';
import type { KeyViews } from './KeyViews.js';

/** The settings to change, as a transport receives them; each is optional, at least one is required. */
export interface ApiKeyUpdate {
  name?: unknown;
  plan?: unknown;
  /** null: back to the plan's limit. */
  perMinute?: unknown;
  perDay?: unknown;
  scopes?: unknown;
  /** ISO 8601 with offset, in the future; null: no expiry. */
  expiresAt?: unknown;
  disabled?: unknown;
}

const SETTINGS: readonly KeySettingName[] = ['name', 'plan', 'perMinute', 'perDay', 'scopes', 'expiresAt', 'disabled'];

/**
 * Changes a key's name, plan, limit overrides, scopes, expiry or disabled flag; the rules of a new key apply to the
 * result. A revoked key cannot be changed. Audited as `key.updated` with each changed field before and after.
 */
export class UpdateApiKey {
  constructor(
    private readonly keys: KeyStore,
    private readonly views: KeyViews,
    private readonly audit: KeyAudit,
    private readonly clock: Clock,
  ) {}

  async execute(id: string, update: ApiKeyUpdate, actor: AuditActor): Promise<KeyView> {
    const now = this.clock.now();
    const before = await findKeyToChange(this.keys, id);
    const { settings, problems } = parseKeySettings(update, SETTINGS, now);
    if (problems.length === 0 && Object.keys(settings).length === 0) {
      problems.push({ field: 'body', message: `give at least one setting to change: ${SETTINGS.join(', ')}` });
    }
    const { perMinute, perDay, ...rest } = settings;
    const changes: KeyChanges = { ...rest };
    if (perMinute !== undefined || perDay !== undefined) {
      changes.limitOverrides = {
        perMinute: perMinute === undefined ? before.limitOverrides.perMinute : perMinute,
        perDay: perDay === undefined ? before.limitOverrides.perDay : perDay,
      };
    }
    if (!problems.some((p) => p.field === 'plan' || p.field === 'perMinute' || p.field === 'perDay')) {
      problems.push(...limitProblems(changes.plan ?? before.plan, changes.limitOverrides ?? before.limitOverrides));
    }
    if (problems.length > 0) throw new ValidationError(problems);

    const after = await this.keys.update(id, changes);
    if (!after) throw new NotFoundError(`No API key with id ${id}.`);
    await this.audit.record(now, actor, 'key.updated', before, after);
    return this.views.one(after);
  }
}
