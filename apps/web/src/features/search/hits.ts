import type { TAppErrorData } from '@console/shared';
import type { RouterOutputs } from '@/lib/trpc-types';

type Results = RouterOutputs['search']['query'];
export type SearchGroup = keyof Results;

/** One result of the search box as it shows it and opens it: kept as it is in the recent results. */
export interface SearchHit {
  /** Unique among the results: the group and the row's id. */
  key: string;
  group: SearchGroup;
  title: string;
  /** What tells two results apart (the room, the dates, the phone, the kind). */
  detail: string;
  /** The page it opens, within the console (a path and its query). */
  href: string;
}

/** The texts the hits need from the page (the translations, the dates in the hotel's zone). */
export interface HitTexts {
  status: (status: string) => string;
  stayState: (state: string) => string;
  cardKind: (kind: string) => string;
  role: (role: string) => string;
  dates: (from: string, to: string) => string;
}

const query = (params: Record<string, string | number>) =>
  `?${Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&')}`;
const guestPage = (id: number) => `/room/thetouristsDetails${query({ id })}`;
const roomPage = (id: number, tab?: string) => `/room/${id}${tab ? query({ tab }) : ''}`;
/** A text in a list page's `search` query: always text, never a number the URL parser would turn it into. */
const searchOf = (text: string) => JSON.stringify(text);
const joined = (...parts: (string | null | undefined | false)[]) => parts.filter(Boolean).join(' · ');

/** The results of `search.query`, group by group, in the order the box shows them, with the page each opens. */
export function toHits(results: Results, texts: HitTexts): { group: SearchGroup; hits: SearchHit[] }[] {
  const groups: { group: SearchGroup; hits: SearchHit[] }[] = [
    {
      group: 'rooms',
      hits: results.rooms.map((r) => ({
        key: `room-${r.id}`,
        group: 'rooms',
        title: r.name,
        detail: joined(r.remarkName, r.groupName, texts.status(r.status)),
        href: roomPage(r.id),
      })),
    },
    {
      group: 'guests',
      hits: results.guests.map((g) => ({
        key: `guest-${g.id}`,
        group: 'guests',
        title: g.name,
        detail: joined(g.roomName, texts.stayState(g.stayStatus), texts.dates(g.visitCheckInAt, g.checkedOutAt ?? g.expectedCheckOutAt), g.mobile),
        href: guestPage(g.id),
      })),
    },
    {
      group: 'reservations',
      hits: results.reservations.map((s) => ({
        key: `stay-${s.stayId}`,
        group: 'reservations',
        title: joined(`#${s.stayId}`, s.guestName),
        detail: joined(
          s.channel,
          s.reference,
          s.roomName,
          texts.stayState(s.stayStatus),
          texts.dates(s.visitCheckInAt, s.checkedOutAt ?? s.expectedCheckOutAt),
        ),
        href: s.guestId !== null ? guestPage(s.guestId) : roomPage(s.roomId),
      })),
    },
    {
      group: 'cards',
      hits: results.cards.map((c) => ({
        key: `card-${c.id}`,
        group: 'cards',
        title: c.cardNumber,
        detail: joined(texts.cardKind(c.kind), c.holderName, c.roomName),
        href:
          c.kind === 'management'
            ? `/center/personalCenter/cardList${query({ scope: 'all', search: searchOf(c.cardNumber) })}`
            : c.kind === 'universal'
              ? `/center/personalCenter/universalCardList${query({ scope: 'all', search: searchOf(c.cardNumber) })}`
              : c.guestId !== null
                ? guestPage(c.guestId)
                : c.roomId !== null
                  ? roomPage(c.roomId, 'credentials')
                  : `/center/personalCenter/cardList${query({ scope: 'all', search: searchOf(c.cardNumber) })}`,
      })),
    },
    {
      group: 'locks',
      hits: results.locks.map((l) => ({
        key: `lock-${l.id}`,
        group: 'locks',
        title: l.alias || l.name || l.providerLockId,
        detail: joined(l.roomName, l.mac, l.providerLockId),
        href: l.roomId !== null ? roomPage(l.roomId, 'lock') : `/lockAccounts${query({ search: searchOf(l.providerLockId) })}`,
      })),
    },
    {
      group: 'staff',
      hits: results.staff.map((m) => ({
        key: `staff-${m.id}`,
        group: 'staff',
        title: m.name || m.nickname,
        detail: joined(texts.role(m.role), m.nickname !== m.name && m.name ? m.nickname : null, m.mobile ?? m.email),
        href: `/staff${query({ search: searchOf(m.mobile ?? m.email ?? m.nickname) })}`,
      })),
    },
  ];
  return groups.filter((g) => g.hits.length > 0);
}

/**
 * What the search box says when the search was refused: "not allowed" to a member who may not
 * search (reached anyway: issue 39 §8), "failed, try again" for anything else (no answer, a fault).
 */
export function searchErrorKey(app: TAppErrorData | null): 'search.notAllowed' | 'search.failed' {
  return app?.code === 'FORBIDDEN' ? 'search.notAllowed' : 'search.failed';
}
