import { ZSearchQueryInput, type TSearchQueryInput } from '@console/shared';
import type { TSearchQueryOutput } from '@console/shared/dto';
import type { Prisma } from '../../generated/prisma/client';
import type { AuthedContext } from '../../context';
import { containsExactly, containsText } from '../../db/search';
import { requirePermission } from '../../permissions';
import { roomScope } from '../base/room-access';
import { effectiveState } from '../base/stay-dto';
import { visibleIssues } from '../cards/card-dto';

/**
 * The search box (issue 28 §3, docs/decisions/045-search.md): one text over the rooms, guests,
 * stays and channel bookings, cards, locks and staff of the member's hotel, each group as the
 * member's own list of it would show it (the same scopes, the same permissions), at most `limit`
 * results a group. The text is matched literally (db/search.ts: `%`, `_` and `\` are themselves),
 * case-insensitively as a substring; digits of a phone as typed (a mobile's last digits find it).
 *
 * Bounded work: one statement a group (two for stays: by number and by channel booking), run side
 * by side, each with its LIMIT; the substrings are found through trigram indexes (migration
 * 20261208200000_search_indexes) on the columns searched.
 */
export async function searchEverything(ctx: AuthedContext, raw: TSearchQueryInput): Promise<TSearchQueryOutput> {
  const { actor } = ctx;
  requirePermission(actor, 'room.read');
  const { text, limit } = ZSearchQueryInput.parse(raw);
  const [rooms, guests, reservations, cards, locks, staff] = await Promise.all([
    searchRooms(ctx, text, limit),
    searchGuests(ctx, text, limit),
    searchReservations(ctx, text, limit),
    searchCards(ctx, text, limit),
    searchLocks(ctx, text, limit),
    searchStaff(ctx, text, limit),
  ]);
  return { rooms, guests, reservations, cards, locks, staff };
}

/** Rooms by name, remark name, or the lock's Bluetooth name or MAC kept on the room (legacy). */
async function searchRooms(ctx: AuthedContext, text: string, limit: number): Promise<TSearchQueryOutput['rooms']> {
  const rows = await ctx.deps.prisma.room.findMany({
    where: {
      ...roomScope(ctx.actor),
      OR: [{ name: containsText(text) }, { remarkName: containsText(text) }, { bluetoothName: containsText(text) }, { macId: containsText(text) }],
    },
    select: { id: true, name: true, remarkName: true, groupName: true, status: true },
    orderBy: [{ name: 'asc' }, { id: 'asc' }],
    take: limit,
  });
  return rows;
}

const stayFacts = {
  id: true,
  status: true,
  checkInAt: true,
  expectedCheckOutAt: true,
  checkedOutAt: true,
  awaitsArrival: true,
  noShowAt: true,
  roomId: true,
  visitStayId: true,
  room: { select: { name: true } },
} as const;
type StayFacts = Prisma.StayGetPayload<{ select: typeof stayFacts }>;

/** When each stay's visit began (its first stay's check-in), in one statement for any number of stays. */
async function visitCheckIns(ctx: AuthedContext, stays: StayFacts[]): Promise<Map<number, Date>> {
  const firsts = [...new Set(stays.filter((s) => s.visitStayId !== s.id).map((s) => s.visitStayId))];
  const rows = firsts.length
    ? await ctx.deps.prisma.stay.findMany({ where: { hotelId: ctx.actor.hotelId, id: { in: firsts } }, select: { id: true, checkInAt: true } })
    : [];
  return new Map(rows.map((r) => [r.id, r.checkInAt]));
}

function stayFields(stay: StayFacts, now: Date, began: Map<number, Date>) {
  return {
    stayId: stay.id,
    stayStatus: effectiveState(stay, now),
    checkInAt: stay.checkInAt.toISOString(),
    visitCheckInAt: (began.get(stay.visitStayId) ?? stay.checkInAt).toISOString(),
    expectedCheckOutAt: stay.expectedCheckOutAt.toISOString(),
    checkedOutAt: stay.checkedOutAt?.toISOString() ?? null,
    roomId: stay.roomId,
    roomName: stay.room.name,
  };
}

/**
 * Guests of the stays of the member's rooms by name, mobile (digits as typed) or ID number; the newest
 * first (a guest is written with their stay: the newest guests are those of the newest stays). By id,
 * so that a common text is answered from the newest rows without reading and sorting all its matches.
 */
async function searchGuests(ctx: AuthedContext, text: string, limit: number): Promise<TSearchQueryOutput['guests']> {
  const rows = await ctx.deps.prisma.stayGuest.findMany({
    where: {
      hotelId: ctx.actor.hotelId,
      stay: { room: roomScope(ctx.actor) },
      OR: [{ name: containsText(text) }, { mobile: containsExactly(text) }, { idNumber: containsText(text) }],
    },
    select: { id: true, name: true, mobile: true, idNumber: true, stay: { select: stayFacts } },
    orderBy: [{ id: 'desc' }],
    take: limit,
  });
  const now = new Date();
  const lower = text.toLowerCase();
  // A room change copies the guests to the visit's next stay: one hit per guest and visit, its latest
  // stay's (the newest row), with the visit's whole period (issue 39 §10).
  const seen = new Set<string>();
  const hits = rows.filter((g) => {
    const key = JSON.stringify([g.stay.visitStayId, g.name, g.mobile, g.idNumber]);
    return !seen.has(key) && seen.add(key);
  });
  const began = await visitCheckIns(
    ctx,
    hits.map((g) => g.stay),
  );
  return hits.map((g) => ({
    id: g.id,
    name: g.name,
    mobile: g.mobile,
    matched: g.name.toLowerCase().includes(lower) ? 'name' : g.mobile?.includes(text) ? 'mobile' : 'idNumber',
    ...stayFields(g.stay, now, began),
  }));
}

/** A stay's number as typed in the box: `123` or `#123`. */
const STAY_NUMBER = /^#?(\d{1,9})$/;

/**
 * Stays by their number, and by their channel booking: the calendar event's UID or the channel's
 * reservation reference (CalendarFeedBooking). The stay's room must be the member's.
 */
async function searchReservations(ctx: AuthedContext, text: string, limit: number): Promise<TSearchQueryOutput['reservations']> {
  const { actor } = ctx;
  const number = STAY_NUMBER.exec(text)?.[1];
  const select = {
    ...stayFacts,
    guests: { where: { isPrimary: true }, select: { id: true, name: true }, take: 1 },
    feedBooking: { select: { reference: true, feed: { select: { label: true } } } },
  } as const;
  const [byNumber, bookings] = await Promise.all([
    number !== undefined && Number(number) <= 2_147_483_647
      ? ctx.deps.prisma.stay.findMany({ where: { id: Number(number), hotelId: actor.hotelId, room: roomScope(actor) }, select, take: 1 })
      : Promise.resolve([]),
    ctx.deps.prisma.calendarFeedBooking.findMany({
      where: {
        hotelId: actor.hotelId,
        stay: { hotelId: actor.hotelId, room: roomScope(actor) },
        OR: [{ uid: containsText(text) }, { reference: containsText(text) }],
      },
      select: { stay: { select } },
      orderBy: [{ id: 'desc' }],
      take: limit,
    }),
  ]);
  const now = new Date();
  const stays = [...byNumber, ...bookings.flatMap((b) => (b.stay ? [b.stay] : []))];
  const seen = new Set<number>();
  const found = stays.filter((s) => !seen.has(s.id) && seen.add(s.id)).slice(0, limit);
  const began = await visitCheckIns(ctx, found);
  return found.map((s) => ({
    ...stayFields(s, now, began),
    guestId: s.guests[0]?.id ?? null,
    guestName: s.guests[0]?.name ?? null,
    channel: s.feedBooking?.feed?.label ?? null,
    reference: s.feedBooking?.reference || null,
  }));
}

/** Cards by number (as typed) or UID, with their newest writing the member sees (a member of some rooms sees only the cards of theirs). */
async function searchCards(ctx: AuthedContext, text: string, limit: number): Promise<TSearchQueryOutput['cards']> {
  const { actor } = ctx;
  const visible = visibleIssues(ctx);
  const rows = await ctx.deps.prisma.card.findMany({
    where: {
      hotelId: actor.hotelId,
      OR: [{ cardNumber: containsExactly(text) }, { uid: containsText(text) }],
      ...(actor.allRooms ? {} : { issues: { some: visible } }),
    },
    select: {
      id: true,
      cardNumber: true,
      kind: true,
      issues: {
        where: visible,
        select: { state: true, holderName: true, roomId: true, guestId: true, room: { select: { name: true } } },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: 1,
      },
    },
    orderBy: [{ id: 'desc' }],
    take: limit,
  });
  return rows.map((c) => {
    const issue = c.issues[0];
    return {
      id: c.id,
      cardNumber: c.cardNumber,
      kind: c.kind,
      holderName: issue?.holderName ?? '',
      state: issue?.state ?? 'none',
      roomId: issue?.roomId ?? null,
      roomName: issue?.room?.name ?? null,
      guestId: issue?.guestId ?? null,
    };
  });
}

/**
 * Locks by name, alias, MAC or the provider's lock id. The hotel's whole lock list is for who may
 * read it (lock accounts, or managing rooms, on every room: pairing.service.ts); anyone else finds
 * the locks of the rooms they see.
 */
async function searchLocks(ctx: AuthedContext, text: string, limit: number): Promise<TSearchQueryOutput['locks']> {
  const { actor } = ctx;
  const wholeList = actor.allRooms && (actor.permissions.has('lock.accounts') || actor.permissions.has('room.manage'));
  const rows = await ctx.deps.prisma.lock.findMany({
    where: {
      hotelId: actor.hotelId,
      ...(wholeList ? {} : { rooms: { some: roomScope(actor) } }),
      OR: [{ name: containsText(text) }, { alias: containsText(text) }, { mac: containsText(text) }, { providerLockId: containsText(text) }],
    },
    select: {
      id: true,
      name: true,
      alias: true,
      mac: true,
      providerLockId: true,
      rooms: { where: roomScope(actor), select: { id: true, name: true }, take: 1 },
    },
    orderBy: [{ name: 'asc' }, { id: 'asc' }],
    take: limit,
  });
  return rows.map(({ rooms, ...lock }) => ({ ...lock, roomId: rooms[0]?.id ?? null, roomName: rooms[0]?.name ?? null }));
}

/** The hotel's staff by name, nickname, mobile (as typed) or e-mail: for who may manage staff (every room), as the staff list. */
async function searchStaff(ctx: AuthedContext, text: string, limit: number): Promise<TSearchQueryOutput['staff']> {
  const { actor } = ctx;
  if (!actor.permissions.has('staff.manage') || !actor.allRooms) return [];
  const rows = await ctx.deps.prisma.membership.findMany({
    where: {
      hotelId: actor.hotelId,
      OR: [
        { name: containsText(text) },
        { account: { nickname: containsText(text) } },
        { account: { mobile: containsExactly(text) } },
        { account: { email: containsText(text) } },
      ],
    },
    select: { id: true, name: true, role: true, account: { select: { nickname: true, mobile: true, email: true } } },
    orderBy: [{ id: 'asc' }],
    take: limit,
  });
  return rows.map((m) => ({ id: m.id, name: m.name, nickname: m.account.nickname, mobile: m.account.mobile, email: m.account.email, role: m.role }));
}
