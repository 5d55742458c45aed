import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHotelWithStaff } from '../test/factories';
import { createTestContext, type TestContext } from '../test/harness';
import { afterCommit, recordEvent } from './events';
import { transaction } from './transaction';

/**
 * The work a write asks to follow its commit (issue 26 §1, docs/events.md "After the commit"):
 * it runs once the transaction committed and before `transaction()` returns, never for a rolled-back
 * write nor for a failed attempt that was retried, once per key, and a failing one does not undo
 * the write. Outside `transaction()` it is refused (it would never run).
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

describe('work after the commit', () => {
  it('runs after the commit, sees the committed row, once per key; never after a rollback', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const seen: string[] = [];
    const name = `After ${Date.now()}`;
    const result = await transaction(ctx.deps, async (tx) => {
      await tx.hotel.update({ where: { id: h.hotel.id }, data: { name } });
      await recordEvent(tx, { hotelId: h.hotel.id, kind: 'room.changed' });
      const look = async () => {
        // Another connection: it sees the change only once it is committed.
        const row = await ctx.deps.prisma.hotel.findUniqueOrThrow({ where: { id: h.hotel.id }, select: { name: true } });
        seen.push(row.name);
      };
      afterCommit(tx, 'look', look);
      afterCommit(tx, 'look', look);
      afterCommit(tx, 'second', async () => void seen.push('second'));
      seen.push('in the transaction');
      return 'done';
    });
    expect(result).toBe('done');
    expect(seen).toEqual(['in the transaction', name, 'second']);

    const after: string[] = [];
    await expect(
      transaction(ctx.deps, async (tx) => {
        await tx.hotel.update({ where: { id: h.hotel.id }, data: { name: 'Rolled back' } });
        afterCommit(tx, 'never', async () => void after.push('ran'));
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(after).toEqual([]);
    expect((await ctx.deps.prisma.hotel.findUniqueOrThrow({ where: { id: h.hotel.id } })).name).toBe(name);
  });

  it('drops what a failed attempt asked when the transaction is retried, and a failing work leaves the write committed', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const ran: number[] = [];
    let attempt = 0;
    await transaction(ctx.deps, async (tx) => {
      attempt += 1;
      const mine = attempt;
      afterCommit(tx, 'attempt', async () => void ran.push(mine));
      // A serialization failure on the first attempt: transaction() runs it again.
      if (attempt === 1) throw Object.assign(new Error('could not serialize access'), { code: '40001', severity: 'ERROR' });
    });
    expect(attempt).toBe(2);
    expect(ran).toEqual([2]);

    await transaction(ctx.deps, async (tx) => {
      await tx.hotel.update({ where: { id: h.hotel.id }, data: { tel: '+86 1' } });
      afterCommit(tx, 'fails', async () => {
        throw new Error('lock cloud away');
      });
    });
    expect((await ctx.deps.prisma.hotel.findUniqueOrThrow({ where: { id: h.hotel.id } })).tel).toBe('+86 1');
  });

  it('is refused outside transaction()', async () => {
    await expect(ctx.deps.prisma.$transaction(async (tx) => afterCommit(tx, 'x', async () => undefined))).rejects.toThrow(/outside transaction/);
  });
});
