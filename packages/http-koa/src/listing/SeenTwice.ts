/** The filter's size per key of a window, and how many of its bits each key sets. */
const BITS_PER_KEY = 16;
const PROBES = 3;

/**
 * Tells whether a key has been seen recently, in fixed memory: a Bloom filter of 16 bits a key, three of them set
 * by each key, all cleared after `window` checks, so "recently" means "within about the last `window` keys" (a
 * "doorkeeper", as TinyLFU calls it). A key is taken for seen on its first check only when all three of its bits
 * were set by others: for fewer than 0.5 % of the keys at the end of a window, 0.15 % over a whole one. (With one
 * bit a key it was 3 % over a window, and under spread-out reads those pages, kept on their first request, filled
 * the cache with pages never asked for again: docs/performance.md.)
 */
export class SeenTwice {
  private readonly bits: Uint8Array;
  private readonly bitCount: number;
  private checked = 0;

  constructor(private readonly window: number) {
    this.bitCount = window * BITS_PER_KEY;
    this.bits = new Uint8Array(Math.ceil(this.bitCount / 8));
  }

  /** True when `key` was checked before (since the last clearing); it is remembered either way. */
  check(key: string): boolean {
    // FNV-1a over the UTF-16 code units, and a second hash from it (murmur3's finaliser, made odd) for double hashing.
    let first = 0x811c9dc5;
    for (let i = 0; i < key.length; i++) first = Math.imul(first ^ key.charCodeAt(i), 0x01000193);
    let second = Math.imul(first ^ (first >>> 16), 0x85ebca6b);
    second = Math.imul(second ^ (second >>> 13), 0xc2b2ae35);
    second = (second ^ (second >>> 16)) | 1;
    let seen = true;
    for (let probe = 0; probe < PROBES; probe++) {
      const bit = ((first + Math.imul(probe, second)) >>> 0) % this.bitCount;
      const byte = bit >>> 3;
      const mask = 1 << (bit & 7);
      if ((this.bits[byte]! & mask) === 0) {
        seen = false;
        this.bits[byte]! |= mask;
      }
    }
    if (seen) return true;
    if (++this.checked >= this.window) {
      this.bits.fill(0);
      this.checked = 0;
    }
    return false;
  }
}
