import { toAcceptedText } from '@console/shared';

/**
 * Writing iCalendar content lines (RFC 5545 §3.1, §3.3.11) for the room's exported calendar, by
 * hand: ical.js writes an x-property (X-WR-CALNAME) as it is, unescaped, and folds at 75 octets
 * before the space of a continuation line (76 in all). Every value that comes from a person (a
 * room's name) goes through `escapeIcalText`, every line through `foldIcalLine`.
 */

/** Octets a content line may have before its CRLF (§3.1). */
const FOLD_OCTETS = 75;

/**
 * A TEXT value (§3.3.11): backslash, semicolon and comma escaped, every line break (CR, LF, CRLF,
 * U+2028, U+2029) written `\n`, control characters left out (TEXT has no room for them but the
 * tab) and an unpaired surrogate made U+FFFD, so the value is one line of whole characters.
 */
export function escapeIcalText(value: string): string {
  return toAcceptedText(value.replace(/\r\n|[\r\n\u2028\u2029]/g, '\n'))
    .replace(/[\\;,]/g, (c) => `\\${c}`)
    .replace(/\n/g, '\\n');
}

const octetsOf = (codePoint: number) => (codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4);

/**
 * A content line folded (§3.1): physical lines of at most 75 octets of UTF-8, each continuation
 * beginning with a space (counted in its 75), and never inside a character: a fold falls between
 * two code points, so no UTF-8 sequence (and no surrogate pair) is cut.
 */
export function foldIcalLine(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const character of line) {
    const size = octetsOf(character.codePointAt(0)!);
    if (octets + size > FOLD_OCTETS) {
      parts.push(current);
      current = ' ';
      octets = 1;
    }
    current += character;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n');
}

/** `NAME:value`, folded; the value is TEXT (escaped) unless `raw` says it is already written (a date, a number). */
export function icalLine(name: string, value: string, options: { raw?: boolean } = {}): string {
  return foldIcalLine(`${name}:${options.raw ? value : escapeIcalText(value)}`);
}
