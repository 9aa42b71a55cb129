import type { ApiKey } from '../access/ApiKey.js';
import { generateApiKeyId, generateApiKeySecret, hashApiKeySecret } from '../access/ApiKeySecret.js';
import { isPlan, PLANS, type RateLimits } from '../access/Plan.js';
import { ValidationError, type FieldProblem } from '../errors/ValidationError.js';
import type { Clock } from '../ports/Clock.js';
import type { KeyStore } from '../ports/KeyStore.js';

export interface IssueApiKeyInput {
  plan: unknown;
  name?: unknown;
  /** Enterprise only, and then required. */
  perMinute?: unknown;
  perDay?: unknown;
}

export interface IssuedApiKey {
  key: ApiKey;
  /** Shown once; only its hash is stored. */
  secret: string;
}

const NAME_MAX = 100;
const isPositiveInteger = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 1;

function customLimits(input: IssueApiKeyInput, problems: FieldProblem[]): RateLimits | null {
  const given = input.perMinute !== undefined || input.perDay !== undefined;
  if (input.plan !== 'enterprise') {
    if (given) problems.push({ field: 'plan', message: 'custom limits (perMinute, perDay) are for the enterprise plan only' });
    return null;
  }
  for (const field of ['perMinute', 'perDay'] as const) {
    if (!isPositiveInteger(input[field]))
      problems.push({ field, message: `${field} is required for enterprise keys and must be a positive integer` });
  }
  if (!isPositiveInteger(input.perMinute) || !isPositiveInteger(input.perDay)) return null;
  if (input.perMinute > input.perDay) {
    problems.push({
      field: 'perMinute',
      message: `perMinute (${input.perMinute}) must not exceed perDay (${input.perDay}): a day holds every minute`,
    });
    return null;
  }
  return { perMinute: input.perMinute, perDay: input.perDay };
}

/** Creates an API key on a plan and returns its secret, once. */
export class IssueApiKey {
  constructor(
    private readonly keys: KeyStore,
    private readonly clock: Clock,
  ) {}

  async execute(input: IssueApiKeyInput): Promise<IssuedApiKey> {
    const problems: FieldProblem[] = [];
    if (!isPlan(input.plan)) problems.push({ field: 'plan', message: `plan must be one of ${PLANS.join(', ')}` });
    const name = input.name ?? '';
    if (typeof name !== 'string' || name.length > NAME_MAX || /\p{Cc}/u.test(name)) {
      problems.push({ field: 'name', message: `name must be text of at most ${NAME_MAX} characters` });
    }
    const limits = customLimits(input, problems);
    if (problems.length > 0 || !isPlan(input.plan)) throw new ValidationError(problems);

    const secret = generateApiKeySecret();
    const key: ApiKey = {
      id: generateApiKeyId(),
      name: name as string,
      plan: input.plan,
      customLimits: limits,
      createdAt: this.clock.now(),
      revokedAt: null,
    };
    await this.keys.create(key, hashApiKeySecret(secret));
    return { key, secret };
  }
}
