import type ICAL from 'ical.js';
import { LIMITS, isEmail, toAcceptedText } from '@console/shared';

/**
 * What a channel's event says of its booking, its dates aside (docs/calendar-feeds.md): a booking or
 * a block, the reference, the guest's name, phone and e-mail. What the big channels put in their events:
 * - Airbnb: SUMMARY "Reserved" for a booking, "Airbnb (Not available)" for a block; DESCRIPTION has
 *   "Reservation URL: https://www.airbnb.com/hosting/reservations/details/HMXXXXXXXX" and
 *   "Phone Number (Last 4 Digits): 1234" (only the last digits: `phoneTail`, never a number to send to).
 * - Booking.com: SUMMARY "CLOSED - Not available" (its export does not tell bookings from closed dates: a block);
 *   through a channel manager, "Phone:" / "Telephone:" lines.
 * - VRBO: SUMMARY "Reserved - <guest name>" for a booking, "Blocked" for a block; "Guest phone:" /
 *   "Phone:" lines, sometimes masked ("***-***-4821": the digits shown are a tail).
 * - Property managers' and booking engines' exports (any RFC 5545 feed): the guest's e-mail as an
 *   ATTENDEE (`mailto:`) or an "Email:" line of the DESCRIPTION.
 */

const BLOCK_SUMMARY = /not available|unavailable|closed|blocked|\bblock\b|owner stay|maintenance/i;
const RESERVED_ONLY = /^\s*(reserved|booked|reservation|airbnb|booking|vrbo)\s*$/i;
const REFERENCE_IN_URL = /reservations?\/details\/([A-Z0-9]{6,20})/i;
const EMAIL_LINE = /\be-?mail(?: address)?\s*:\s*(?:mailto:)?([^\s<>"',;]+@[^\s<>"',;]+)/i;
/**
 * A phone line of a description: "Phone Number (Last 4 Digits): 4821" (Airbnb), "Phone: +44 20 7946
 * 0000", "Guest phone:", "Telephone:", "Tel:", "Mobile:" (VRBO, channel managers), the number
 * possibly masked ("***-***-4821", "•••• 4821", "XXXXXX4821").
 */
const PHONE_LINE = /(?:phone(?: number)?|telephone|\btel|mobile)(\s*\((?:last\s*\d\s*digits?|last\s*digits)\))?\s*:\s*([^\n\\]{1,60})/i;
/** Where a phone says it is only its last digits: a label "(Last 4 Digits)", or a mask before them. */
const MASK = /[*•xX#]/;

function clip(text: string, max: number): string {
  return toAcceptedText(text).trim().slice(0, max);
}

/** The guest's address: the first ATTENDEE whose value is a `mailto:` address, else an "Email:" line; null when none is a valid address. */
function emailOf(vevent: ICAL.Component, description: string): string | null {
  const attendees = vevent.getAllProperties('attendee').map((p) => String(p.getFirstValue() ?? ''));
  const candidates = [...attendees.filter((a) => /^mailto:/i.test(a)).map((a) => a.replace(/^mailto:/i, '')), EMAIL_LINE.exec(description)?.[1] ?? ''];
  for (const candidate of candidates) {
    const address = candidate.trim();
    if (address && address.length <= LIMITS.guestFieldMax.email && isEmail(address)) return address;
  }
  return null;
}

/**
 * The phone a description carries: a number (7 digits or more, `+` kept) or only its last digits
 * (4 to 6 digits, a "(Last 4 Digits)" label, or a masked number): `tail`, at most its last 8 digits.
 */
export function phoneOf(description: string): { phone: string | null; tail: string | null } {
  const line = PHONE_LINE.exec(description);
  if (!line) return { phone: null, tail: null };
  const value = line[2]!;
  const digits = value.replace(/\D/g, '');
  if (digits.length < 4) return { phone: null, tail: null };
  const isTail = line[1] !== undefined || MASK.test(value) || digits.length < 7;
  if (isTail) return { phone: null, tail: digits.slice(-8) };
  const plus = /^\s*\+/.test(value) ? '+' : '';
  return { phone: `${plus}${digits}`.slice(0, LIMITS.guestFieldMax.mobile), tail: null };
}

/** What an event says of its booking, its dates aside. */
export function factsOf(vevent: ICAL.Component, uid: string) {
  const summary = String(vevent.getFirstPropertyValue('summary') ?? '');
  const description = String(vevent.getFirstPropertyValue('description') ?? '');
  const status = String(vevent.getFirstPropertyValue('status') ?? '').toUpperCase();
  const code = REFERENCE_IN_URL.exec(description)?.[1] ?? null;
  const { phone, tail } = phoneOf(description);
  const vrboName = /^\s*reserved\s*[-–:]\s*(.+)$/i.exec(summary)?.[1] ?? null;
  const isBlock = BLOCK_SUMMARY.test(summary) && !code;
  return {
    isBooking: !isBlock && status !== 'CANCELLED',
    isCancelled: status === 'CANCELLED',
    reference: clip(code ?? uid, 200),
    guestName: vrboName ? clip(vrboName, 64) : summary && !RESERVED_ONLY.test(summary) && !isBlock ? clip(summary, 64) : null,
    phone,
    phoneTail: tail,
    email: emailOf(vevent, description),
  };
}
