import { describe, expect, it } from '@jest/globals';
import { RESPONSE_BODY_MAX, storableText } from './Delivery.js';

describe('storableText', () => {
  it('keeps ordinary text and pairs as they are', () => {
    expect(storableText('ok 👍 ünïcode')).toBe('ok 👍 ünïcode');
  });

  it('replaces NUL and lone surrogates with U+FFFD', () => {
    expect(storableText('a\u0000b')).toBe('a\uFFFDb');
    expect(storableText('x\uD83Dy\uDC4Dz')).toBe('x\uFFFDy\uFFFDz');
    expect(storableText('\uDC4D\uD83D')).toBe('\uFFFD\uFFFD');
  });

  it('cuts at the limit, before a pair that straddles it', () => {
    const straddling = `${'a'.repeat(RESPONSE_BODY_MAX - 1)}👍tail`;
    expect(storableText(straddling)).toBe('a'.repeat(RESPONSE_BODY_MAX - 1));
    const fitting = `${'a'.repeat(RESPONSE_BODY_MAX - 2)}👍tail`;
    expect(storableText(fitting)).toBe(`${'a'.repeat(RESPONSE_BODY_MAX - 2)}👍`);
    expect(storableText('x'.repeat(5000))).toHaveLength(RESPONSE_BODY_MAX);
  });
});
