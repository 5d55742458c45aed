import type { Tx } from '../../db/transaction';
import type { AuthedContext } from '../../context';
import { spreadByWeights } from '../orders/room-nights';
import { quoteStay } from '../price/price.service';

/**
 * What a reservation moved to other dates or another room costs (issue 36, docs/timeline.md): the
 * booked rate belongs to the reservation, so `kept` is what it costs unless the clerk chooses to
 * price it again (`quoted`: the new nights in the new room at today's rates).
 *
 * Kept: the booked price spread over the booked nights as their rates weigh them; the moved stay
 * keeps those amounts, in order, for as many nights as were booked (the same number of nights: the
 * same price, whatever the room or the dates); nights beyond those booked are priced at today's
 * rates in the new room; nights fewer take their booked amounts with them.
 */
export async function reservationMovePrices(
  db: Tx | AuthedContext['deps']['prisma'],
  timeZone: string,
  booked: { roomId: number; checkInAt: Date; expectedCheckOutAt: Date; priceAmount: number },
  moved: { roomId: number; checkInAt: Date; expectedCheckOutAt: Date },
): Promise<{ kept: number; quoted: number }> {
  const [before, after] = await Promise.all([
    quoteStay(db, booked.roomId, timeZone, booked.checkInAt, booked.expectedCheckOutAt),
    quoteStay(db, moved.roomId, timeZone, moved.checkInAt, moved.expectedCheckOutAt),
  ]);
  const bookedNights = spreadByWeights(
    booked.priceAmount,
    before.nights.map((n) => n.price),
  );
  const count = after.nights.length;
  const kept =
    count <= bookedNights.length
      ? bookedNights.slice(0, count).reduce((sum, amount) => sum + amount, 0)
      : booked.priceAmount + after.nights.slice(bookedNights.length).reduce((sum, n) => sum + n.price, 0);
  return { kept, quoted: after.total };
}
