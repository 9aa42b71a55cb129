import type { AnyCliCommand } from '../CliCommand.js';
import { createKey } from './createKey.js';
import { getKey } from './getKey.js';
import { keyAudit } from './keyAudit.js';
import { keyUsage } from './keyUsage.js';
import { listKeys } from './listKeys.js';
import { migrate } from './migrate.js';
import { revokeKey } from './revokeKey.js';
import { rotateKey } from './rotateKey.js';
import { unbanKey } from './unbanKey.js';
import { updateKey } from './updateKey.js';

/** The commands of the CLI, each declared once (one file each): the only list to extend. */
export const COMMANDS: readonly AnyCliCommand[] = [
  createKey,
  listKeys,
  getKey,
  updateKey,
  rotateKey,
  revokeKey,
  unbanKey,
  keyUsage,
  keyAudit,
  migrate,
];
