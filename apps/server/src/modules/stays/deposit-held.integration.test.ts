/**
 * Issue 36 §5: the deposit a list shows is the one the folio holds (the ledger's), not the amount
 * the reservation was made with. Today's arrivals, the stay list, the guest page and the stay as the
 * arrive dialog reads it all say what is left of the deposit after a refund or a correction.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDate } from '@console/shared';
import { createTestContext, type TestContext } from '../../test/harness';
import { ledgerHotel, stayIn } from '../../test/ledger-kit';
import { correctEntry, refundEntry } from '../orders/refunds';
import { getFolio } from '../orders/settlement.service';
import { listArrivals } from './arrivals';
import { getGuest } from './guests';
import { getStay, listStays } from './stay-list';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

describe('the deposit shown for a reservation', () => {
  it('is what its folio holds: less a refund, nothing once corrected as never received, on every list', async () => {
    const h = await ledgerHotel(ctx);
    const reserved = await stayIn(h.staff, h.rooms[0].id, { from: 48, to: 72, deposit: 10_000 });
    const date = localDate(new Date(reserved.checkInAt), h.staff.actor.timeZone);
    const shown = async () => {
      const arrival = (await listArrivals(h.staff, { date })).expected.find((s) => s.id === reserved.id)!;
      const listed = (await listStays(h.staff, { page: 1, pageSize: 20, roomId: h.rooms[0].id })).items.find((s) => s.id === reserved.id)!;
      const guestId = reserved.guests[0]!.id;
      return [
        arrival.bill.depositHeld,
        listed.bill.depositHeld,
        (await getGuest(h.staff, { guestId })).stay.bill.depositHeld,
        (await getStay(h.staff, { stayId: reserved.id })).bill.depositHeld,
      ];
    };
    expect(await shown()).toEqual([10_000, 10_000, 10_000, 10_000]);

    const deposit = (await getFolio(h.staff, { stayId: reserved.id })).entries.find((e) => e.kind === 'deposit')!;
    await refundEntry(h.owner, { entryId: deposit.id, amount: 4_000, reason: 'Part back', method: 'cash' });
    expect(await shown()).toEqual([6_000, 6_000, 6_000, 6_000]);
    expect((await getFolio(h.staff, { stayId: reserved.id })).depositHeld).toBe(6_000);

    // A manager's correction of the deposit as never received, after its refund was taken back first.
    const refund = (await getFolio(h.staff, { stayId: reserved.id })).entries.find((e) => e.kind === 'refund')!;
    await correctEntry(h.owner, { entryId: refund.id, reason: 'Refund entered twice' });
    await correctEntry(h.owner, { entryId: deposit.id, reason: 'Never received' });
    expect(await shown()).toEqual([0, 0, 0, 0]);
    // The reservation still says what it was made with; no list shows it as held.
    expect((await getStay(h.staff, { stayId: reserved.id })).depositAmount).toBe(10_000);
  });
});
