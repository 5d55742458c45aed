import { describe, expect, it } from 'vitest';
import { str } from './http';

describe("TTLock's text", () => {
  it('is kept as the console keeps any text: a NUL out (PostgreSQL refuses it), a lone surrogate U+FFFD, a line break kept; names and numbers as they are', () => {
    expect(str('Lobby\u0000 1\n')).toBe('Lobby 1\n');
    expect(str('x\ud800')).toBe('x\ufffd');
    expect(str('A-203室 😀')).toBe('A-203室 😀');
    expect(str(12)).toBe('12');
    expect(str(null)).toBe('');
  });
});
