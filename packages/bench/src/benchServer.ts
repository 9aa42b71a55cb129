// The real server, built from the same composition root as `packages/app/dist/main.js` (startServer), with one
// option for the benchmark: BENCH_ADMIT_ALL=1 replaces the rate-limit store with one that admits everything, to
// price the limiter.
import { createContainer, loadConfig, startServer, TOKENS } from '@petstore/app';
import type { RateLimitStore } from '@petstore/core';

const config = loadConfig();
const container = createContainer(config);
if (process.env['BENCH_ADMIT_ALL'] === '1') {
  const admitAll: RateLimitStore = {
    consume: (request) => Promise.resolve({ outcome: 'admitted', counts: request.windows.map(() => 1) }),
    read: (request) => Promise.resolve({ counts: request.windows.map(() => 0), bannedUntil: null }),
    release: () => Promise.resolve(),
    unban: () => Promise.resolve(),
  };
  container.rebind(TOKENS.RateLimitStore).toConstantValue(admitAll);
}
const running = await startServer(config, container);
process.stderr.write(`ready ${running.port}\n`);
process.on('SIGTERM', () => void running.close().then(() => process.exit(0)));
