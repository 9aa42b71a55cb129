import { describe, expect, it } from '@jest/globals';
import { decodePositionCursor, encodePositionCursor } from './PositionCursor.js';

const position = { at: new Date('2026-06-01T12:00:00.123Z'), id: 'key_0123456789abcdef' };

describe('the position cursor of the admin listings', () => {
  it('names a position in one listing', () => {
    const cursor = encodePositionCursor('keys', position);
    expect(decodePositionCursor('keys', cursor)).toEqual(position);
    expect(decodePositionCursor('audit', cursor)).toBeNull();
  });

  it('accepts only the exact text it wrote', () => {
    const cursor = encodePositionCursor('keys', position);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const edited = [...alphabet].map((last) => cursor.slice(0, -1) + last).filter((text) => text !== cursor);
    for (const text of edited) expect(decodePositionCursor('keys', text)).toBeNull();
    expect(decodePositionCursor('keys', `${cursor}x`)).toBeNull();
    expect(decodePositionCursor('keys', 42)).toBeNull();
  });
});
