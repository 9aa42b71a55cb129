import { describe, expect, it } from '@jest/globals';
import { anInstanceSample } from './testing/anInstanceSample.js';
import { MemoryFloor } from './sampler.js';

describe('MemoryFloor', () => {
  it("keeps a slice's lowest RSS and heap of the life its end sample belongs to, then starts over", () => {
    const floor = new MemoryFloor();
    floor.note(anInstanceSample(1, 200, 40));
    floor.note(null); // the instance did not answer this read
    floor.note(anInstanceSample(1, 180, 120));
    expect(floor.take(anInstanceSample(1, 190, 90))).toMatchObject({
      heapUsedBytes: 90 * 2 ** 20,
      rssFloorBytes: 180 * 2 ** 20,
      heapFloorBytes: 40 * 2 ** 20,
    });
    floor.note(anInstanceSample(1, 150, 10)); // the last read of the old life, then a restart
    expect(floor.take(anInstanceSample(2, 90, 30))).toMatchObject({ rssFloorBytes: 90 * 2 ** 20, heapFloorBytes: 30 * 2 ** 20 });
    expect(floor.take(null)).toBeNull();
  });
});
