// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { Type1Reader, Type2Reader, Type3Reader, createReader, getReaderType, setReaderType } from './index';

afterEach(() => localStorage.clear());

describe('the reader type (localStorage cardSenderType)', () => {
  it('is 1 by default and when the stored value is not 1, 2 or 3', () => {
    expect(getReaderType()).toBe(1);
    localStorage.setItem('cardSenderType', '7');
    expect(getReaderType()).toBe(1);
    localStorage.setItem('cardSenderType', 'x');
    expect(getReaderType()).toBe(1);
  });

  it('is kept as the spec says, and picks the driver', () => {
    setReaderType(3);
    expect(localStorage.getItem('cardSenderType')).toBe('3');
    expect(getReaderType()).toBe(3);
    expect(createReader()).toBeInstanceOf(Type3Reader);
    expect(createReader(2)).toBeInstanceOf(Type2Reader);
    expect(createReader(1)).toBeInstanceOf(Type1Reader);
    expect(() => setReaderType(4 as 1)).toThrow(RangeError);
  });
});
