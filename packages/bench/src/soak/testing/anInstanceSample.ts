import type { InstanceSample } from '../sampler.js';

/** A sample of one instance started at `startedAt`, its memory given in MiB, the rest idle. */
export const anInstanceSample = (startedAt: number, rssMb: number, heapMb = 20): InstanceSample => ({
  startedAt,
  rssBytes: rssMb * 2 ** 20,
  heapUsedBytes: heapMb * 2 ** 20,
  eventLoopP99Ms: 1,
  requestsTotal: 0,
});
