import { describe, expect, it } from 'vitest';
import { notUtf8Error, notUtf8JsonFields, notUtf8QueryFields } from './utf8';

const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

describe('notUtf8JsonFields', () => {
  it('finds nothing in UTF-8, whatever it holds (U+FFFD sent as UTF-8 is text like any other)', () => {
    expect(notUtf8JsonFields(bytes('{"name":"José \uFFFD 李 😀"}'))).toEqual([]);
  });

  it('names each field holding bytes that are not UTF-8, by its dotted path', () => {
    const body = bytes('{"roomId":1,"guests":[{"name":"Ana"},{"name":"Jos', [0xe9], '"}],"remark":"caf', [0xe9], ' au lait"}');
    expect(notUtf8JsonFields(body)).toEqual(['guests.1.name', 'remark']);
  });

  it('refuses what is not UTF-8 by RFC 3629: overlong forms, surrogates, past U+10FFFF, a cut sequence', () => {
    for (const bad of [[0xc0, 0xaf], [0xe0, 0x80, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0xff]])
      expect(notUtf8JsonFields(bytes('{"a":{"b":"x', bad, '"}}')), JSON.stringify(bad)).toEqual(['a.b']);
  });

  it('names a key holding them by where it stands, and the whole body (`_`) outside a string or in what is not JSON', () => {
    expect(notUtf8JsonFields(bytes('{"guest":{"n', [0xe9], 'me":"Ana"}}'))).toEqual(['guest']);
    expect(notUtf8JsonFields(bytes('{"a":1', [0xe9], '}'))).toEqual(['_']);
    expect(notUtf8JsonFields(bytes('"Jos', [0xe9], '"'))).toEqual(['_']);
  });
});

describe('notUtf8QueryFields', () => {
  it('names the parameters whose percent-encoding is not UTF-8; `+`, UTF-8 and a stray `%` are fine', () => {
    expect(notUtf8QueryFields('/x?q=Jos%C3%A9+Souza&n=100%&p=%zz')).toEqual([]);
    expect(notUtf8QueryFields('/x?q=Jos%E9&page=1&name=%ED%A0%80')).toEqual(['q', 'name']);
    expect(notUtf8QueryFields('/x?%E9=1')).toEqual(['_']);
    expect(notUtf8QueryFields('/x')).toEqual([]);
  });
});

describe('notUtf8Error', () => {
  it('is a validation error naming the first field, a field error for each', () => {
    const error = notUtf8Error(['name', 'remark']);
    expect(error.code).toBe('VALIDATION');
    expect(error.options).toMatchObject({
      messageKey: 'validation.notUtf8Field',
      params: { field: 'name' },
      fields: { name: 'validation.notUtf8', remark: 'validation.notUtf8' },
    });
    expect(notUtf8Error(['_']).options).toMatchObject({ messageKey: 'validation.notUtf8', fields: { _: 'validation.notUtf8' } });
  });
});
