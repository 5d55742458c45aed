import { ACTIVE_STAY_STATES, type TStayState } from '@console/shared';
import type { Prisma } from '../../generated/prisma/client';
import type { AuthedContext } from '../../context';
import type { Tx } from '../../db/transaction';
import { AppError } from '../../errors';
import { roomScope } from '../room/room-access';

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
  guests: GuestDto[];
  createdAt: string;
}

export const guestSelect = { id: true, name: true, gender: true, nationality: true, birthDate: true, idNumber: true, mobile: true, email: true, isPrimary: true } as const;
export const staySelect = {
  id: true,
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
  idempotencyKey: true,
  createdAt: true,
  room: { select: { name: true } },
  movedTo: { select: { id: true }, take: 1 },
  guests: { select: guestSelect, orderBy: [{ isPrimary: 'desc' }, { id: 'asc' }] },
} satisfies Prisma.StaySelect;
export type StayRow = Prisma.StayGetPayload<{ select: typeof staySelect }>;
type GuestRow = StayRow['guests'][number];

export const isActive = (status: TStayState) => (ACTIVE_STAY_STATES as readonly string[]).includes(status);

/** The state of a stay at `now`, whatever the jobs have written yet. */
export function effectiveState(stay: { status: TStayState; checkInAt: Date; expectedCheckOutAt: Date }, now = new Date()): TStayState {
  if (!isActive(stay.status)) return stay.status;
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
    guests: s.guests.map(toGuestDto),
    createdAt: s.createdAt.toISOString(),
  };
}

/** A stay of a room in the actor's scope, or NOT_FOUND (a stay of another hotel is "not found" too). */
export async function findStay(ctx: AuthedContext, stayId: number, db: Tx | AuthedContext['deps']['prisma'] = ctx.deps.prisma): Promise<StayRow> {
  const stay = await db.stay.findFirst({ where: { id: stayId, hotelId: ctx.actor.hotelId, room: roomScope(ctx.actor) }, select: staySelect });
  if (!stay) throw new AppError('NOT_FOUND', { messageKey: 'stay.errors.notFound' });
  return stay;
}

/** The state of an active stay now, or CONFLICT when it has ended. */
export function requireActive(stay: { status: TStayState; checkInAt: Date; expectedCheckOutAt: Date }, now: Date): TStayState {
  if (!isActive(stay.status)) throw new AppError('CONFLICT', { messageKey: 'stay.errors.notActive' });
  return effectiveState(stay, now);
}

export type TGuestData = { name: string; gender: 'male' | 'female' | 'unknown'; nationality: string; birthDate: string | null; idNumber: string | null; mobile: string | null; email: string | null };

export function guestData(hotelId: number, stayId: number, g: TGuestData, isPrimary: boolean): Prisma.StayGuestCreateManyInput {
  return { hotelId, stayId, isPrimary, name: g.name, gender: g.gender, nationality: g.nationality, birthDate: g.birthDate ? new Date(`${g.birthDate}T00:00:00Z`) : null, idNumber: g.idNumber, mobile: g.mobile, email: g.email };
}

export const roomOccupied = (cause?: unknown) => new AppError('CONFLICT', { messageKey: 'stay.errors.roomOccupied', cause });
