import {
  guestMessageLanguage,
  renderMessageText,
  toOneLine,
  type TGuestMessageChannel,
  type TGuestMessageVariable,
  type TLanguageHeader,
} from '@console/shared';
import type { Deps } from '../../context';
import { ensureKeyLink, keyPageUrl } from './key-link';
import { effectiveTemplate, readMessageSettings } from './templates';

/** `2027-03-01 14:00` in the hotel's time zone. */
export function formatHotelTime(at: Date | null, timeZone: string): string {
  if (!at) return '';
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const p = (type: string) => parts.find((x) => x.type === type)?.value ?? '';
  return `${p('year')}-${p('month')}-${p('day')} ${p('hour')}:${p('minute')}`;
}

const GUEST_SELECT = { id: true, name: true, mobile: true, email: true, isPrimary: true } as const;
type GuestRow = { id: number; name: string; mobile: string | null; email: string | null; isPrimary: boolean };

/** The guest a stay's password is for: its own guest, else the stay's primary guest, else its first. */
export function messageGuest(guests: GuestRow[], guestId: number | null): GuestRow | undefined {
  return guests.find((g) => g.id === guestId) ?? guests.find((g) => g.isPrimary) ?? [...guests].sort((a, b) => a.id - b.id)[0];
}

/** Stays whose messages carry the guest's key page link (made now when the visit has none). */
const KEY_LINK_STAY_STATES = new Set(['reserved', 'in_house']);

/** What a message of a stay's password says, read from the database as it is now. */
export async function loadMessageFacts(
  deps: Pick<Deps, 'prisma' | 'config' | 'log' | 'redis' | 'key'>,
  hotelId: number,
  stayId: number,
  passwordId: number | null,
) {
  const stay = await deps.prisma.stay.findFirst({
    where: { id: stayId, hotelId },
    select: {
      id: true,
      status: true,
      checkInAt: true,
      expectedCheckOutAt: true,
      accessOutcome: true,
      room: { select: { name: true } },
      hotel: { select: { name: true, address: true, tel: true, timeZone: true } },
      guests: { select: GUEST_SELECT },
    },
  });
  if (!stay) return null;
  const password =
    passwordId === null
      ? null
      : await deps.prisma.lockPassword.findFirst({
          where: { id: passwordId, hotelId, stayId },
          select: { id: true, code: true, validFrom: true, validUntil: true, guestId: true, deliveryState: true, version: true, createdByAccountId: true },
        });
  const guest = messageGuest(stay.guests, password?.guestId ?? null);
  // The guest's key page (issue 20 §4): absolute under PUBLIC_URL; empty without it, or once the stay has ended.
  const keyLink = KEY_LINK_STAY_STATES.has(stay.status) ? await ensureKeyLink(deps, hotelId, stay.id) : null;
  const keyPageLink = (keyLink && keyPageUrl(deps, keyLink.token)) ?? '';
  return { stay, password, guest, keyPageLink };
}

export type MessageFacts = NonNullable<Awaited<ReturnType<typeof loadMessageFacts>>>;

/** The values of a message's variables. */
export function messageValues(facts: MessageFacts): Record<TGuestMessageVariable, string> {
  const { stay, password, guest, keyPageLink } = facts;
  const zone = stay.hotel.timeZone;
  return {
    guest: guest?.name ?? '',
    room: stay.room.name,
    checkIn: formatHotelTime(stay.checkInAt, zone),
    checkOut: formatHotelTime(stay.expectedCheckOutAt, zone),
    code: password?.code ?? '',
    validFrom: formatHotelTime(password?.validFrom ?? null, zone),
    validUntil: formatHotelTime(password?.validUntil ?? null, zone),
    keyPageLink,
    hotel: stay.hotel.name,
    hotelAddress: stay.hotel.address,
    hotelPhone: stay.hotel.tel,
  };
}

/** The language a guest's messages are written in: the stay's (none kept yet), the phone's country, the hotel's. */
export async function languageForGuest(deps: Pick<Deps, 'prisma'>, hotelId: number, mobile: string | null | undefined): Promise<TLanguageHeader> {
  const settings = await readMessageSettings(deps, hotelId);
  return guestMessageLanguage({ mobile, hotelLanguage: settings.language });
}

/** The access rule's outcomes that gave the guest another code than the rule's: the message says which and why. */
const CODE_NOTE_OUTCOMES = new Set(['phone_missing_random', 'phone_in_use_random', 'phone_too_simple_random', 'phone_has_zero_random']);

/**
 * Why the guest's code is not the last digits of their phone (docs/access-rules.md "Outcomes"),
 * added to the message of the rule's code; nothing for a code the rule gave as it says.
 */
function codeNote(deps: Pick<Deps, 'i18n'>, language: TLanguageHeader, facts: MessageFacts): string | null {
  const outcome = facts.stay.accessOutcome;
  // The rule's own code (no clerk made it): a code the desk issued later is the clerk's to explain.
  if (!outcome || !CODE_NOTE_OUTCOMES.has(outcome) || !facts.password?.code || facts.password.createdByAccountId !== null) return null;
  return deps.i18n.t(language, `guestMessages.codeNotes.${outcome}`);
}

/** A message's subject and text in its language, from the hotel's template (or the product's). */
export async function renderMessage(
  deps: Pick<Deps, 'prisma' | 'i18n'>,
  hotelId: number,
  channel: TGuestMessageChannel,
  language: TLanguageHeader,
  facts: MessageFacts,
): Promise<{ subject: string; body: string }> {
  const template = await effectiveTemplate(deps, hotelId, channel, language);
  const values = messageValues(facts);
  const body = renderMessageText(template.body, values);
  const note = codeNote(deps, language, facts);
  return {
    // One line whatever the values hold (a name kept before one-line names were the rule): a header.
    subject: toOneLine(renderMessageText(template.subject, values)),
    body: note ? `${body}\n${note}` : body,
  };
}
