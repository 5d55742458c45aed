/**
 * Issue 36 "Taxes", on every face that shows a bill (docs/journal.md "What reads them"): the tax a
 * charge brings and the tax a price includes reach an integrator's JSON API folio (held to its
 * OpenAPI document) and a legacy client's `order/orderList` as they reach the console's bill, and
 * another hotel's key sees none of it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TPermission } from '@console/shared';
import { createSession } from '../auth/session.service';
import { createTestContext, testMeta, type TestContext } from '../../test/harness';
import { jsonApiClient } from '../../test/json-api-client';
import { legacyClient } from '../../test/legacy-client';
import { ledgerHotel, stayIn } from '../../test/ledger-kit';
import { trpcClient } from '../../test/trpc-client';
import { getFolio } from '../orders/settlement.service';
import { recordCharge } from '../orders/posting';
import { setTaxRule } from './tax-rules';

let ctx: TestContext;
let api: Awaited<ReturnType<typeof jsonApiClient>>;
beforeAll(async () => {
  ctx = await createTestContext();
  api = await jsonApiClient(ctx.app);
});
afterAll(() => ctx?.close());

/** A JSON API key of the hotel's owner with `permissions`. */
async function keyOf(h: Awaited<ReturnType<typeof ledgerHotel>>, permissions: TPermission[]) {
  await ctx.deps.prisma.membership.updateMany({ where: { hotelId: h.hotel.id, accountId: h.ownerId }, data: { apiKeyAuth: true } });
  const res = await trpcClient(ctx.app).mutation('apiKey.create', { name: 'PMS', permissions }, { token: h.ownerToken });
  expect(res.status).toBe(200);
  return (res.data as { key: string }).key;
}

/** A hotel taxing its rooms 10 % on top and including 6 % in its extras, a guest in for a night at 200.00 and an extra of 106.00. */
async function taxedBill() {
  const h = await ledgerHotel(ctx);
  await setTaxRule(h.owner, { appliesTo: 'rooms', ratePercent: 10, mode: 'added' });
  await setTaxRule(h.owner, { appliesTo: 'extras', ratePercent: 6, mode: 'included' });
  const stay = await stayIn(h.staff, h.rooms[0].id, { to: 'next_noon' });
  await recordCharge(h.staff, { stayId: stay.id, amount: 10_600, note: 'Minibar', requestId: randomUUID() });
  return { h, stay, bill: await getFolio(h.owner, { stayId: stay.id }) };
}

interface ApiEntry {
  id: number;
  kind: string;
  amount: number;
  tax: boolean;
  taxIncluded: number | null;
}

describe('taxes on every face', () => {
  it("the JSON API's folio carries the tax charge and the tax a price includes, as the console's bill does", async () => {
    const { h, stay, bill } = await taxedBill();
    const key = await keyOf(h, ['stay.manage']);
    const res = await api.get<{ entries: ApiEntry[]; owed: number }>('/stays/{stayId}/folio', { stayId: stay.id }, { key });
    expect(res.status).toBe(200);
    const entries = res.body.entries;
    // The room's night, its 10 % on top as a tax charge, and the extra that includes 6.00 of tax.
    expect(entries.find((e) => e.kind === 'room_charge')).toMatchObject({ amount: -20_000, tax: false, taxIncluded: null });
    expect(entries.filter((e) => e.tax).map((e) => e.amount)).toEqual([-2_000]);
    expect(entries.find((e) => e.kind === 'charge' && !e.tax)).toMatchObject({ amount: -10_600, taxIncluded: 600 });
    expect(res.body.owed).toBe(20_000 + 2_000 + 10_600);
    // The same figures as the console's bill, entry by entry.
    const seen = (list: ApiEntry[]) => list.map((e) => [e.id, e.amount, e.tax, e.taxIncluded]).sort();
    expect(seen(entries)).toEqual(seen(bill.entries as ApiEntry[]));
    expect(res.body.owed).toBe(bill.owed);

    // Another hotel's key is told the stay is not found, and learns nothing of its bill.
    const other = await ledgerHotel(ctx);
    const theirs = await api.get<{ entries?: unknown }>('/stays/{stayId}/folio', { stayId: stay.id }, { key: await keyOf(other, ['stay.manage']) });
    expect(theirs.status).toBe(404);
    expect(theirs.body.entries).toBeUndefined();
  });

  it("a legacy client's order list marks the tax charge and says the tax a charge includes", async () => {
    const { h, stay } = await taxedBill();
    const token = (await createSession(ctx.deps, { accountId: h.ownerId, hotelId: h.hotel.id, kind: 'legacy', meta: testMeta() })).token;
    const legacy = legacyClient(ctx.app, ctx.config, { language: 'en', ip: '10.83.0.1' });
    type Order = { type: string; amount: number; note: string; tax: number; tax_included: number | null };
    const answer = await legacy.call<{ list: Order[] }>('order/orderList', { stay_id: stay.id }, { token, language: 'en' });
    expect(answer.errno, answer.errmsg).toBe(0);
    const list = answer.data!.list;
    expect(list.find((o) => o.type === 'room_charge')).toMatchObject({ amount: -200, tax: 0, tax_included: null });
    expect(list.filter((o) => o.tax === 1)).toEqual([expect.objectContaining({ type: 'charge', amount: -20, note: 'Tax added: 10%' })]);
    expect(list.find((o) => o.type === 'charge' && o.tax === 0)).toMatchObject({ amount: -106, tax_included: 6 });

    // Another hotel's legacy session asking for this stay's orders gets none of them.
    const other = await ledgerHotel(ctx);
    const theirToken = (await createSession(ctx.deps, { accountId: other.ownerId, hotelId: other.hotel.id, kind: 'legacy', meta: testMeta() })).token;
    const theirs = await legacy.call<{ list: Order[] }>('order/orderList', { stay_id: stay.id }, { token: theirToken, language: 'en' });
    expect(theirs.data?.list ?? []).toEqual([]);
  });
});
