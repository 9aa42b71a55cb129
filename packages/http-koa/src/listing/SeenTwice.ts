/**
 * Tells whether a key has been seen recently, in fixed memory: one bit per hash of a key, all cleared after
 * `window` checks, so "recently" means "within about the last `window` keys" (a "doorkeeper", as TinyLFU calls it).
 * With 16 bits a key, at most about 6 % of the keys are taken for seen on their first check (two keys sharing a
 * bit), which is harmless: a page is then kept on its first request, as it would be without the filter.
 */
export class SeenTwice {
  private readonly bits: Uint8Array;
  private readonly bitCount: number;
  private checked = 0;

  constructor(private readonly window: number) {
    this.bitCount = window * 16;
    this.bits = new Uint8Array(Math.ceil(this.bitCount / 8));
  }

  /** True when `key` was checked before (since the last clearing); it is remembered either way. */
  check(key: string): boolean {
    // FNV-1a over the UTF-16 code units.
    let hash = 0x811c9dc5;
    for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
    const bit = (hash >>> 0) % this.bitCount;
    const byte = bit >>> 3;
    const mask = 1 << (bit & 7);
    if ((this.bits[byte]! & mask) !== 0) return true;
    this.bits[byte]! |= mask;
    if (++this.checked >= this.window) {
      this.bits.fill(0);
      this.checked = 0;
    }
    return false;
  }
}
