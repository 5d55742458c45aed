import { ZRenewInput, minPriceMinor, type TRenewInput } from '@console/shared';
import type { AuthedContext, ServiceContext } from '../../context';
import { isConstraint } from '../../db/errors';
import { lockRooms, transaction, type Tx } from '../../db/transaction';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { followCredentials } from '../credentials/delivery';
import { quoteRenewal } from '../price/price.service';
import { refuseOverlap } from './check-in';
import { extendStayCredentials } from '../credentials/revocation';
import { findStay, requireActive, roomOccupied, staySelect, toStayDto, type StayDto, type StayRow } from '../base/stay-dto';
import { reservationNoShowAt } from './reservation';
import { followStayJobs } from './stay-schedule';
import { followRoomCharge } from '../orders/room-charge';
import type { Poster } from '../orders/folio';
import { recordEvent } from '../../db/events';

export interface RenewalDto extends StayDto {
  addedPrice: number;
  /** Generated codes replaced by a new one (a generated code cannot be changed on its lock): the guest's code changes. */
  replacedPasswords: number;
  /** Credentials whose lock learns the new end (passwords, faces, cards sent over the air). */
  extendedCredentials: number;
  /**
   * The stay's cards with data written on them, which still end at the old check-out: no lock can
   * change what a card carries, so each is written again at the desk ("needs rewriting").
   */
  rewriteCards: { issueId: number; cardNumber: string }[];
}

/** Extends a stay: at the price of the nights it adds (the pricing function) or at a set price. */
export async function renewStay(ctx: AuthedContext, raw: TRenewInput): Promise<RenewalDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'stay.manage');
  const input = ZRenewInput.parse(raw);
  const now = new Date();
  const stay = await findStay(ctx, input.stayId);
  const state = requireActive(stay, now);
  if (input.expectedCheckOutAt <= stay.expectedCheckOutAt || input.expectedCheckOutAt <= now) {
    throw new AppError('VALIDATION', { messageKey: 'validation.renewAfterCurrent', fields: { expectedCheckOutAt: 'validation.renewAfterCurrent' } });
  }
  const added =
    input.priceMode === 'fixed'
      ? input.fixedPrice!
      : (await quoteRenewal(deps.prisma, stay.roomId, actor.timeZone, stay.expectedCheckOutAt, input.expectedCheckOutAt)).total;
  if (input.priceMode === 'fixed' && added < minPriceMinor(actor.currency))
    throw new AppError('VALIDATION', { messageKey: 'validation.priceMin', fields: { fixedPrice: 'validation.priceMin' } });
  // A reservation that awaits its guest: its no-show time follows the new expected check-out.
  const noShowAt =
    stay.status === 'reserved' && stay.awaitsArrival
      ? await reservationNoShowAt(deps.prisma, actor.hotelId, actor.timeZone, stay.checkInAt, input.expectedCheckOutAt)
      : undefined;
  let renewed: StayRow;
  let replacedPasswords = 0;
  let extendedCredentials = 0;
  let rewriteCards: RenewalDto['rewriteCards'] = [];
  try {
    renewed = await transaction(deps, async (tx) => {
      const done = await extendStayInTx(tx, ctx, actor, stay, {
        expectedCheckOutAt: input.expectedCheckOutAt,
        added,
        timeZone: actor.timeZone,
        noShowAt,
        state,
        audit: { priceMode: input.priceMode },
      });
      replacedPasswords = done.replacedPasswords;
      extendedCredentials = done.extendedCredentials;
      rewriteCards = done.rewriteCards;
      followStayJobs(tx, deps, done.renewed, actor.timeZone);
      return done.renewed;
    });
  } catch (error) {
    if (isConstraint(error, 'Stay_no_overlap')) throw roomOccupied(error);
    throw error;
  }
  return { ...toStayDto(renewed, now), addedPrice: added, replacedPasswords, extendedCredentials, rewriteCards };
}

/**
 * Extends a stay to `change.expectedCheckOutAt` inside `tx`: the room locked and checked for
 * another stay in the added nights (`roomOccupied`), the price raised by `added` and the version
 * bumped (only from the version read: `changedMeanwhile`), an expired stay in house again, the bill's
 * room charge following, the stay's passwords and faces running to the new check-out (a generated
 * code is replaced), the written cards that still end at the old check-out named, audited
 * `stay.renew`. The desk's renewal and a channel's later check-out (channel-stay.ts) both extend
 * through it; the caller schedules the stay's jobs; the credentials follow after the commit (followCredentials).
 */
export async function extendStayInTx(
  tx: Tx,
  ctx: ServiceContext,
  poster: Poster,
  stay: { id: number; roomId: number; status: string; version: number; checkInAt: Date; expectedCheckOutAt: Date; priceAmount: number },
  change: { expectedCheckOutAt: Date; added: number; timeZone: string; noShowAt?: Date; state: string; audit: Record<string, string> },
): Promise<{ renewed: StayRow; replacedPasswords: number; extendedCredentials: number; rewriteCards: RenewalDto['rewriteCards'] }> {
  const hotelId = poster.hotelId;
  await lockRooms(tx, hotelId, [stay.roomId]);
  await refuseOverlap(tx, { hotelId, timeZone: change.timeZone }, stay.roomId, stay.checkInAt, change.expectedCheckOutAt, stay.id);
  const updated = await tx.stay.updateMany({
    where: { id: stay.id, version: stay.version, status: { in: ['reserved', 'in_house', 'expired'] } },
    data: {
      expectedCheckOutAt: change.expectedCheckOutAt,
      priceAmount: { increment: change.added },
      version: { increment: 1 },
      ...(change.noShowAt ? { noShowAt: change.noShowAt } : {}),
      ...(stay.status === 'expired' ? { status: 'in_house' } : {}),
    },
  });
  if (updated.count === 0) throw new AppError('CONFLICT', { messageKey: 'stay.errors.changedMeanwhile' });
  // The stay's passwords and faces keep working to the new check-out.
  // A generated code on its lock is replaced by a new one: the guest's code changes (said in the answer).
  await followRoomCharge(tx, ctx, poster, stay.id);
  await recordEvent(tx, { hotelId, kind: 'stay.renewed', roomIds: [stay.roomId], stayId: stay.id });
  followCredentials(tx, ctx.deps, hotelId, { stayId: stay.id });
  const extended = await extendStayCredentials(tx, hotelId, stay.id, stay.expectedCheckOutAt, change.expectedCheckOutAt, change.timeZone);
  // Written cards carry their end on the card: they open only to the old check-out until written again.
  const written = await tx.cardIssue.findMany({
    where: { hotelId, stayId: stay.id, state: 'issued', medium: 'data', validUntil: { lt: change.expectedCheckOutAt } },
    select: { id: true, card: { select: { cardNumber: true } } },
    orderBy: { id: 'asc' },
  });
  const rewriteCards = written.map((c) => ({ issueId: c.id, cardNumber: c.card.cardNumber }));
  await recordAudit(tx, ctx, {
    action: 'stay.renew',
    hotelId,
    entityType: 'Stay',
    entityId: stay.id,
    before: { state: change.state, expectedCheckOutAt: stay.expectedCheckOutAt.toISOString(), priceAmount: stay.priceAmount },
    after: {
      expectedCheckOutAt: change.expectedCheckOutAt.toISOString(),
      addedPrice: change.added,
      ...change.audit,
      replacedPasswords: extended.replaced,
      extendedCredentials: extended.changed,
      rewriteCards: rewriteCards.map((c) => c.issueId),
    },
  });
  return {
    renewed: await tx.stay.findUniqueOrThrow({ where: { id: stay.id }, select: staySelect }),
    replacedPasswords: extended.replaced,
    extendedCredentials: extended.changed,
    rewriteCards,
  };
}
