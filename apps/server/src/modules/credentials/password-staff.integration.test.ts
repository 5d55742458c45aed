import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness';
import { createAccount, createHotelWithStaff } from '../../test/factories';
import { trpcClient } from '../../test/trpc-client';

let ctx: TestContext;
let api: ReturnType<typeof trpcClient>;

beforeAll(async () => {
  ctx = await createTestContext();
  api = trpcClient(ctx.app);
});
afterAll(() => ctx.close());

describe('password.staff', () => {
  it("lists the hotel's own members, without frozen accounts, and never another hotel's", async () => {
    const a = await createHotelWithStaff(ctx.deps);
    const b = await createHotelWithStaff(ctx.deps);
    const frozen = await createAccount(ctx.deps, { hotelId: a.hotel.id, role: 'staff' });
    await ctx.deps.prisma.account.update({ where: { id: frozen.id }, data: { frozenAt: new Date() } });

    const listed = (await api.query('password.staff', undefined, { token: a.staffToken })).data!;
    expect(listed.items.map((m) => m.accountId).sort((x, y) => x - y)).toEqual([a.owner.id, a.staff.id].sort((x, y) => x - y));
    expect(listed.items.find((m) => m.accountId === a.owner.id)).toMatchObject({ nickname: a.owner.nickname, mobile: a.owner.mobile, role: 'owner' });

    const other = (await api.query('password.staff', undefined, { token: b.ownerToken })).data!;
    expect(other.items.map((m) => m.accountId)).not.toContain(a.owner.id);
    expect(other.items.map((m) => m.accountId)).not.toContain(a.staff.id);
  });
});
