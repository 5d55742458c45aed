/**
 * What a check-in costs the database (issue 36, bench/README §5 "The journal's cost on a check-in"):
 * the statements one check-in sends, counted at the `pg` client. Before the journal a check-in sent
 * 20; the journal's posting (its folio, its room charge spread over the nights, the closed days and the
 * city tax asked in one statement, the rates its price was quoted at reused) keeps it at 19. A statement
 * added on this path shows here first.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness';
import { ledgerHotel } from '../../test/ledger-kit';
import { checkIn } from './check-in';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

/** The statements `run` sends through any `pg` client, by their first words. */
async function statementsOf(run: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const q = args[0] as string | { text?: string };
    sent.push((typeof q === 'string' ? q : (q.text ?? '')).replace(/\s+/g, ' ').trim().slice(0, 80));
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    await run();
  } finally {
    pg.Client.prototype.query = query;
  }
  return sent;
}

describe('a check-in', () => {
  it('sends 19 statements: the journal costs no more of them than the cash book did', async () => {
    const h = await ledgerHotel(ctx, ['301', '302', '303']);
    const at = (roomId: number, i: number) =>
      checkIn(h.staff, {
        roomId,
        checkInAt: new Date(Date.now() - 60_000),
        expectedCheckOutAt: new Date(Date.now() + 26 * 3_600_000),
        guests: [{ name: `Guest ${i}`, mobile: `1370000${String(i).padStart(4, '0')}` }],
        idempotencyKey: randomUUID(),
      });
    // The first of the process warms its caches (the hotel's facts); the next is what a desk pays.
    await at(h.rooms[0].id, 0);
    const sent = await statementsOf(() => at(h.rooms[1].id, 1));
    expect(sent.length, sent.join('\n')).toBe(19);
    expect(sent.filter((s) => s.includes('"usualPrice"'))).toHaveLength(1);
  });
});
