import { spawnSync } from 'node:child_process';
import { expect, it } from '@jest/globals';
import { NO_PRETENURING_FLAG } from './pretenuring.js';

// V8 only prints "unrecognized flag" when a flag set at run time is unknown, so a Node whose V8 renamed it would
// silently lose the tuning; on the command line an unknown flag is an error.
it("names a flag that this Node's V8 knows", () => {
  const run = spawnSync(process.execPath, [NO_PRETENURING_FLAG, '-e', ''], { encoding: 'utf8', timeout: 30_000 });
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
});
