/** Commands whose arguments carry a password. */
const SIGN_IN_COMMANDS = new Set(['auth', 'hello']);

interface IoRedisError {
  command?: { name?: unknown; args?: unknown[] };
  lastNodeError?: unknown;
}

/**
 * ioredis attaches the failed command to its error (`error.command.args`), the password of a refused AUTH included,
 * and a cluster's error carries its last node's (`lastNodeError`): their arguments are hidden before anyone logs them.
 */
export function withoutSecrets<T>(error: T): T {
  if (typeof error !== 'object' || error === null) return error;
  const { command, lastNodeError } = error as IoRedisError;
  if (command && SIGN_IN_COMMANDS.has(String(command.name).toLowerCase())) command.args = ['(hidden)'];
  withoutSecrets(lastNodeError);
  return error;
}
