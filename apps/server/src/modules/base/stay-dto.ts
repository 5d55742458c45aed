import { ACTIVE_STAY_STATES, type TAccessCardOutcome, type TAccessOutcome, type TCancelReason, type TStayState } from '@console/shared';
import type { Prisma } from '../../generated/prisma/client';
import type { AuthedContext } from '../../context';
import type { Tx } from '../../db/transaction';
import { AppError } from '../../errors';
import { roomScope } from './room-access';

/**
 * What every stay use case shares: the stay and guest as every face shows them, the one lookup
 * of a stay in the actor's scope, and the state of a stay at a given moment.
 */

export interface GuestDto {
  id: number;
  name: string;
  gender: 'male' | 'female' | 'unknown';
  nationality: string;
  birthDate: string | null;
  idNumber: string | null;
  mobile: string | null;
  email: string | null;
  /** The last digits of the phone a channel gave when it gave no more (never a number to send to). */
  phoneTail: string | null;
  isPrimary: boolean;
}

export interface StayDto {
  id: number;
  roomId: number;
  roomName: string;
  /** The state now: a reservation whose time has come is in house, an overdue stay expired. */
  state: TStayState;
  checkInAt: string;
  expectedCheckOutAt: string;
  checkedOutAt: string | null;
  lengthUnit: 'hour' | 'day' | 'month' | 'year';
  breakfast: boolean;
  disableOldCards: boolean;
  idCardUnlock: boolean;
  depositAmount: number;
  priceAmount: number;
  remark: string;
  movedFromStayId: number | null;
  movedToStayId: number | null;
  /** The first stay of the guest's visit (itself unless moved from another room): its bill's key. */
  visitStayId: number;
  guests: GuestDto[];
  /** A reservation taken at the desk: it waits for its guest's arrival, else becomes a no-show at `noShowAt`. */
  awaitsArrival: boolean;
  noShowAt: string | null;
  /** Why it was cancelled (`CANCEL_REASONS`, translated on display), and the clerk's note. */
  cancelReason: TCancelReason | null;
  cancelNote: string;
  /** When the hotel's access rule issued its credentials, and what its code rule gave (docs/access-rules.md). */
  accessIssuedAt: string | null;
  accessOutcome: TAccessOutcome | null;
  /** An offline code given in place of a custom code the lock had not confirmed (docs/access-rules.md "Offline codes"): when, and why. */
  /** `leftUntil`: the offline code could not be taken off (its gateway down) and works until then, or until the gateway answers. */
  offlineCode: { at: string; reason: string; leftUntil: string | null } | null;
  accessCard: TAccessCardOutcome | null;
  createdAt: string;
}

export const guestSelect = {
  id: true,
  name: true,
  gender: true,
  nationality: true,
  birthDate: true,
  idNumber: true,
  mobile: true,
  email: true,
  phoneTail: true,
  isPrimary: true,
} as const;
/** A stay's own columns, as every stay answer carries them (with `stayColumnsSelect`'s offline code). */
export const newStayColumnsSelect = {
  id: true,
  hotelId: true,
  roomId: true,
  status: true,
  version: true,
  checkInAt: true,
  expectedCheckOutAt: true,
  checkedOutAt: true,
  lengthUnit: true,
  breakfast: true,
  disableOldCards: true,
  idCardUnlock: true,
  depositAmount: true,
  priceAmount: true,
  remark: true,
  movedFromStayId: true,
  visitStayId: true,
  idempotencyKey: true,
  awaitsArrival: true,
  noShowAt: true,
  cancelReason: true,
  cancelNote: true,
  accessIssuedAt: true,
  accessOutcome: true,
  offlineCodeAt: true,
  offlineCodeReason: true,
  accessCard: true,
  createdAt: true,
} as const satisfies Prisma.StaySelect;
/**
 * A stay's own columns, the offline code being withdrawn among them. A stay just made has none:
 * `newStayColumnsSelect` writes it in one statement (the relation costs a read back and a read).
 */
export const stayColumnsSelect = {
  ...newStayColumnsSelect,
  passwords: {
    where: { offline: true, doorLockId: null, deliveryState: { in: ['removing', 'remove_failed'] } },
    select: { validUntil: true },
    orderBy: { id: 'desc' },
    take: 1,
  },
} as const satisfies Prisma.StaySelect;
export const staySelect = {
  ...stayColumnsSelect,
  room: { select: { name: true } },
  movedTo: { select: { id: true }, take: 1 },
  guests: { select: guestSelect, orderBy: [{ isPrimary: 'desc' }, { id: 'asc' }] },
  // A card issued for the stay answers the rule's "card to issue at arrival".
  cardIssues: { where: { state: 'issued' }, select: { id: true }, take: 1 },
} satisfies Prisma.StaySelect;
export type StayRow = Prisma.StayGetPayload<{ select: typeof staySelect }>;
type GuestRow = StayRow['guests'][number];

export const isActive = (status: TStayState) => (ACTIVE_STAY_STATES as readonly string[]).includes(status);

/** What the state of a stay at a moment depends on. */
export interface StayClockFacts {
  status: TStayState;
  checkInAt: Date;
  expectedCheckOutAt: Date;
  awaitsArrival: boolean;
  noShowAt: Date | null;
}

/**
 * The state of a stay at `now`, whatever the jobs have written yet (docs/room-status.md): a
 * reservation that awaits its guest stays reserved until the desk records the arrival, and is a
 * no-show from its no-show time; any other stay has begun once its check-in time has passed, and is
 * overdue (expired) from its expected check-out.
 */
export function effectiveState(stay: StayClockFacts, now = new Date()): TStayState {
  if (!isActive(stay.status)) return stay.status;
  if (stay.status === 'reserved' && stay.awaitsArrival) return stay.noShowAt && stay.noShowAt <= now ? 'no_show' : 'reserved';
  if (stay.expectedCheckOutAt <= now) return 'expired';
  return stay.checkInAt > now ? 'reserved' : 'in_house';
}

export function toGuestDto(g: GuestRow): GuestDto {
  return { ...g, birthDate: g.birthDate?.toISOString().slice(0, 10) ?? null };
}

export function toStayDto(s: StayRow, now = new Date()): StayDto {
  return {
    id: s.id,
    roomId: s.roomId,
    roomName: s.room.name,
    state: effectiveState(s, now),
    checkInAt: s.checkInAt.toISOString(),
    expectedCheckOutAt: s.expectedCheckOutAt.toISOString(),
    checkedOutAt: s.checkedOutAt?.toISOString() ?? null,
    lengthUnit: s.lengthUnit,
    breakfast: s.breakfast,
    disableOldCards: s.disableOldCards,
    idCardUnlock: s.idCardUnlock,
    depositAmount: s.depositAmount,
    priceAmount: s.priceAmount,
    remark: s.remark,
    movedFromStayId: s.movedFromStayId,
    movedToStayId: s.movedTo[0]?.id ?? null,
    visitStayId: s.visitStayId,
    guests: s.guests.map(toGuestDto),
    awaitsArrival: s.awaitsArrival,
    noShowAt: s.noShowAt?.toISOString() ?? null,
    cancelReason: (s.cancelReason as TCancelReason | null) ?? null,
    cancelNote: s.cancelNote,
    accessIssuedAt: s.accessIssuedAt?.toISOString() ?? null,
    accessOutcome: (s.accessOutcome as TAccessOutcome | null) ?? null,
    offlineCode: s.offlineCodeAt
      ? {
          at: s.offlineCodeAt.toISOString(),
          reason: s.offlineCodeReason ?? 'not_confirmed',
          // A generated code may be permanent: then it works until it is taken off.
          leftUntil: s.passwords[0] ? (s.passwords[0].validUntil?.toISOString() ?? 'permanent') : null,
        }
      : null,
    accessCard: s.accessCard === 'card_at_arrival' && s.cardIssues.length > 0 ? null : ((s.accessCard as TAccessCardOutcome | null) ?? null),
    createdAt: s.createdAt.toISOString(),
  };
}

/** A stay of a room in the actor's scope, or NOT_FOUND (a stay of another hotel is "not found" too). */
export async function findStay(ctx: AuthedContext, stayId: number, db: Tx | AuthedContext['deps']['prisma'] = ctx.deps.prisma): Promise<StayRow> {
  const stay = await db.stay.findFirst({ where: { id: stayId, hotelId: ctx.actor.hotelId, room: roomScope(ctx.actor) }, select: staySelect });
  if (!stay) throw new AppError('NOT_FOUND', { messageKey: 'stay.errors.notFound' });
  return stay;
}

/** The state of an active stay now, or CONFLICT when it has ended (a reservation past its no-show time has). */
export function requireActive(stay: StayClockFacts, now: Date): TStayState {
  const state = isActive(stay.status) ? effectiveState(stay, now) : stay.status;
  if (!isActive(state)) throw new AppError('CONFLICT', { messageKey: 'stay.errors.notActive' });
  return state;
}

export type TGuestData = {
  name: string;
  gender: 'male' | 'female' | 'unknown';
  nationality: string;
  birthDate: string | null;
  idNumber: string | null;
  mobile: string | null;
  email: string | null;
};

export function guestData(hotelId: number, stayId: number, g: TGuestData, isPrimary: boolean): Prisma.StayGuestCreateManyInput {
  return {
    hotelId,
    stayId,
    isPrimary,
    name: g.name,
    gender: g.gender,
    nationality: g.nationality,
    birthDate: g.birthDate ? new Date(`${g.birthDate}T00:00:00Z`) : null,
    idNumber: g.idNumber,
    mobile: g.mobile,
    email: g.email,
  };
}

/** The stay in a room's way: who, and the hours it holds the room, shown in the hotel's time zone. */
export interface TStayInTheWay {
  status: string;
  guest: string | null;
  checkInAt: Date;
  expectedCheckOutAt: Date;
  timeZone: string;
}

/**
 * "The room is taken": with the stay in the way, it names it (a reservation: whose and from when to
 * when; a guest in house: until when), so the clerk knows when the room is free; without (a race
 * lost at the database's constraint), the general message. The reason stays `stay.errors.roomOccupied`.
 */
export const roomOccupied = (cause?: unknown, inTheWay?: TStayInTheWay) =>
  new AppError('CONFLICT', {
    messageKey: 'stay.errors.roomOccupied',
    cause,
    params: inTheWay && {
      context: inTheWay.status === 'reserved' ? 'reserved' : 'inHouse',
      guest: inTheWay.guest ?? '—',
      from: { at: inTheWay.checkInAt, timeZone: inTheWay.timeZone },
      until: { at: inTheWay.expectedCheckOutAt, timeZone: inTheWay.timeZone },
    },
  });
