import type { ApiKey } from '../access/ApiKey.js';
import { generateApiKeySecret, hashApiKeySecret } from '../access/ApiKeySecret.js';
import { generateApiKeyId } from '../access/KeyId.js';
import type { AuditActor } from '../access/AuditEvent.js';
import { toKeyView, type KeyView } from '../access/KeyView.js';
import { PLANS } from '../access/Plan.js';
import { limitProblems, parseKeySettings, type KeySettingName } from '../access/parseKeySettings.js';
import { SCOPES } from '../access/Scope.js';
import { ValidationError } from '../errors/ValidationError.js';
import type { NumberLiterals } from '../input/integerLiterals.js';
import type { Clock } from '../ports/Clock.js';
import type { KeyStore } from '../ports/KeyStore.js';
import type { KeyAudit } from './KeyAudit.js';

/** A new key's settings as a transport receives them; only `plan` is required. */
export interface IssueApiKeyInput {
  plan?: unknown;
  name?: unknown;
  /** Per-key limits on any plan (null or absent: the plan's); both required on Enterprise. */
  perMinute?: unknown;
  perDay?: unknown;
  /** Default: every scope. */
  scopes?: unknown;
  /** ISO 8601 with offset, in the future; absent or null: no expiry. */
  expiresAt?: unknown;
}

export interface IssuedApiKey {
  key: KeyView;
  /** Shown once; only its hash is stored. */
  secret: string;
}

const SETTINGS: readonly KeySettingName[] = ['name', 'plan', 'perMinute', 'perDay', 'scopes', 'expiresAt'];

/** Creates an API key and returns its secret, once. Audited as `key.created`. */
export class IssueApiKey {
  constructor(
    private readonly keys: KeyStore,
    private readonly audit: KeyAudit,
    private readonly clock: Clock,
  ) {}

  async execute(input: IssueApiKeyInput, actor: AuditActor, numberLiterals?: NumberLiterals): Promise<IssuedApiKey> {
    const now = this.clock.now();
    const { settings, problems } = parseKeySettings(input, SETTINGS, now, numberLiterals);
    const limitOverrides = { perMinute: settings.perMinute ?? null, perDay: settings.perDay ?? null };
    if (settings.plan === undefined) {
      if (!problems.some((p) => p.field === 'plan')) problems.push({ field: 'plan', message: `plan is required: one of ${PLANS.join(', ')}` });
    } else if (!problems.some((p) => p.field === 'perMinute' || p.field === 'perDay')) {
      problems.push(...limitProblems(settings.plan, limitOverrides));
    }
    if (problems.length > 0 || settings.plan === undefined) throw new ValidationError(problems);

    const secret = generateApiKeySecret();
    const key: ApiKey = {
      id: generateApiKeyId(),
      name: settings.name ?? '',
      plan: settings.plan,
      limitOverrides,
      scopes: settings.scopes ?? [...SCOPES],
      expiresAt: settings.expiresAt ?? null,
      disabled: false,
      createdAt: now,
      revokedAt: null,
      previousSecretExpiresAt: null,
    };
    await this.keys.create(key, hashApiKeySecret(secret));
    await this.audit.record(now, actor, 'key.created', null, key);
    return { key: toKeyView(key, { lastUsedAt: null, bannedUntil: null }, now.getTime()), secret };
  }
}
