import type { AuditActor } from '../access/AuditEvent.js';
import type { KeyView } from '../access/KeyView.js';
import { limitProblems, parseKeySettings, type KeySettingName } from '../access/parseKeySettings.js';
import type { ApiKey } from '../access/ApiKey.js';
import { ServiceUnavailableError } from '../errors/ServiceUnavailableError.js';
import { ValidationError } from '../errors/ValidationError.js';
import type { NumberLiterals } from '../input/integerLiterals.js';
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

/** How many times a change is decided afresh when other changes to the key keep landing between its read and write. */
const UPDATE_ATTEMPTS = 10;

/**
 * Changes a key's name, plan, limit overrides, scopes, expiry or disabled flag; the rules of a new key apply to the
 * result. A revoked key cannot be changed. Audited as `key.updated` with each changed field before and after.
 *
 * Concurrent changes are serialised without locks: the change is decided against the key as read and written only
 * if the key is still as read (KeyStore's compare-and-set); otherwise it is decided again against the key as it now
 * is, the rules included, so no change is lost, no forbidden state is written, and the audit event records exactly
 * what this change did. After UPDATE_ATTEMPTS lost races the request answers `service_unavailable`: nothing changed.
 */
export class UpdateApiKey {
  constructor(
    private readonly keys: KeyStore,
    private readonly views: KeyViews,
    private readonly audit: KeyAudit,
    private readonly clock: Clock,
  ) {}

  async execute(id: string, update: ApiKeyUpdate, actor: AuditActor, numberLiterals?: NumberLiterals): Promise<KeyView> {
    const now = this.clock.now();
    for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt++) {
      const before = await findKeyToChange(this.keys, id);
      const after = await this.keys.update(before, changesTo(before, update, now, numberLiterals));
      if (after) {
        await this.audit.record(now, actor, 'key.updated', before, after);
        return this.views.one(after);
      }
    }
    throw new ServiceUnavailableError(`key store: API key ${id} kept changing under this update; nothing was changed`, 1);
  }
}

/** The changes `update` makes to `key`, checked against the rules on the key as it would be; else ValidationError. */
function changesTo(key: ApiKey, update: ApiKeyUpdate, now: Date, numberLiterals: NumberLiterals | undefined): KeyChanges {
  const { settings, problems } = parseKeySettings(update, SETTINGS, now, numberLiterals);
  if (problems.length === 0 && Object.keys(settings).length === 0) {
    problems.push({ field: 'body', message: `give at least one setting to change: ${SETTINGS.join(', ')}` });
  }
  const { perMinute, perDay, ...rest } = settings;
  const changes: KeyChanges = { ...rest };
  if (perMinute !== undefined || perDay !== undefined) {
    changes.limitOverrides = {
      perMinute: perMinute === undefined ? key.limitOverrides.perMinute : perMinute,
      perDay: perDay === undefined ? key.limitOverrides.perDay : perDay,
    };
  }
  if (!problems.some((p) => p.field === 'plan' || p.field === 'perMinute' || p.field === 'perDay')) {
    problems.push(...limitProblems(changes.plan ?? key.plan, changes.limitOverrides ?? key.limitOverrides));
  }
  if (problems.length > 0) throw new ValidationError(problems);
  return changes;
}
