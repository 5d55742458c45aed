import type { ServiceContext } from '../../context';
import type { Tx } from '../../db/transaction';
import { AppError } from '../../errors';
import { systemText } from '../../infra/system-text';
import { appendEntry, loadVisit, openFolio } from './folio';
import { nightSchedule } from './room-nights';

/**
 * The no-show fee (docs/reports.md "The day close"): under the hotel's policy `charge_first_night`, a
 * reservation that becomes a no-show has its first night's booked amount (the reservation's price
 * spread over its booked nights by their rates, as its room charge would have been) posted on its bill
 * as a charge, by the server, whichever way it became a no-show (its job, the sweep, the close). A
 * deposit it holds pays it; what is left on the bill either way (money to hand back, or a fee owed) is
 * for the desk, and the close's checks name it. Returns the fee posted, or 0.
 */
export async function chargeNoShowFee(tx: Tx, ctx: ServiceContext, stay: { id: number; hotelId: number; roomId: number }): Promise<number> {
  const hotel = await tx.hotel.findUniqueOrThrow({ where: { id: stay.hotelId }, select: { noShowPolicy: true, timeZone: true, currency: true } });
  if (hotel.noShowPolicy !== 'charge_first_night') return 0;
  const { visit, first } = await firstNight(tx, stay.hotelId, stay.id, hotel.timeZone);
  if (!first || first.amount <= 0) return 0;
  const poster = { hotelId: stay.hotelId, currency: hotel.currency.trim(), accountId: null };
  try {
    const folio = await openFolio(tx, poster, visit.first.id);
    await appendEntry(tx, poster, {
      kind: 'charge',
      amount: -first.amount,
      method: null,
      note: systemText('orders.notes.noShowFee', { date: first.date }),
      stayId: stay.id,
      roomId: stay.roomId,
      folioId: folio.id,
    });
  } catch (error) {
    // A bill already settled or left owing takes no new charge: the fee is not posted, and the log says so.
    if (!(error instanceof AppError)) throw error;
    ctx.deps.log.warn({ hotelId: stay.hotelId, stayId: stay.id, err: error.message }, 'no-show fee not posted: the bill takes no charge');
    return 0;
  }
  return first.amount;
}

/** A reservation's first night as booked, with its amount (the fee the policy would charge). */
export async function firstNight(tx: Tx, hotelId: number, stayId: number, timeZone: string) {
  const visit = await loadVisit(tx, hotelId, stayId);
  // The nights as booked: a no-show is ended at the instant it became one, not at its booked departure.
  const booked = { ...visit, current: { ...visit.current, checkedOutAt: null } };
  const [first] = await nightSchedule(tx, booked, timeZone, visit.current.priceAmount);
  return { visit, first };
}
