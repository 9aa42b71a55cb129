import DataLoader from 'dataloader';
import type { ChainableCommander, Redis } from 'ioredis';

/** A script's call: the number of keys, the keys, then the arguments. */
export type ScriptCall = [numberOfKeys: number, ...keysAndArguments: (string | number)[]];

/** Calls of one script in a batch at most. */
const MAX_CALLS_PER_PIPELINE = 100;

/**
 * Calls of the script `command` (defined with `defineCommand`), gathered over a turn of the event loop and sent in
 * one pipeline, one write to Redis, in the turn's check phase (`setImmediate`), after its I/O callbacks. Under load
 * a turn holds the requests of many connections, and one write for all of them costs the server far less than one
 * each; Redis still runs each call alone and atomically, and each caller gets its own reply or error. A call waits
 * for nothing but the rest of its turn. Not for a Redis Cluster, whose pipelines must keep to one node.
 */
export function scriptCallsPerTurn<Reply>(redis: Redis, command: string): (call: ScriptCall) => Promise<Reply> {
  const calls = new DataLoader<ScriptCall, Reply>(
    async (batch) => {
      const pipeline = redis.pipeline() as ChainableCommander & Record<string, (...call: ScriptCall) => ChainableCommander>;
      for (const call of batch) pipeline[command]!(...call);
      // exec answers each call with its error or its reply; it rejects only when nothing could be sent.
      const replies = (await pipeline.exec())!;
      return replies.map(([error, reply]) => error ?? (reply as Reply));
    },
    { cache: false, maxBatchSize: MAX_CALLS_PER_PIPELINE, batchScheduleFn: (send) => setImmediate(send) },
  );
  return (call) => calls.load(call);
}
