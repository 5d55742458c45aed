import type { ServiceContext } from '../../context';
import type { Tx } from '../../db/transaction';
import { AppError } from '../../errors';
import { quoteRenewal } from '../price/price.service';
import { extendStayInTx } from './renewal';
import type { StayRow } from '../base/stay-dto';

/**
 * A channel moved the check-out of a booking whose guest is already in (docs/calendar-feeds.md
 * "After the guest arrived"): the stay is extended in `tx` as the desk's renewal extends it
 * (`extendStayInTx`: the price of the nights it adds, the bill and the credentials following),
 * audited `stay.renew` with the channel's note. Only a later check-out is followed by itself; an
 * earlier one, or a moved arrival, is left to the desk (the caller flags the booking).
 * `{ conflictStayId }` when another stay holds the room in the added nights; null when the stay is
 * no longer in the house or its check-out is not earlier than `expectedCheckOutAt`.
 * The caller schedules the stay's jobs and kicks deliveries after commit.
 */
export async function extendChannelStay(
  tx: Tx,
  ctx: ServiceContext,
  e: { hotelId: number; timeZone: string; stayId: number; expectedCheckOutAt: Date; note: string },
): Promise<{ extended: StayRow } | { conflictStayId: number | null } | null> {
  const stay = await tx.stay.findFirst({
    where: { id: e.stayId, hotelId: e.hotelId },
    select: {
      id: true,
      roomId: true,
      status: true,
      version: true,
      checkInAt: true,
      expectedCheckOutAt: true,
      priceAmount: true,
      hotel: { select: { currency: true } },
    },
  });
  if (!stay || (stay.status !== 'in_house' && stay.status !== 'expired')) return null;
  if (e.expectedCheckOutAt <= stay.expectedCheckOutAt) return null;
  const added = (await quoteRenewal(tx, stay.roomId, e.timeZone, stay.expectedCheckOutAt, e.expectedCheckOutAt)).total;
  const poster = { hotelId: e.hotelId, currency: stay.hotel.currency.trim(), accountId: null };
  try {
    const { renewed } = await extendStayInTx(tx, ctx, poster, stay, {
      expectedCheckOutAt: e.expectedCheckOutAt,
      added,
      timeZone: e.timeZone,
      state: stay.status,
      audit: { priceMode: 'auto', note: e.note },
    });
    return { extended: renewed };
  } catch (error) {
    if (!(error instanceof AppError) || error.options.messageKey !== 'stay.errors.roomOccupied') throw error;
    const other = await tx.stay.findFirst({
      where: {
        hotelId: e.hotelId,
        roomId: stay.roomId,
        id: { not: stay.id },
        status: { in: ['reserved', 'in_house', 'expired'] },
        checkInAt: { lt: e.expectedCheckOutAt },
        expectedCheckOutAt: { gt: stay.checkInAt },
      },
      orderBy: { checkInAt: 'asc' },
      select: { id: true },
    });
    return { conflictStayId: other?.id ?? null };
  }
}
