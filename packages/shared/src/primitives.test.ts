import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import fc from 'fast-check';
import { ZMinorAmount, ZRoomPriceInput } from './prices';
import { ZCheckInInput, ZGuestInput } from './stays';
import {
  ZFlag,
  ZId,
  ZInstant,
  ZLocalDate,
  ZLocalDateTime,
  ZPageInput,
  ZSearch,
  findUnacceptedText,
  isLocalDate,
  oneLine,
  toOneLine,
  unacceptedLineReason,
  zOptionalCode,
  zOptionalText,
  toAcceptedJson,
  toAcceptedText,
  zInt,
} from './primitives';
import { zonedToInstant } from './time';

const messageOf = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message;

describe('ids: a positive integer, as a number or decimal digits, nothing else', () => {
  it.each([1, 50, 2_147_483_647, '1', '50', '007'])('accepts %j', (v) => expect(ZId.safeParse(v).success).toBe(true));
  it.each([
    [[50]],
    [true],
    [false],
    [1.5],
    ['1.5'],
    ['1e3'],
    [1e3 + 0.5],
    [''],
    [' 5'],
    ['5 '],
    ['+5'],
    ['-5'],
    [0],
    [-1],
    ['0x10'],
    [null],
    [{}],
    [2_147_483_648],
    [Number.NaN],
    [Number.POSITIVE_INFINITY],
  ])('refuses %j with validation.idInvalid', (v) => {
    const result = ZId.safeParse(v);
    expect(result.success).toBe(false);
    expect(messageOf(result)).toBe('validation.idInvalid');
  });
  it('turns digits into the number', () => expect(ZId.parse('42')).toBe(42));
  it('is what any generated integer in range parses to, and nothing else', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 2_147_483_647 }), (n) => ZId.parse(n) === n && ZId.parse(String(n)) === n));
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.boolean(), fc.array(fc.integer()), fc.string()), (v) => {
        const ok = ZId.safeParse(v).success;
        const isValid =
          (typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 2_147_483_647) ||
          (typeof v === 'string' && /^\d{1,16}$/.test(v) && Number(v) >= 1 && Number(v) <= 2_147_483_647);
        return ok === isValid;
      }),
    );
  });
});

describe('integers with negatives allowed', () => {
  const sort = zInt({ min: -10, max: 10 }, 'validation.sortOrderInvalid');
  it.each([-10, '-3', 0, '10'])('accepts %j', (v) => expect(sort.safeParse(v).success).toBe(true));
  it.each([-11, '11', '--1', '-', '1-'])('refuses %j', (v) => expect(messageOf(sort.safeParse(v))).toBe('validation.sortOrderInvalid'));
});

describe('flags', () => {
  it.each([
    [true, true],
    [false, false],
    [1, true],
    [0, false],
    ['1', true],
    ['0', false],
  ])('reads %j as %j', (v, expected) => expect(ZFlag.parse(v)).toBe(expected));
  it.each([2, '2', 'true', 'yes', [], null])('refuses %j', (v) => expect(ZFlag.safeParse(v).success).toBe(false));
});

describe('calendar dates that exist', () => {
  it.each(['2026-02-28', '2028-02-29', '2026-12-31', '1990-01-01'])('accepts %s', (d) => expect(ZLocalDate.safeParse(d).success).toBe(true));
  it.each([
    '2026-02-30',
    '2026-02-29',
    '2026-13-01',
    '2026-99-99',
    '2026-00-10',
    '2026-04-31',
    '2026-1-1',
    '26-01-01',
    '',
    '2026-01-01T00:00',
    '0000-01-01',
    '9999-01-01',
  ])('refuses %s with validation.dateInvalid', (d) => expect(messageOf(ZLocalDate.safeParse(d))).toBe('validation.dateInvalid'));
  it('agrees with the calendar for every day of a range of years', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1900, max: 2199 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }), (y, m, d) => {
        const text = `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
        const real = new Date(Date.UTC(y, m - 1, d)).getUTCDate() === d;
        return isLocalDate(text) === real;
      }),
    );
  });
});

describe('wall-clock times and instants', () => {
  it.each(['2026-02-30 10:00:00', '2026-02-28 24:00', '2026-02-28 10:60', '2026-13-01 00:00'])('refuses the local time %s', (t) => {
    expect(ZLocalDateTime.safeParse(t).success).toBe(false);
    expect(zonedToInstant(t, 'Asia/Shanghai')).toBeNull();
  });
  it('converts a real local time in the hotel zone', () =>
    expect(zonedToInstant('2026-03-01 08:00:00', 'Asia/Shanghai')?.toISOString()).toBe('2026-03-01T00:00:00.000Z'));
  it.each(['2026-03-01T00:00:00.000Z', '2026-03-01T08:00:00+08:00', new Date('2026-03-01T00:00:00Z')])('accepts the instant %s', (v) =>
    expect(ZInstant.parse(v).toISOString()).toBe('2026-03-01T00:00:00.000Z'),
  );
  it.each(['2026-02-30T00:00:00Z', '2026-03-01', '2026-03-01T00:00', 1_700_000_000_000, true, 'yesterday', ''])('refuses the instant %j', (v) =>
    expect(ZInstant.safeParse(v).success).toBe(false),
  );
});

describe('amounts and paging', () => {
  it.each([0, 1, '299', 100_000_000_00])('accepts the amount %j', (v) => expect(ZMinorAmount.safeParse(v).success).toBe(true));
  it.each([-1, 1.5, '1.5', true, [1], '', 100_000_000_01])('refuses the amount %j', (v) => expect(ZMinorAmount.safeParse(v).success).toBe(false));
  it('says an amount is required when it is missing', () => expect(messageOf(ZMinorAmount.safeParse(undefined))).toBe('validation.priceRequired'));
  it.each([{ page: 0 }, { page: -1 }, { page: 100_001 }, { pageSize: 0 }, { pageSize: 101 }, { page: '1.0' }, { pageSize: true }])(
    'refuses the paging %j',
    (v) => expect(ZPageInput.safeParse(v).success).toBe(false),
  );
});

describe('the text the product accepts (decision 025)', () => {
  const paths = (value: unknown) => findUnacceptedText(value).map((f) => f.path);
  it('names the path of every string that holds a control character, at any depth, and leaves tabs and line breaks alone', () => {
    expect(paths({ a: 'ok\tline\r\nnext', b: ['x', 'y\u0000'], c: { d: 'e\u001b', f: 3 }, g: '\u0085' })).toEqual(['b.1', 'c.d', 'g']);
    expect(paths('plain')).toEqual([]);
    expect(paths('\u0007')).toEqual(['_']);
  });
  it('refuses unpaired surrogates, alone, at either end or in a key, and keeps paired ones (emoji, rare CJK)', () => {
    expect(findUnacceptedText({ a: '\ud800', b: ['x\udfff'], c: 'Lin \u{1F600} \u{20BB7}', d: 'end\udbff', e: { 'k\ud800': 'v' } })).toEqual([
      { path: 'a', reason: 'validation.brokenCharacters' },
      { path: 'b.0', reason: 'validation.brokenCharacters' },
      { path: 'd', reason: 'validation.brokenCharacters' },
      { path: 'e', reason: 'validation.brokenCharacters' },
    ]);
    expect(findUnacceptedText({ 'a\u0000': 1 })).toEqual([{ path: '_', reason: 'validation.controlCharacters' }]);
  });
  it('is what the text schemas accept too (a form says it as the transports do)', () => {
    for (const schema of [ZSearch, zOptionalText(20), zOptionalCode(20)]) {
      expect(messageOf(schema.safeParse('a\ud800'))).toBe('validation.brokenCharacters');
      expect(messageOf(schema.safeParse('a\u0000'))).toBe('validation.controlCharacters');
      expect(schema.safeParse('Lin \u{1F600}').success).toBe(true);
    }
  });
  it('makes text from elsewhere acceptable: control characters removed, unpaired surrogates replaced', () => {
    expect(toAcceptedText('Lin\u0000 Wei \ud800\u{1F600}')).toBe('Lin Wei \ufffd\u{1F600}');
    expect(toAcceptedJson({ 'k\udc00': ['a\u0000', 3, null, { b: '\ud800' }] })).toEqual({ 'k\ufffd': ['a', 3, null, { b: '\ufffd' }] });
  });
});

describe('the schemas made of them', () => {
  it('refuses a birth date that does not exist or lies in the future', () => {
    expect(messageOf(ZGuestInput.safeParse({ name: 'A', birthDate: '1990-02-30' }))).toBe('validation.dateInvalid');
    expect(messageOf(ZGuestInput.safeParse({ name: 'A', birthDate: '2150-01-01' }))).toBe('validation.birthDateInFuture');
  });
  it('refuses specific-date prices on days that do not exist, instead of rolling them over', () => {
    const result = ZRoomPriceInput.safeParse({ roomId: 1, usualPrice: 100, datePrices: [{ date: '2026-02-30', price: 100 }] });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['datePrices', 0, 'date']);
  });
  it('caps the guests of a check-in at the one limit', () => {
    const base = { roomId: 1, checkInAt: '2026-03-01T00:00:00Z', expectedCheckOutAt: '2026-03-02T00:00:00Z', idempotencyKey: 'abcdefgh' };
    expect(ZCheckInInput.safeParse({ ...base, guests: Array.from({ length: 10 }, () => ({ name: 'G' })) }).success).toBe(true);
    expect(messageOf(ZCheckInInput.safeParse({ ...base, guests: Array.from({ length: 11 }, () => ({ name: 'G' })) }))).toBe('validation.tooManyGuests');
  });
});

describe('one-line text (issue 27): a name, a subject, a header holds one line', () => {
  it.each([
    ['a\nb', 'validation.oneLine'],
    ['a\rb', 'validation.oneLine'],
    ['a\r\nb', 'validation.oneLine'],
    ['a\tb', 'validation.oneLine'],
    ['a\u2028b', 'validation.oneLine'],
    ['a\u2029b', 'validation.oneLine'],
    ['a\u0000b', 'validation.controlCharacters'],
    ['a\u0085b', 'validation.controlCharacters'],
    ['a\ud800b', 'validation.brokenCharacters'],
  ])('refuses %j: %s', (text, reason) => expect(unacceptedLineReason(text)).toBe(reason));

  it.each(['Harbour Hotel', '海景房 1208', 'جناح البحر', '🏨 R;1,2\\3', ''])('accepts %j', (text) => expect(unacceptedLineReason(text)).toBeUndefined());

  it('is a schema rule with its message, after the schema trims', () => {
    const schema = oneLine(z.string().trim().max(10, { error: 'validation.textTooLong' }));
    expect(schema.parse('  Room 1\n')).toBe('Room 1');
    expect(messageOf(schema.safeParse('R\nEND'))).toBe('validation.oneLine');
    expect(messageOf(schema.safeParse('R\u0007'))).toBe('validation.controlCharacters');
  });

  it('makes any text one line for a header: breaks and tabs a space, control characters out, trimmed', () => {
    expect(toOneLine(' Front\r\n\tBcc: x@example.com\u2028desk\u0000 ')).toBe('Front Bcc: x@example.com desk');
    expect(toOneLine('a\ud800b')).toBe('a\ufffdb');
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 120 }), (text) => unacceptedLineReason(toOneLine(text)) === undefined),
      { numRuns: 300 },
    );
    // fast-check's first string of 'binary' units costs about 0.75 s on an idle machine (its tables),
    // ten times that on 2 loaded cores (the CI run at load 13): more than vitest's 5 s.
  }, 30_000);
});
