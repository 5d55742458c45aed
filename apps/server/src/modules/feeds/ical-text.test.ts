import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UNPAIRED_SURROGATE } from '@console/shared';
import { escapeIcalText, foldIcalLine, icalLine } from './ical-text';

/** RFC 5545 §3.3.11 (TEXT) and §3.1 (content lines), as the export writes them. */
describe('escapeIcalText', () => {
  it.each([
    ['Booked', 'Booked'],
    ['a;b', 'a\\;b'],
    ['a,b', 'a\\,b'],
    ['a\\b', 'a\\\\b'],
    ['a\\nb', 'a\\\\nb'],
    ['a\nb', 'a\\nb'],
    ['a\r\nb', 'a\\nb'],
    ['a\rb', 'a\\nb'],
    ['R\nEND:VCALENDAR', 'R\\nEND:VCALENDAR'],
    ['x:y "z"', 'x:y "z"'],
  ])('%j -> %j', (value, escaped) => expect(escapeIcalText(value)).toBe(escaped));

  it('leaves no line break, and no control character but the tab (TEXT refuses them)', () => {
    expect(escapeIcalText('a\u0000b\u0007c\u007fd\te\u2028f\u2029g')).toBe('abcd\te\\nf\\ng');
  });
});

describe('foldIcalLine', () => {
  const octets = (s: string) => Buffer.byteLength(s, 'utf8');
  const unfold = (s: string) => s.replace(/\r\n /g, '');

  it('keeps a line of 75 octets as it is, and folds one of 76', () => {
    expect(foldIcalLine('x'.repeat(75))).toBe('x'.repeat(75));
    expect(foldIcalLine('x'.repeat(76))).toBe(`${'x'.repeat(75)}\r\n x`);
  });

  it.each([
    ['Chinese (3 octets)', '海'],
    ['Arabic (2 octets)', 'غ'],
    ['an emoji (4 octets, a surrogate pair)', '🏨'],
    ['an emoji with a variation selector', '🛏️'],
  ])('never cuts %s at the fold, wherever the boundary falls', (_what, character) => {
    for (let pad = 0; pad < 8; pad++) {
      const line = `SUMMARY:${'x'.repeat(pad)}${character.repeat(60)}`;
      const folded = foldIcalLine(line);
      expect(unfold(folded)).toBe(line);
      for (const [i, physical] of folded.split('\r\n').entries()) {
        expect(octets(physical), `pad ${pad} line ${i}`).toBeLessThanOrEqual(75);
        if (i > 0) expect(physical.startsWith(' ')).toBe(true);
        expect(UNPAIRED_SURROGATE.test(physical)).toBe(false);
      }
    }
  });

  it('folds any text into lines of at most 75 octets of whole characters that unfold to it', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (text) => {
        const line = icalLine('X-WR-CALNAME', text);
        const physical = line.split('\r\n');
        return (
          physical.every((p, i) => octets(p) <= 75 && !UNPAIRED_SURROGATE.test(p) && (i === 0 || p.startsWith(' '))) &&
          unfold(line) === `X-WR-CALNAME:${escapeIcalText(text)}`
        );
      }),
    );
  });
});
