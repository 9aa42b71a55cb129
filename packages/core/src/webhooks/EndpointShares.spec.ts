import { describe, expect, it } from '@jest/globals';
import { EndpointShares } from './EndpointShares.js';

const t0 = new Date('2026-06-01T12:00:00Z');
const at = (ms: number) => new Date(t0.getTime() + ms);

describe("an endpoint's share of the delivery work", () => {
  it('starts at one attempt under way and grows by one with each delivery in a row, up to the maximum', () => {
    const shares = new EndpointShares({ maxInFlight: 3, pauseMs: 1000, maxPauseMs: 8000 });
    expect(shares.perEndpoint).toBe(1);
    shares.started('a');
    expect(shares.at(t0).get('a')).toBe(0);
    shares.ended('a', 'delivered', t0);
    expect(shares.at(t0).get('a')).toBe(2);
    for (let i = 0; i < 5; i++) {
      shares.started('a');
      shares.ended('a', 'delivered', t0);
    }
    shares.started('a');
    expect(shares.at(t0).get('a')).toBe(2);
  });

  it('pauses a failing endpoint, doubling the pause with each failure in a row, then lets one attempt through', () => {
    const shares = new EndpointShares({ maxInFlight: 3, pauseMs: 1000, maxPauseMs: 3000 });
    shares.started('a');
    shares.ended('a', 'retry', t0);
    expect(shares.at(at(999))).toEqual(new Map([['a', 0]]));
    expect(shares.at(at(1000))).toEqual(new Map([['a', 1]]));
    shares.started('a');
    shares.ended('a', 'retry', at(1000));
    expect(shares.at(at(2999)).get('a')).toBe(0);
    expect(shares.at(at(3000)).get('a')).toBe(1);
    shares.started('a');
    shares.ended('a', 'retry', at(3000));
    expect(shares.at(at(5999)).get('a')).toBe(0);
    expect(shares.at(at(6000)).get('a')).toBe(1);
    shares.started('a');
    shares.ended('a', 'delivered', at(6000));
    expect(shares.at(at(6000))).toEqual(new Map([['a', 2]]));
  });

  it('forgets an endpoint deleted, disabled or refusing, once nothing is under way', () => {
    const shares = new EndpointShares();
    shares.started('gone');
    shares.started('deleted');
    shares.ended('gone', 'refused', t0);
    shares.ended('deleted', null, t0);
    expect(shares.at(t0).size).toBe(0);
  });
});
