import { LIMITS, ZRescheduleInput, isLongEnoughStay, passwordValidity, type TRescheduleInput } from '@console/shared';
import type { TReschedulePreviewDto, TRescheduleDto } from '@console/shared/dto';
import type { AuthedContext } from '../../context';
import { isConstraint } from '../../db/errors';
import { recordEvent } from '../../db/events';
import { lockRooms, transaction, type Tx } from '../../db/transaction';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { findRoom } from '../base/room-access';
import { findStay, requireActive, roomOccupied, staySelect, toStayDto, type StayDto, type StayRow } from '../base/stay-dto';
import { followCredentials } from '../credentials/delivery';
import { LIVE_DELIVERY_STATES } from '../credentials/delivery-states';
import { newPasswordValidity, PASSWORD_FOR_VALIDITY_SELECT } from '../credentials/revocation';
import { folioFigures, loadVisit } from '../orders/folio';
import { toLine } from '../orders/entries';
import { followRoomCharge, roomChargeTarget } from '../orders/room-charge';
import { nightsOf, priceNight } from '../price/pricing';
import { loadRates, quoteRenewal } from '../price/price.service';
import { refuseOverlap } from './check-in';
import { extendStayInTx } from './renewal';
import { reservationNoShowAt, retimeStayCredentials } from './reservation';
import { moveStayToRoom } from './room-change';
import { reservationMovePrices } from './booked-rate';
import { followStayJobs } from './stay-schedule';
import type { CredentialMoveDto } from './credential-move';

/**
 * Changing a stay's dates or room (issue 28 §1, issue 29 §1; docs/timeline.md "Changing dates"):
 *
 * - a **reservation** that has not begun moves to other dates, another room, or both: its price is
 *   quoted again for the new nights in the new room (as a reservation is priced), its no-show time
 *   follows, its codes, faces and number cards run over the new period (with the access rule's
 *   margins when the rule issued them; a generated code is replaced), and to another room they
 *   move to its lock as a room change moves them (`moveStayToRoom`: a new stay, the old kept as moved);
 * - a stay that **has begun** keeps its arrival and room; a later check-out is the renewal
 *   (`extendStayInTx`: the added nights at the renewal price); an earlier one shortens it: the
 *   nights taken off are priced as an early departure prices them (`roomChargeDue`), the price
 *   lowered by them and the bill's room charge brought to it by corrections appended today (the
 *   ledger is append-only: a closed day is never changed), its credentials end at the new check-out.
 *
 * Every path locks the rooms it touches (in id order), then reads the stay again: a second copy of
 * the same change finds it made and answers it (`unchanged`) rather than applying it twice. A room
 * taken is refused naming the booking in the way (`refuseOverlap`); another hotel's stay or room,
 * or a room the member does not manage, is "not found". A channel's reservation keeps its dates
 * (the channel's calendar owns them, docs/calendar-feeds.md): the desk may move its room only.
 */

type Kind = TReschedulePreviewDto['kind'];

interface Plan {
  kind: Kind;
  stay: StayRow;
  state: string;
  fromChannel: boolean;
  target: { id: number; name: string };
  checkInAt: Date;
  expectedCheckOutAt: Date;
  price: number;
  /** A reservation moved: its price at the booked rate and priced again at today's rates (the clerk's choice, `pricing`). */
  prices: { kept: number; quoted: number; chosen: 'keep' | 'requote' } | null;
  changedNights: { date: string; price: number }[];
}

const iso = (d: Date) => d.toISOString();

/** What the change would do, checked as the change checks it (nothing written). */
export async function previewReschedule(ctx: AuthedContext, raw: TRescheduleInput): Promise<TReschedulePreviewDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'stay.manage');
  const input = ZRescheduleInput.parse(raw);
  const plan = await planReschedule(ctx, input, deps.prisma);
  const { stay, target } = plan;
  if (plan.kind !== 'unchanged') await refuseOverlap(deps.prisma, actor, target.id, plan.checkInAt, plan.expectedCheckOutAt, stay.id);
  let roomCharge: TReschedulePreviewDto['roomCharge'] = null;
  if (plan.state !== 'reserved') {
    const visit = await loadVisit(deps.prisma, actor.hotelId, stay.id);
    const folio = await deps.prisma.folio.findFirst({
      where: { hotelId: actor.hotelId, stayId: visit.first.id },
      select: { id: true, settledAt: true, owedAt: true },
    });
    if (folio && !folio.settledAt && !folio.owedAt) {
      const lines = await deps.prisma.orderEntry.findMany({
        where: { hotelId: actor.hotelId, folioId: folio.id },
        select: { id: true, kind: true, amount: true, method: true, linkedEntryId: true },
      });
      roomCharge = { posted: folioFigures(lines.map(toLine)).roomChargePosted, after: roomChargeTarget({ status: 'in_house', priceAmount: plan.price }) };
    }
  }
  const before = {
    roomId: stay.roomId,
    roomName: stay.room.name,
    checkInAt: iso(stay.checkInAt),
    expectedCheckOutAt: iso(stay.expectedCheckOutAt),
    nights: nightsOf(stay.checkInAt, stay.expectedCheckOutAt, actor.timeZone).length,
    price: stay.priceAmount,
  };
  return {
    stayId: stay.id,
    kind: plan.kind,
    before,
    after: {
      roomId: target.id,
      roomName: target.name,
      checkInAt: iso(plan.checkInAt),
      expectedCheckOutAt: iso(plan.expectedCheckOutAt),
      nights: nightsOf(plan.checkInAt, plan.expectedCheckOutAt, actor.timeZone).length,
      price: plan.price,
    },
    priceDifference: plan.price - stay.priceAmount,
    prices: plan.prices && { kept: plan.prices.kept, quoted: plan.prices.quoted },
    changedNights: plan.changedNights,
    roomCharge,
    fromChannel: plan.fromChannel,
  };
}

/** Decides what the change is and what it costs, refusing what may not be changed (before any lock). */
async function planReschedule(
  ctx: AuthedContext,
  input: ReturnType<typeof ZRescheduleInput.parse>,
  db: Tx | AuthedContext['deps']['prisma'],
  now = new Date(),
): Promise<Plan> {
  const { actor } = ctx;
  const stay = await findStay(ctx, input.stayId, db);
  const state = requireActive(stay, now);
  const fromChannel = (await db.calendarFeedBooking.count({ where: { hotelId: actor.hotelId, stayId: stay.id } })) > 0;
  const roomId = input.roomId ?? stay.roomId;
  const target =
    roomId === stay.roomId
      ? { id: stay.roomId, name: stay.room.name, maintenance: 'none' }
      : await findRoom(ctx, roomId, { id: true, name: true, maintenance: true }, db);
  const checkInAt = input.checkInAt ?? stay.checkInAt;
  const { expectedCheckOutAt } = input;
  const same =
    target.id === stay.roomId && checkInAt.getTime() === stay.checkInAt.getTime() && expectedCheckOutAt.getTime() === stay.expectedCheckOutAt.getTime();
  const tooShort = () =>
    new AppError('VALIDATION', { messageKey: 'validation.checkOutAfterCheckIn', fields: { expectedCheckOutAt: 'validation.checkOutAfterCheckIn' } });
  const base = { stay, state, fromChannel, target: { id: target.id, name: target.name }, checkInAt, expectedCheckOutAt };
  if (same) return { ...base, kind: 'unchanged', price: stay.priceAmount, prices: null, changedNights: [] };
  if (target.id !== stay.roomId && target.maintenance !== 'none')
    throw new AppError('CONFLICT', { messageKey: 'stay.errors.changeFailedMaintain', params: { room: target.name } });

  if (state === 'reserved') {
    const datesMove = checkInAt.getTime() !== stay.checkInAt.getTime() || expectedCheckOutAt.getTime() !== stay.expectedCheckOutAt.getTime();
    if (datesMove && fromChannel) throw new AppError('CONFLICT', { messageKey: 'stay.errors.rescheduleChannelDates' });
    if (datesMove && checkInAt.getTime() < now.getTime() - LIMITS.minStayHours * 3_600_000)
      throw new AppError('VALIDATION', { messageKey: 'stay.errors.rescheduleInPast', fields: { checkInAt: 'stay.errors.rescheduleInPast' } });
    // The arrival kept (left out) still comes before the new check-out, by the shortest stay at least.
    if (!isLongEnoughStay(checkInAt, expectedCheckOutAt)) throw tooShort();
    // The booked rate belongs to the reservation: kept, unless the clerk chooses to price it again (issue 36).
    const prices = await reservationMovePrices(db, actor.timeZone, stay, { roomId: target.id, checkInAt, expectedCheckOutAt });
    const chosen = input.pricing;
    return { ...base, kind: 'move', price: chosen === 'requote' ? prices.quoted : prices.kept, prices: { ...prices, chosen }, changedNights: [] };
  }

  // A stay that has begun: its arrival and room are history; only its check-out moves.
  if (checkInAt.getTime() !== stay.checkInAt.getTime() || target.id !== stay.roomId)
    throw new AppError('CONFLICT', { messageKey: 'stay.errors.rescheduleBegun' });
  if (expectedCheckOutAt > stay.expectedCheckOutAt) {
    if (expectedCheckOutAt <= now)
      throw new AppError('VALIDATION', { messageKey: 'validation.renewAfterCurrent', fields: { expectedCheckOutAt: 'validation.renewAfterCurrent' } });
    const quote = await quoteRenewal(db, stay.roomId, actor.timeZone, stay.expectedCheckOutAt, expectedCheckOutAt);
    return {
      ...base,
      kind: 'extend',
      price: stay.priceAmount + quote.total,
      prices: null,
      changedNights: quote.nights.map((n) => ({ date: n.date, price: n.price })),
    };
  }
  // Shortened: never to a moment past (check the guest out instead), never under the shortest stay.
  if (expectedCheckOutAt <= now)
    throw new AppError('VALIDATION', { messageKey: 'stay.errors.shortenInPast', fields: { expectedCheckOutAt: 'stay.errors.shortenInPast' } });
  if (!isLongEnoughStay(checkInAt, expectedCheckOutAt)) throw tooShort();
  const kept = new Set(nightsOf(stay.checkInAt, expectedCheckOutAt, actor.timeZone));
  const dropped = nightsOf(stay.checkInAt, stay.expectedCheckOutAt, actor.timeZone).filter((d) => !kept.has(d));
  const rates = dropped.length ? await loadRates(db, stay.roomId, actor.timeZone, expectedCheckOutAt, stay.expectedCheckOutAt) : null;
  const changedNights = rates ? dropped.map((date) => ({ date, price: priceNight(date, rates).price })) : [];
  const credit = changedNights.reduce((sum, n) => sum + n.price, 0);
  return { ...base, kind: 'shorten', price: Math.max(0, stay.priceAmount - credit), prices: null, changedNights };
}

/** The stay after the change, with what the change did. */
export type RescheduleAnswer = StayDto &
  Pick<TRescheduleDto, 'kind' | 'priceDifference' | 'changedCredentials' | 'replacedPasswords' | 'rewriteCards' | 'credentialMoves'>;

/** Applies a change of dates or room (see the module's comment). */
export async function rescheduleStay(ctx: AuthedContext, raw: TRescheduleInput): Promise<RescheduleAnswer> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'stay.manage');
  const input = ZRescheduleInput.parse(raw);
  const now = new Date();
  const plan = await planReschedule(ctx, input, deps.prisma, now);
  const { stay, target } = plan;
  const noShowAt =
    plan.kind === 'move' && stay.awaitsArrival
      ? await reservationNoShowAt(deps.prisma, actor.hotelId, actor.timeZone, plan.checkInAt, plan.expectedCheckOutAt)
      : undefined;
  const answer = {
    kind: plan.kind,
    priceDifference: 0,
    changedCredentials: 0,
    replacedPasswords: 0,
    rewriteCards: [] as TRescheduleDto['rewriteCards'],
    credentialMoves: [] as CredentialMoveDto[],
  };
  let result: StayRow;
  try {
    result = await transaction(deps, async (tx) => {
      await lockRooms(tx, actor.hotelId, [stay.roomId, target.id]);
      // Read again under the locks: a copy of this very change may have been made meanwhile.
      const fresh = await tx.stay.findFirstOrThrow({ where: { id: stay.id, hotelId: actor.hotelId }, select: staySelect });
      const made = await alreadyMade(tx, actor.hotelId, fresh, plan);
      if (made) {
        answer.kind = 'unchanged';
        return made;
      }
      if (plan.kind === 'unchanged') return fresh;
      if (fresh.version !== stay.version) throw new AppError('CONFLICT', { messageKey: 'stay.errors.changedMeanwhile' });
      await refuseOverlap(tx, actor, target.id, plan.checkInAt, plan.expectedCheckOutAt, stay.id);
      answer.priceDifference = plan.price - stay.priceAmount;
      if (plan.kind === 'extend') {
        const done = await extendStayInTx(tx, ctx, actor, fresh, {
          expectedCheckOutAt: plan.expectedCheckOutAt,
          added: plan.price - stay.priceAmount,
          timeZone: actor.timeZone,
          state: plan.state,
          audit: { priceMode: 'computed', via: 'reschedule' },
        });
        answer.changedCredentials = done.extendedCredentials;
        answer.replacedPasswords = done.replacedPasswords;
        answer.rewriteCards = done.rewriteCards;
        followStayJobs(tx, deps, done.renewed, actor.timeZone);
        return done.renewed;
      }
      const changed = plan.kind === 'shorten' ? await shortenInTx(tx, ctx, fresh, plan, answer) : await moveInTx(tx, ctx, fresh, plan, noShowAt, now, answer);
      followStayJobs(tx, deps, changed, actor.timeZone);
      return changed;
    });
  } catch (error) {
    if (isConstraint(error, 'Stay_no_overlap')) throw roomOccupied(error);
    throw error;
  }
  return { ...toStayDto(result, now), ...answer };
}

/** The stay as this change would leave it, when a copy of the change made it already. */
async function alreadyMade(tx: Tx, hotelId: number, fresh: StayRow, plan: Plan): Promise<StayRow | null> {
  const matches = (s: StayRow) =>
    s.roomId === plan.target.id && s.checkInAt.getTime() === plan.checkInAt.getTime() && s.expectedCheckOutAt.getTime() === plan.expectedCheckOutAt.getTime();
  if (plan.kind === 'unchanged') return null;
  if (fresh.status === 'moved') {
    const next = await tx.stay.findFirst({ where: { hotelId, movedFromStayId: fresh.id }, select: staySelect });
    return next && matches(next) ? next : null;
  }
  return matches(fresh) ? fresh : null;
}

type Answer = { changedCredentials: number; replacedPasswords: number; rewriteCards: TRescheduleDto['rewriteCards']; credentialMoves: CredentialMoveDto[] };

/** A reservation to other dates and/or room, in `tx` (its rooms locked, the target checked free). */
async function moveInTx(tx: Tx, ctx: AuthedContext, stay: StayRow, plan: Plan, noShowAt: Date | undefined, now: Date, answer: Answer): Promise<StayRow> {
  const { actor } = ctx;
  const hotelId = actor.hotelId;
  let current = stay;
  if (plan.target.id !== stay.roomId) {
    const done = await moveStayToRoom(tx, ctx, {
      hotelId,
      timeZone: actor.timeZone,
      poster: actor,
      stay,
      targetRoomId: plan.target.id,
      hasBegun: false,
      from: plan.checkInAt,
      end: plan.expectedCheckOutAt,
      datesMoved: true,
      priceAmount: plan.price,
      priceDifference: plan.price - stay.priceAmount,
      now,
    });
    answer.credentialMoves = done.credentialMoves;
    current = done.moved;
  } else {
    const { count } = await tx.stay.updateMany({
      where: { id: stay.id, version: stay.version, status: 'reserved' },
      data: { checkInAt: plan.checkInAt, expectedCheckOutAt: plan.expectedCheckOutAt, priceAmount: plan.price, version: { increment: 1 } },
    });
    if (count === 0) throw new AppError('CONFLICT', { messageKey: 'stay.errors.changedMeanwhile' });
  }
  if (noShowAt) await tx.stay.update({ where: { id: current.id }, data: { noShowAt } });
  const { credentials } = await retimeStayCredentials(tx, {
    hotelId,
    timeZone: actor.timeZone,
    checkInAt: plan.checkInAt,
    expectedCheckOutAt: plan.expectedCheckOutAt,
    stay: current,
  });
  answer.changedCredentials = credentials;
  await recordEvent(tx, { hotelId, kind: 'stay.rescheduled', roomIds: [...new Set([stay.roomId, plan.target.id])], stayId: current.id });
  followCredentials(tx, ctx.deps, hotelId, { stayId: current.id });
  await recordAudit(tx, ctx, {
    action: 'stay.reschedule',
    hotelId,
    entityType: 'Stay',
    entityId: current.id,
    before: { roomId: stay.roomId, checkInAt: iso(stay.checkInAt), expectedCheckOutAt: iso(stay.expectedCheckOutAt), priceAmount: stay.priceAmount },
    after: {
      roomId: plan.target.id,
      checkInAt: iso(plan.checkInAt),
      expectedCheckOutAt: iso(plan.expectedCheckOutAt),
      priceAmount: plan.price,
      // Which price the clerk chose: the booked rate kept, or priced again at today's rates.
      pricing: plan.prices?.chosen ?? 'keep',
      credentials,
    },
  });
  return tx.stay.findUniqueOrThrow({ where: { id: current.id }, select: staySelect });
}

/**
 * A stay that has begun, ended earlier, in `tx`: the price lowered by the nights taken off, the
 * bill's room charge brought to it (corrections appended today: `followRoomCharge`), its codes,
 * faces and number cards ending at the new check-out; written cards keep what they carry until
 * written again or withdrawn at check-out (named in the answer).
 */
async function shortenInTx(tx: Tx, ctx: AuthedContext, stay: StayRow, plan: Plan, answer: Answer): Promise<StayRow> {
  const { actor } = ctx;
  const hotelId = actor.hotelId;
  const { count } = await tx.stay.updateMany({
    where: { id: stay.id, version: stay.version, status: { in: ['in_house', 'expired'] } },
    data: { expectedCheckOutAt: plan.expectedCheckOutAt, priceAmount: plan.price, version: { increment: 1 } },
  });
  if (count === 0) throw new AppError('CONFLICT', { messageKey: 'stay.errors.changedMeanwhile' });
  const charge = await followRoomCharge(tx, ctx, actor, stay.id);
  const cut = await shortenStayCredentials(tx, hotelId, stay.id, plan.expectedCheckOutAt, actor.timeZone);
  answer.changedCredentials = cut.changed;
  answer.replacedPasswords = cut.replaced;
  answer.rewriteCards = cut.rewriteCards;
  await recordEvent(tx, { hotelId, kind: 'stay.rescheduled', roomIds: [stay.roomId], stayId: stay.id });
  followCredentials(tx, ctx.deps, hotelId, { stayId: stay.id });
  await recordAudit(tx, ctx, {
    action: 'stay.reschedule',
    hotelId,
    entityType: 'Stay',
    entityId: stay.id,
    before: { expectedCheckOutAt: iso(stay.expectedCheckOutAt), priceAmount: stay.priceAmount },
    after: {
      expectedCheckOutAt: iso(plan.expectedCheckOutAt),
      priceAmount: plan.price,
      nightsTakenOff: plan.changedNights.map((n) => n.date),
      roomChargeEntries: charge?.entryIds ?? [],
      credentials: cut.changed,
      rewriteCards: cut.rewriteCards.map((c) => c.issueId),
    },
  });
  return tx.stay.findUniqueOrThrow({ where: { id: stay.id }, select: staySelect });
}

/**
 * A stay's credentials that ran to its old check-out end at the new, earlier one (in `tx`): codes
 * through their lock (a generated code is replaced, `newPasswordValidity`), faces and number cards
 * sent again. Written cards cannot be changed from afar: named, to write again at the desk.
 */
async function shortenStayCredentials(
  tx: Tx,
  hotelId: number,
  stayId: number,
  newEnd: Date,
  timeZone: string,
): Promise<{ changed: number; replaced: number; rewriteCards: TRescheduleDto['rewriteCards'] }> {
  let changed = 0;
  let replaced = 0;
  const passwords = await tx.lockPassword.findMany({
    where: { hotelId, stayId, revokeReason: null, deliveryState: { in: [...LIVE_DELIVERY_STATES] }, kind: { not: 'one_time' }, validUntil: { not: null } },
    select: PASSWORD_FOR_VALIDITY_SELECT,
    orderBy: { id: 'asc' },
  });
  for (const p of passwords) {
    const validUntil = passwordValidity(p.kind, p.validFrom, newEnd, timeZone).validUntil!;
    if (p.validUntil!.getTime() <= validUntil.getTime()) continue;
    const r = await newPasswordValidity(tx, p, { validFrom: p.validFrom, validUntil });
    if (r.outcome === 'changed') changed += 1;
    if (r.outcome === 'replaced') replaced += 1;
  }
  const live = { hotelId, stayId, revokeReason: null, deliveryState: { in: [...LIVE_DELIVERY_STATES] }, validUntil: { gt: newEnd } };
  const resend = { validUntil: newEnd, deliveryState: 'pending' as const, version: { increment: 1 }, attempts: 0, lastError: null };
  changed += (await tx.faceAuthorization.updateMany({ where: live, data: resend })).count;
  const numberCards = await tx.cardGrant.findMany({ where: { ...live, medium: 'number' }, select: { issueId: true } });
  changed += (await tx.cardGrant.updateMany({ where: { ...live, medium: 'number' }, data: resend })).count;
  const issueIds = [...new Set(numberCards.map((g) => g.issueId).filter((id): id is number => id !== null))];
  if (issueIds.length) await tx.cardIssue.updateMany({ where: { id: { in: issueIds }, state: 'issued' }, data: { validUntil: newEnd } });
  const written = await tx.cardIssue.findMany({
    where: { hotelId, stayId, state: 'issued', medium: 'data', validUntil: { gt: newEnd } },
    select: { id: true, card: { select: { cardNumber: true } } },
    orderBy: { id: 'asc' },
  });
  return { changed, replaced, rewriteCards: written.map((c) => ({ issueId: c.id, cardNumber: c.card.cardNumber })) };
}
