/**
 * The cashier's close as a cashier supervisor expects it (issue 36 §7, docs/orders.md "Cashier
 * shifts"): a count that differs from the ledger's, on any way of paying, closes only with a note;
 * a manager's correction of a clerk's payment comes out of what the clerk's open drawer is expected
 * to hold, and a correction after the clerk's close belongs to no drawer; the close says what it
 * leaves in the drawer (the rest goes to the safe), and the next shift takes that drawer over: a
 * float counted otherwise opens only with why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness';
import { ledgerHotel, shiftLine as line, refusal, stayIn } from '../../test/ledger-kit';
import { recordPayment } from './payments';
import { correctEntry } from './refunds';
import { closeShift, currentShift, getShift, openShift, shiftHandover } from './shifts';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('the close of a cashier shift', () => {
  it('needs a note when a count differs, on any way of paying, and none when every count is what the ledger expects', async () => {
    const h = await ledgerHotel(ctx);
    const stay = await stayIn(h.staff, h.rooms[0].id);
    const shift = await openShift(h.staff, { openingFloat: 10_000 });
    await recordPayment(h.staff, { stayId: stay.id, amount: 5_000, method: 'wechat' });

    const noNote = await refusal(closeShift(h.staff, { shiftId: shift.id, counted: { cash: 9_000, wechat: 5_000 } }));
    expect(noNote).toMatchObject({ code: 'VALIDATION', key: 'shifts.validation.noteRequired', fields: { note: 'shifts.validation.noteRequired' } });
    expect(await refusal(closeShift(h.staff, { shiftId: shift.id, counted: { cash: 9_000, wechat: 5_000 }, note: '   ' }))).toMatchObject({
      key: 'shifts.validation.noteRequired',
    });
    // 10.00 over in cash and 10.00 short by WeChat add up to nothing, and are still two differences.
    expect(await refusal(closeShift(h.staff, { shiftId: shift.id, counted: { cash: 11_000, wechat: 4_000 } }))).toMatchObject({
      key: 'shifts.validation.noteRequired',
    });
    // Money counted by a way the shift never took is a difference too.
    expect(await refusal(closeShift(h.staff, { shiftId: shift.id, counted: { cash: 10_000, wechat: 5_000, alipay: 100 } }))).toMatchObject({
      key: 'shifts.validation.noteRequired',
    });
    // Refused, the shift is still open and unchanged.
    expect((await currentShift(h.staff))?.id).toBe(shift.id);

    const closed = await closeShift(h.staff, { shiftId: shift.id, counted: { cash: 9_000, wechat: 5_000 }, note: 'A 10.00 note given as change twice' });
    expect(closed).toMatchObject({ difference: -1_000, note: 'A 10.00 note given as change twice' });

    // Counted as expected: closed without a word.
    const next = await openShift(h.staff, { openingFloat: 9_000 });
    expect(await closeShift(h.staff, { shiftId: next.id, counted: { cash: 9_000 } })).toMatchObject({ difference: 0, note: '' });
  });

  it('takes a manager’s correction of a clerk’s payment out of the clerk’s open drawer, and out of no drawer once it is closed', async () => {
    const h = await ledgerHotel(ctx);
    const stay = await stayIn(h.staff, h.rooms[0].id);
    const clerks = await openShift(h.staff, { openingFloat: 0 });
    const managers = await openShift(h.owner, { openingFloat: 0 });
    const paid = await recordPayment(h.staff, { stayId: stay.id, amount: 1_000, method: 'cash' });
    expect(line((await currentShift(h.staff))!, 'cash')).toMatchObject({ expected: 1_000 });

    // The manager finds the payment was never received: the clerk's drawer no longer expects it,
    // and the manager's drawer, which never held it, is unchanged.
    await correctEntry(h.owner, { entryId: paid.entry.id, reason: 'Never received' });
    expect(line((await currentShift(h.staff))!, 'cash')).toMatchObject({ expected: 0 });
    expect(line((await currentShift(h.owner))!, 'cash')).toMatchObject({ expected: 0 });
    expect((await closeShift(h.staff, { shiftId: clerks.id, counted: { cash: 0 } })).difference).toBe(0);

    // After the clerk's close, a correction of a payment of that shift belongs to no drawer: the
    // closed shift is final and the manager's drawer never held the money.
    const again = await openShift(h.staff, { openingFloat: 0 });
    const late = await recordPayment(h.staff, { stayId: stay.id, amount: 2_000, method: 'cash' });
    const short = await closeShift(h.staff, { shiftId: again.id, counted: { cash: 0 }, note: 'The guest paid nothing' });
    expect(short.difference).toBe(-2_000);
    const correction = await correctEntry(h.owner, { entryId: late.entry.id, reason: 'Never received' });
    expect((await ctx.deps.prisma.orderEntry.findUniqueOrThrow({ where: { id: correction.entry.id } })).shiftId).toBeNull();
    expect(line((await currentShift(h.owner))!, 'cash')).toMatchObject({ expected: 0 });
    expect((await getShift(h.staff, { shiftId: again.id })).expected).toBe(2_000);
    expect(managers.id).not.toBe(clerks.id);
  });

  it('hands the drawer over: the close leaves some cash for the next shift and drops the rest in the safe; a float counted otherwise needs why', async () => {
    const h = await ledgerHotel(ctx);
    const stay = await stayIn(h.staff, h.rooms[0].id);
    // A hotel's first shift takes over no drawer.
    expect(await shiftHandover(h.staff)).toBeNull();
    const first = await openShift(h.staff, { openingFloat: 20_000 });
    expect(first).toMatchObject({ handedOver: null, openingNote: '' });
    await recordPayment(h.staff, { stayId: stay.id, amount: 30_000, method: 'cash' });

    // Not more than was counted can be left in the drawer.
    const tooMuch = await refusal(closeShift(h.staff, { shiftId: first.id, counted: { cash: 50_000 }, leftInDrawer: 50_001 }));
    expect(tooMuch).toMatchObject({ code: 'ZOD', key: expect.stringContaining('shifts.validation.leftMoreThanCounted') });
    const closed = await closeShift(h.staff, { shiftId: first.id, counted: { cash: 50_000 }, leftInDrawer: 20_000 });
    expect(closed).toMatchObject({ leftInDrawer: 20_000, toSafe: 30_000, difference: 0 });

    // The next shift, whoever's (the desk has one drawer), is told what was left, and by whom.
    const handover = await shiftHandover(h.owner);
    expect(handover).toMatchObject({ shiftId: first.id, leftInDrawer: 20_000, operator: { id: h.staffId } });
    const short = await refusal(openShift(h.owner, { openingFloat: 19_000 }));
    expect(short).toMatchObject({ code: 'VALIDATION', key: 'shifts.validation.floatNoteRequired', fields: { note: 'shifts.validation.floatNoteRequired' } });
    expect(await currentShift(h.owner)).toBeNull();
    const second = await openShift(h.owner, { openingFloat: 19_000, note: 'A 10.00 note missing from the drawer' });
    expect(second).toMatchObject({ handedOver: { shiftId: first.id, leftInDrawer: 20_000 }, openingNote: 'A 10.00 note missing from the drawer' });
    const audit = await ctx.deps.prisma.auditLog.findFirstOrThrow({ where: { hotelId: h.hotel.id, action: 'order.shiftOpen', entityId: String(second.id) } });
    expect(audit.after).toMatchObject({ handedOverFromId: first.id, leftInDrawer: 20_000, openingFloat: 19_000 });

    // A close that does not say what it left (a legacy client's) hands nothing over: the drawer
    // taken over stays the last one said.
    await closeShift(h.owner, { shiftId: second.id, counted: { cash: 19_000 } });
    expect((await shiftHandover(h.staff))?.shiftId).toBe(first.id);
    // The float counted as it was left needs no word; the database refuses a handover on an open shift.
    const third = await openShift(h.staff, { openingFloat: 20_000 });
    expect(third).toMatchObject({ handedOver: { shiftId: first.id }, openingNote: '' });
    await expect(ctx.deps.prisma.cashierShift.update({ where: { id: third.id }, data: { leftInDrawer: 1 } })).rejects.toThrow(
      /CashierShift_leftInDrawer_check/,
    );
  });
});
