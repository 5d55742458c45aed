import {
  ACTIVE_STAY_STATES,
  LIMITS,
  ZAddGuestInput,
  ZChangeRoomInput,
  ZCheckInInput,
  ZRemoveGuestInput,
  ZRenewInput,
  ZStayListInput,
  addDays,
  minPriceMinor,
  zonedToInstant,
  type TCheckInInput,
  type TCheckInWarning,
  type TGuestInput,
  type TRenewInput,
  type TStayListInput,
  type TStayState,
} from '@console/shared';
import type { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client';
import type { AuthedContext } from '../../context';
import { databaseConstraint, isConstraint } from '../../db/errors';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { quoteRenewal, quoteStay } from '../price/price.service';
import { findRoom, roomScope } from '../room/room-access';
import { scheduleStayJobs } from './stay-schedule';

type Tx = Prisma.TransactionClient;

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

const guestSelect = { id: true, name: true, gender: true, nationality: true, birthDate: true, idNumber: true, mobile: true, email: true, isPrimary: true } as const;
const staySelect = {
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
type StayRow = Prisma.StayGetPayload<{ select: typeof staySelect }>;

const isActive = (status: TStayState) => (ACTIVE_STAY_STATES as readonly string[]).includes(status);

/** The state of a stay at `now`, whatever the jobs have written yet. */
export function effectiveState(stay: { status: TStayState; checkInAt: Date; expectedCheckOutAt: Date }, now = new Date()): TStayState {
  if (!isActive(stay.status)) return stay.status;
  if (stay.expectedCheckOutAt <= now) return 'expired';
  return stay.checkInAt > now ? 'reserved' : 'in_house';
}

function toGuestDto(g: StayRow['guests'][number]): GuestDto {
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

/** A stay of a room in the actor's scope, or NOT_FOUND. */
async function findStay(ctx: AuthedContext, stayId: number, db: Tx | AuthedContext['deps']['prisma'] = ctx.deps.prisma): Promise<StayRow> {
  const stay = await db.stay.findFirst({ where: { id: stayId, hotelId: ctx.actor.hotelId, room: roomScope(ctx.actor) }, select: staySelect });
  if (!stay) throw new AppError('NOT_FOUND', { messageKey: 'stay.errors.notFound' });
  return stay;
}

export async function getStay(ctx: AuthedContext, stayId: number): Promise<StayDto> {
  requirePermission(ctx.actor, 'room.read');
  return toStayDto(await findStay(ctx, stayId));
}

function requireActive(stay: StayRow, now: Date) {
  if (!isActive(stay.status)) throw new AppError('CONFLICT', { messageKey: 'stay.errors.notActive' });
  return effectiveState(stay, now);
}

const roomOccupied = (cause?: unknown) => new AppError('CONFLICT', { messageKey: 'stay.errors.roomOccupied', cause });

function guestData(hotelId: number, stayId: number, g: z.output<typeof ZCheckInInput>['guests'][number], isPrimary: boolean): Prisma.StayGuestCreateManyInput {
  return { hotelId, stayId, isPrimary, name: g.name, gender: g.gender, nationality: g.nationality, birthDate: g.birthDate ? new Date(`${g.birthDate}T00:00:00Z`) : null, idNumber: g.idNumber, mobile: g.mobile, email: g.email };
}

const LIVE_STATES = ['pending', 'on_lock', 'failed'] as const;

/** Queues every live credential of a stay (or of one guest) for removal from the lock. */
async function revokeCredentials(tx: Tx, hotelId: number, where: { stayId?: number; guestId?: number }) {
  const live = { hotelId, ...where, deliveryState: { in: [...LIVE_STATES] } };
  const data = { deliveryState: 'removing' as const };
  // One after the other: a transaction is one connection.
  const cards = await tx.cardGrant.updateMany({ where: live, data });
  const passwords = await tx.lockPassword.updateMany({ where: live, data });
  const faces = where.stayId !== undefined ? await tx.faceAuthorization.updateMany({ where: { hotelId, stayId: where.stayId, deliveryState: { in: [...LIVE_STATES] } }, data }) : { count: 0 };
  const fingerprints = await tx.fingerprint.updateMany({ where: live, data });
  return cards.count + passwords.count + faces.count + fingerprints.count;
}

/** Guests of other stays that have begun and not ended, with the same ID number or mobile. */
async function guestsInOtherRooms(ctx: AuthedContext, guests: { idNumber: string | null; mobile: string | null }[], now: Date, excludeStayId?: number) {
  const idNumbers = guests.map((g) => g.idNumber).filter((v): v is string => Boolean(v));
  const mobiles = guests.map((g) => g.mobile).filter((v): v is string => Boolean(v));
  if (!idNumbers.length && !mobiles.length) return [];
  const found = await ctx.deps.prisma.stayGuest.findMany({
    where: {
      hotelId: ctx.actor.hotelId,
      OR: [...(idNumbers.length ? [{ idNumber: { in: idNumbers } }] : []), ...(mobiles.length ? [{ mobile: { in: mobiles } }] : [])],
      stay: { status: { in: [...ACTIVE_STAY_STATES] }, checkInAt: { lte: now }, ...(excludeStayId ? { id: { not: excludeStayId } } : {}) },
    },
    select: { name: true, stay: { select: { room: { select: { name: true } } } } },
  });
  return found.map((g) => ({ guest: g.name, room: g.stay.room.name }));
}

/**
 * Checks guests into a room (spec §3-§5). The same `idempotencyKey` always gives the same stay,
 * however often it is sent. Overlapping stays are refused by the database; that refusal becomes
 * "room already occupied for that period". A dirty room, or a guest already in another room,
 * needs the user's confirmation (CONFIRMATION_REQUIRED with the warnings), then `acknowledge`.
 */
export async function checkIn(ctx: AuthedContext, raw: TCheckInInput): Promise<StayDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'stay.manage');
  const input = ZCheckInInput.parse(raw);
  const now = new Date();
  const byKey = () => deps.prisma.stay.findUnique({ where: { hotelId_idempotencyKey: { hotelId: actor.hotelId, idempotencyKey: input.idempotencyKey } }, select: staySelect });
  const earlier = await byKey();
  if (earlier) return toStayDto(earlier, now);

  const room = await findRoom(ctx, input.roomId, { id: true, name: true, cleanStatus: true, maintenance: true, depositAmount: true });
  if (room.maintenance !== 'none') throw new AppError('CONFLICT', { messageKey: 'stay.errors.roomMaintain', params: { room: room.name } });
  if (input.expectedCheckOutAt <= now) throw new AppError('VALIDATION', { messageKey: 'validation.checkOutInPast', fields: { expectedCheckOutAt: 'validation.checkOutInPast' } });

  const warnings: TCheckInWarning[] = [];
  const elsewhere = await guestsInOtherRooms(ctx, input.guests, now);
  if (elsewhere.length) warnings.push('guest_in_other_room');
  if (room.cleanStatus === 'dirty') warnings.push('room_dirty');
  const unconfirmed = warnings.filter((w) => !input.acknowledge.includes(w));
  if (unconfirmed.length) {
    const askingAboutGuest = unconfirmed[0] === 'guest_in_other_room';
    throw new AppError('CONFIRMATION_REQUIRED', {
      messageKey: askingAboutGuest ? 'stay.warnings.guestInOtherRoom' : 'stay.warnings.roomDirty',
      params: askingAboutGuest ? { guest: elsewhere[0]?.guest, room: elsewhere[0]?.room } : { room: room.name },
      details: { warnings: unconfirmed, elsewhere },
    });
  }

  const price =
    input.priceMode === 'fixed' ? input.fixedPrice! : (await quoteStay(deps.prisma, room.id, actor.timeZone, input.checkInAt, input.expectedCheckOutAt)).total;
  if (input.priceMode === 'fixed' && price < minPriceMinor(actor.currency)) throw new AppError('VALIDATION', { messageKey: 'validation.priceMin', fields: { fixedPrice: 'validation.priceMin' } });

  let created: StayRow;
  try {
    created = await deps.prisma.$transaction(async (tx) => {
      const stay = await tx.stay.create({
        data: {
          hotelId: actor.hotelId,
          roomId: room.id,
          status: input.checkInAt > now ? 'reserved' : 'in_house',
          checkInAt: input.checkInAt,
          expectedCheckOutAt: input.expectedCheckOutAt,
          lengthUnit: input.lengthUnit,
          breakfast: input.breakfast,
          disableOldCards: input.disableOldCards,
          idCardUnlock: input.idCardUnlock,
          depositAmount: input.depositAmount,
          priceAmount: price,
          remark: input.remark,
          idempotencyKey: input.idempotencyKey,
          createdByAccountId: actor.accountId,
        },
        select: { id: true, roomId: true, status: true, version: true, checkInAt: true, expectedCheckOutAt: true, checkedOutAt: true, lengthUnit: true, breakfast: true, disableOldCards: true, idCardUnlock: true, depositAmount: true, priceAmount: true, remark: true, movedFromStayId: true, idempotencyKey: true, createdAt: true },
      });
      const guests = await tx.stayGuest.createManyAndReturn({ data: input.guests.map((g, i) => guestData(actor.hotelId, stay.id, g, i === 0)), select: guestSelect });
      let disabledCards = 0;
      if (input.disableOldCards) {
        const identities = input.guests.flatMap((g) => [...(g.idNumber ? [{ idNumber: g.idNumber }] : []), ...(g.mobile ? [{ mobile: g.mobile }] : [])]);
        if (identities.length) {
          const result = await tx.cardGrant.updateMany({
            where: { hotelId: actor.hotelId, deliveryState: { in: [...LIVE_STATES] }, stayId: { not: stay.id }, guest: { OR: identities } },
            data: { deliveryState: 'removing' },
          });
          disabledCards = result.count;
        }
      }
      // The new stay as the DTO needs it, from what was just written (no read back).
      const full: StayRow = { ...stay, room: { name: room.name }, movedTo: [], guests };
      await recordAudit(tx, ctx, { action: 'stay.checkIn', entityType: 'Stay', entityId: stay.id, after: { roomId: room.id, checkInAt: input.checkInAt.toISOString(), expectedCheckOutAt: input.expectedCheckOutAt.toISOString(), price, guests: input.guests.length, disabledCards, acknowledged: input.acknowledge } });
      return full;
    });
  } catch (error) {
    // A retry racing the first attempt: whichever constraint it met, the stay of this key wins.
    const existing = databaseConstraint(error) ? await byKey() : null;
    if (existing) return toStayDto(existing, now);
    if (isConstraint(error, 'Stay_no_overlap')) throw roomOccupied(error);
    throw error;
  }
  await scheduleStayJobs(deps, created);
  return toStayDto(created, now);
}

/**
 * Checks a stay out (a reservation that has not begun is cancelled instead). The room becomes
 * dirty and every credential of the stay is queued for removal from the lock.
 */
export async function checkOut(ctx: AuthedContext, stayId: number): Promise<StayDto & { revokedCredentials: number }> {
  requirePermission(ctx.actor, 'stay.manage');
  const now = new Date();
  const stay = await findStay(ctx, stayId);
  const state = requireActive(stay, now);
  const hasBegun = state !== 'reserved';
  const revoked = await ctx.deps.prisma.$transaction(async (tx) => {
    const updated = await tx.stay.updateMany({
      where: { id: stay.id, status: { in: [...ACTIVE_STAY_STATES] } },
      data: { status: hasBegun ? 'checked_out' : 'ended', checkedOutAt: now },
    });
    if (updated.count === 0) throw new AppError('CONFLICT', { messageKey: 'stay.errors.notActive' });
    if (hasBegun) await tx.room.update({ where: { id: stay.roomId }, data: { cleanStatus: 'dirty' } });
    const count = await revokeCredentials(tx, ctx.actor.hotelId, { stayId: stay.id });
    await recordAudit(tx, ctx, { action: hasBegun ? 'stay.checkOut' : 'stay.cancel', entityType: 'Stay', entityId: stay.id, before: { state }, after: { revokedCredentials: count } });
    return count;
  });
  return { ...toStayDto(await findStay(ctx, stay.id), now), revokedCredentials: revoked };
}

/** Extends a stay: at the price of the nights it adds (the pricing function) or at a set price. */
export async function renewStay(ctx: AuthedContext, raw: TRenewInput): Promise<StayDto & { addedPrice: number }> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'stay.manage');
  const input = ZRenewInput.parse(raw);
  const now = new Date();
  const stay = await findStay(ctx, input.stayId);
  const state = requireActive(stay, now);
  if (input.expectedCheckOutAt <= stay.expectedCheckOutAt || input.expectedCheckOutAt <= now) {
    throw new AppError('VALIDATION', { messageKey: 'validation.renewAfterCurrent', fields: { expectedCheckOutAt: 'validation.renewAfterCurrent' } });
  }
  const added = input.priceMode === 'fixed' ? input.fixedPrice! : (await quoteRenewal(deps.prisma, stay.roomId, actor.timeZone, stay.expectedCheckOutAt, input.expectedCheckOutAt)).total;
  if (input.priceMode === 'fixed' && added < minPriceMinor(actor.currency)) throw new AppError('VALIDATION', { messageKey: 'validation.priceMin', fields: { fixedPrice: 'validation.priceMin' } });
  let renewed: StayRow;
  try {
    renewed = await deps.prisma.$transaction(async (tx) => {
      const updated = await tx.stay.updateMany({
        where: { id: stay.id, version: stay.version, status: { in: [...ACTIVE_STAY_STATES] } },
        data: { expectedCheckOutAt: input.expectedCheckOutAt, priceAmount: { increment: added }, version: { increment: 1 }, ...(stay.status === 'expired' ? { status: 'in_house' } : {}) },
      });
      if (updated.count === 0) throw new AppError('CONFLICT', { messageKey: 'stay.errors.changedMeanwhile' });
      await recordAudit(tx, ctx, {
        action: 'stay.renew',
        entityType: 'Stay',
        entityId: stay.id,
        before: { state, expectedCheckOutAt: stay.expectedCheckOutAt.toISOString(), priceAmount: stay.priceAmount },
        after: { expectedCheckOutAt: input.expectedCheckOutAt.toISOString(), addedPrice: added, priceMode: input.priceMode },
      });
      return tx.stay.findUniqueOrThrow({ where: { id: stay.id }, select: staySelect });
    });
  } catch (error) {
    if (isConstraint(error, 'Stay_no_overlap')) throw roomOccupied(error);
    throw error;
  }
  await scheduleStayJobs(deps, renewed);
  return { ...toStayDto(renewed, now), addedPrice: added };
}

/**
 * Moves a stay to another room (`exchangeHouses`). The old stay is kept as history (moved), a new
 * stay carries the guests on from now (or from its start, for a reservation), and its price changes
 * by the difference between the two rooms over the remaining nights. Every failure says "room
 * change failed" and why.
 */
export async function changeRoom(ctx: AuthedContext, raw: z.input<typeof ZChangeRoomInput>): Promise<StayDto & { priceDifference: number }> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'stay.manage');
  const input = ZChangeRoomInput.parse(raw);
  const now = new Date();
  const stay = await findStay(ctx, input.stayId);
  const state = requireActive(stay, now);
  if (input.targetRoomId === stay.roomId) throw new AppError('CONFLICT', { messageKey: 'stay.errors.changeFailedSameRoom' });
  const target = await findRoom(ctx, input.targetRoomId, { id: true, name: true, maintenance: true });
  if (target.maintenance !== 'none') throw new AppError('CONFLICT', { messageKey: 'stay.errors.changeFailedMaintain', params: { room: target.name } });
  const hasBegun = state !== 'reserved';
  const from = hasBegun ? now : stay.checkInAt;
  const end = stay.expectedCheckOutAt;
  if (end.getTime() - from.getTime() < LIMITS.minStayHours * 3_600_000) throw new AppError('CONFLICT', { messageKey: 'stay.errors.changeFailedTooLate' });
  const [oldPrice, newPrice] = await Promise.all([quoteStay(deps.prisma, stay.roomId, actor.timeZone, from, end), quoteStay(deps.prisma, target.id, actor.timeZone, from, end)]);
  const difference = newPrice.total - oldPrice.total;
  let moved: StayRow;
  try {
    moved = await deps.prisma.$transaction(async (tx) => {
      const updated = await tx.stay.updateMany({
        where: { id: stay.id, version: stay.version, status: { in: [...ACTIVE_STAY_STATES] } },
        data: { status: 'moved', checkedOutAt: hasBegun ? now : null },
      });
      if (updated.count === 0) throw new AppError('CONFLICT', { messageKey: 'stay.errors.changedMeanwhile' });
      const next = await tx.stay.create({
        data: {
          hotelId: actor.hotelId,
          roomId: target.id,
          status: hasBegun ? 'in_house' : 'reserved',
          checkInAt: from,
          expectedCheckOutAt: end,
          lengthUnit: stay.lengthUnit,
          breakfast: stay.breakfast,
          disableOldCards: stay.disableOldCards,
          idCardUnlock: stay.idCardUnlock,
          depositAmount: stay.depositAmount,
          priceAmount: Math.max(0, stay.priceAmount + difference),
          remark: stay.remark,
          movedFromStayId: stay.id,
          createdByAccountId: actor.accountId,
        },
        select: { id: true },
      });
      await tx.stayGuest.createMany({
        data: stay.guests.map((g) => ({ hotelId: actor.hotelId, stayId: next.id, isPrimary: g.isPrimary, name: g.name, gender: g.gender, nationality: g.nationality, birthDate: g.birthDate, idNumber: g.idNumber, mobile: g.mobile, email: g.email })),
      });
      if (hasBegun) await tx.room.update({ where: { id: stay.roomId }, data: { cleanStatus: 'dirty' } });
      const revoked = await revokeCredentials(tx, actor.hotelId, { stayId: stay.id });
      await recordAudit(tx, ctx, {
        action: 'stay.changeRoom',
        entityType: 'Stay',
        entityId: stay.id,
        before: { roomId: stay.roomId, priceAmount: stay.priceAmount },
        after: { roomId: target.id, newStayId: next.id, priceDifference: difference, revokedCredentials: revoked },
      });
      return tx.stay.findUniqueOrThrow({ where: { id: next.id }, select: staySelect });
    });
  } catch (error) {
    if (isConstraint(error, 'Stay_no_overlap')) throw new AppError('CONFLICT', { messageKey: 'stay.errors.changeFailedOccupied', params: { room: target.name }, cause: error });
    throw error;
  }
  await scheduleStayJobs(deps, moved);
  return { ...toStayDto(moved, now), priceDifference: difference };
}

export async function addGuest(ctx: AuthedContext, raw: { stayId: number; guest: TGuestInput }): Promise<StayDto> {
  requirePermission(ctx.actor, 'stay.manage');
  const input = ZAddGuestInput.parse(raw);
  const stay = await findStay(ctx, input.stayId);
  requireActive(stay, new Date());
  if (stay.guests.length >= 10) throw new AppError('CONFLICT', { messageKey: 'validation.tooManyGuests' });
  await ctx.deps.prisma.$transaction(async (tx) => {
    const guest = await tx.stayGuest.create({ data: guestData(ctx.actor.hotelId, stay.id, input.guest, false) as Prisma.StayGuestUncheckedCreateInput, select: { id: true } });
    await recordAudit(tx, ctx, { action: 'stay.addGuest', entityType: 'Stay', entityId: stay.id, after: { guestId: guest.id, name: input.guest.name } });
  });
  return toStayDto(await findStay(ctx, stay.id));
}

/** Removes a co-guest; their credentials are queued for removal. The primary guest stays. */
export async function removeGuest(ctx: AuthedContext, raw: z.input<typeof ZRemoveGuestInput>): Promise<StayDto> {
  requirePermission(ctx.actor, 'stay.manage');
  const input = ZRemoveGuestInput.parse(raw);
  const stay = await findStay(ctx, input.stayId);
  requireActive(stay, new Date());
  const guest = stay.guests.find((g) => g.id === input.guestId);
  if (!guest) throw new AppError('NOT_FOUND', { messageKey: 'stay.errors.guestNotFound' });
  if (guest.isPrimary) throw new AppError('CONFLICT', { messageKey: 'stay.errors.cannotRemovePrimary' });
  await ctx.deps.prisma.$transaction(async (tx) => {
    const revoked = await revokeCredentials(tx, ctx.actor.hotelId, { guestId: guest.id });
    const detach = { hotelId: ctx.actor.hotelId, guestId: guest.id };
    await tx.cardGrant.updateMany({ where: detach, data: { guestId: null } });
    await tx.lockPassword.updateMany({ where: detach, data: { guestId: null } });
    await tx.fingerprint.updateMany({ where: detach, data: { guestId: null } });
    await tx.face.updateMany({ where: detach, data: { guestId: null } });
    await tx.stayGuest.delete({ where: { id: guest.id } });
    await recordAudit(tx, ctx, { action: 'stay.removeGuest', entityType: 'Stay', entityId: stay.id, before: toGuestDto(guest) as unknown as Prisma.InputJsonValue, after: { revokedCredentials: revoked } });
  });
  return toStayDto(await findStay(ctx, stay.id));
}

/** Where-conditions of a state filter, exact even before the jobs have caught up. */
function stateWhere(state: z.output<typeof ZStayListInput>['state'], now: Date): Prisma.StayWhereInput {
  switch (state) {
    case 'all':
      return {};
    case 'current':
      return { status: { in: [...ACTIVE_STAY_STATES] } };
    case 'reserved':
      return { status: { in: [...ACTIVE_STAY_STATES] }, checkInAt: { gt: now }, expectedCheckOutAt: { gt: now } };
    case 'in_house':
      return { status: { in: [...ACTIVE_STAY_STATES] }, checkInAt: { lte: now }, expectedCheckOutAt: { gt: now } };
    case 'expired':
      return { status: { in: [...ACTIVE_STAY_STATES] }, expectedCheckOutAt: { lte: now } };
    default:
      return { status: state };
  }
}

/** The tenant list: every stay of the rooms in scope, filtered by state, dates, room and guest. */
export async function listStays(ctx: AuthedContext, raw: TStayListInput) {
  const { deps, actor } = ctx;
  requirePermission(actor, 'room.read');
  const input = ZStayListInput.parse(raw);
  const now = new Date();
  const guest = input.guest?.trim();
  const where: Prisma.StayWhereInput = {
    hotelId: actor.hotelId,
    room: roomScope(actor),
    ...stateWhere(input.state, now),
    ...(input.roomId !== undefined ? { roomId: input.roomId } : {}),
    ...(guest
      ? { guests: { some: { OR: [{ name: { contains: guest, mode: 'insensitive' } }, { mobile: { contains: guest } }, { idNumber: { contains: guest, mode: 'insensitive' } }] } } }
      : {}),
    AND: [
      ...(input.from ? [{ OR: [{ checkedOutAt: { gt: zonedToInstant(`${input.from}T00:00`, actor.timeZone)! } }, { checkedOutAt: null, expectedCheckOutAt: { gt: zonedToInstant(`${input.from}T00:00`, actor.timeZone)! } }] }] : []),
      ...(input.to ? [{ checkInAt: { lt: zonedToInstant(`${addDays(input.to, 1)}T00:00`, actor.timeZone)! } }] : []),
    ],
  };
  const [total, rows] = await Promise.all([
    deps.prisma.stay.count({ where }),
    deps.prisma.stay.findMany({ where, select: staySelect, orderBy: [{ checkInAt: 'desc' }, { id: 'desc' }], skip: (input.page - 1) * input.pageSize, take: input.pageSize }),
  ]);
  return { items: rows.map((r) => toStayDto(r, now)), total, page: input.page, pageSize: input.pageSize };
}

/** A guest (the spec's `manage_id`) with their stay: the guest detail page and `passenger/info`. */
export async function getGuest(ctx: AuthedContext, guestId: number): Promise<{ guest: GuestDto; stay: StayDto }> {
  requirePermission(ctx.actor, 'room.read');
  const guest = await ctx.deps.prisma.stayGuest.findFirst({
    where: { id: guestId, hotelId: ctx.actor.hotelId, stay: { room: roomScope(ctx.actor) } },
    select: { ...guestSelect, stayId: true },
  });
  if (!guest) throw new AppError('NOT_FOUND', { messageKey: 'stay.errors.guestNotFound' });
  const { stayId, ...rest } = guest;
  return { guest: toGuestDto(rest), stay: toStayDto(await findStay(ctx, stayId)) };
}

/** Guests of the hotel's stays, newest first (`passenger/list`). */
export async function listGuests(ctx: AuthedContext, raw: { page?: number; pageSize?: number; search?: string; currentOnly?: boolean }) {
  requirePermission(ctx.actor, 'room.read');
  const page = Math.max(1, raw.page ?? 1);
  const pageSize = Math.min(LIMITS.pageSizeMax, Math.max(1, raw.pageSize ?? LIMITS.pageSizeDefault));
  const search = raw.search?.trim();
  const where: Prisma.StayGuestWhereInput = {
    hotelId: ctx.actor.hotelId,
    stay: { room: roomScope(ctx.actor), ...(raw.currentOnly ? { status: { in: [...ACTIVE_STAY_STATES] } } : {}) },
    ...(search ? { OR: [{ name: { contains: search, mode: 'insensitive' } }, { mobile: { contains: search } }, { idNumber: { contains: search, mode: 'insensitive' } }] } : {}),
  };
  const now = new Date();
  const [total, rows] = await Promise.all([
    ctx.deps.prisma.stayGuest.count({ where }),
    ctx.deps.prisma.stayGuest.findMany({
      where,
      select: { ...guestSelect, stay: { select: { id: true, roomId: true, status: true, checkInAt: true, expectedCheckOutAt: true, room: { select: { name: true } } } } },
      orderBy: [{ stay: { checkInAt: 'desc' } }, { id: 'desc' }],
      skip: (page - 1) * pageSize,
      take: pageSize,
    }),
  ]);
  return {
    items: rows.map(({ stay, ...g }) => ({
      ...toGuestDto(g),
      stayId: stay.id,
      roomId: stay.roomId,
      roomName: stay.room.name,
      state: effectiveState(stay, now),
      checkInAt: stay.checkInAt.toISOString(),
      expectedCheckOutAt: stay.expectedCheckOutAt.toISOString(),
    })),
    total,
    page,
    pageSize,
  };
}

// ---------------------------------------------------------------------------------------------
// Breakfast: on the morning of a date, the guests of stays with breakfast who slept there.

export interface BreakfastRow {
  stayId: number;
  roomId: number;
  roomName: string;
  guestNames: string[];
  guests: number;
  servedAt: string | null;
  servedGuests: number | null;
}

async function breakfastStays(ctx: AuthedContext, date: string, stayId?: number) {
  const morning = zonedToInstant(`${date}T00:00`, ctx.actor.timeZone)!;
  return ctx.deps.prisma.stay.findMany({
    where: {
      hotelId: ctx.actor.hotelId,
      room: roomScope(ctx.actor),
      breakfast: true,
      status: { not: 'ended' },
      checkInAt: { lt: morning },
      OR: [{ checkedOutAt: { gt: morning } }, { checkedOutAt: null, expectedCheckOutAt: { gt: morning } }],
      ...(stayId !== undefined ? { id: stayId } : {}),
    },
    select: {
      id: true,
      roomId: true,
      room: { select: { name: true } },
      guests: { select: { name: true }, orderBy: [{ isPrimary: 'desc' }, { id: 'asc' }] },
      breakfastRecords: { where: { date: new Date(`${date}T00:00:00Z`) }, select: { servedAt: true, guests: true } },
    },
    orderBy: { room: { name: 'asc' } },
  });
}

export async function listBreakfast(ctx: AuthedContext, date: string): Promise<{ date: string; rows: BreakfastRow[]; guests: number; served: number }> {
  requirePermission(ctx.actor, 'room.read');
  const stays = await breakfastStays(ctx, date);
  const rows = stays.map((s) => ({
    stayId: s.id,
    roomId: s.roomId,
    roomName: s.room.name,
    guestNames: s.guests.map((g) => g.name),
    guests: s.guests.length,
    servedAt: s.breakfastRecords[0]?.servedAt?.toISOString() ?? null,
    servedGuests: s.breakfastRecords[0]?.servedAt ? s.breakfastRecords[0].guests : null,
  }));
  return { date, rows, guests: rows.reduce((n, r) => n + r.guests, 0), served: rows.reduce((n, r) => n + (r.servedGuests ?? 0), 0) };
}

/** Records the breakfast of a stay on a date as served (once; serving again updates the count). */
export async function serveBreakfast(ctx: AuthedContext, input: { stayId: number; date: string; guests?: number }): Promise<BreakfastRow> {
  requirePermission(ctx.actor, 'stay.manage');
  await findStay(ctx, input.stayId);
  const [stay] = await breakfastStays(ctx, input.date, input.stayId);
  if (!stay) throw new AppError('CONFLICT', { messageKey: 'stay.errors.noBreakfast' });
  const guests = input.guests ?? stay.guests.length;
  const date = new Date(`${input.date}T00:00:00Z`);
  await ctx.deps.prisma.$transaction(async (tx) => {
    await tx.breakfastRecord.upsert({
      where: { stayId_date: { stayId: stay.id, date } },
      create: { hotelId: ctx.actor.hotelId, stayId: stay.id, date, guests, servedAt: new Date() },
      update: { guests, servedAt: new Date() },
    });
    await recordAudit(tx, ctx, { action: 'stay.breakfast', entityType: 'Stay', entityId: stay.id, after: { date: input.date, guests } });
  });
  return (await listBreakfast(ctx, input.date)).rows.find((r) => r.stayId === stay.id)!;
}
