import { spawnSync } from 'node:child_process';
import { expect, it } from '@jest/globals';
import { SERVER_V8_FLAGS } from './v8Flags.js';

// V8 only prints "unrecognized flag" when a flag set at run time is unknown, so a Node whose V8 renamed one would
// silently lose the tuning; on the command line an unknown flag is an error.
it("names flags that this Node's V8 knows", () => {
  const run = spawnSync(process.execPath, [...SERVER_V8_FLAGS, '-e', ''], { encoding: 'utf8', timeout: 30_000 });
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
});
