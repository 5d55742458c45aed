import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness';
import { createCustomers, createHotelWithStaff } from '../../test/factories';
import { trpcClient } from '../../test/trpc-client';

let ctx: TestContext;
let api: ReturnType<typeof trpcClient>;

beforeAll(async () => {
  ctx = await createTestContext();
  api = trpcClient(ctx.app);
});
afterAll(() => ctx.close());

/** A live credential of each kind, held by the customer, on a room of the hotel. */
async function giveCredentials(hotelId: number, customerId: number) {
  const { prisma } = ctx.deps;
  const room = await prisma.room.create({ data: { hotelId, name: `R${customerId}` } });
  const validFrom = new Date();
  await prisma.lockPassword.create({
    data: { hotelId, roomId: room.id, customerId, kind: 'custom', holderName: 'guest', code: '123456', validFrom, deliveryState: 'on_lock' },
  });
  const card = await prisma.card.create({ data: { hotelId, cardNumber: `C${customerId}`, kind: 'room' } });
  await prisma.cardGrant.create({ data: { hotelId, cardId: card.id, roomId: room.id, customerId, validFrom, deliveryState: 'pending' } });
  const face = await prisma.face.create({
    data: { hotelId, faceId: `F${customerId}`, note: 'n', imageUrl: 'https://x/y.png', imageSha256: 'a'.repeat(64), customerId },
  });
  await prisma.faceAuthorization.create({ data: { hotelId, faceId: face.id, roomId: room.id, validFrom, deliveryState: 'on_lock' } });
  await prisma.customerSession.create({ data: { hotelId, customerId, tokenHash: `h${customerId}-${Date.now()}`, expiresAt: new Date(Date.now() + 3600_000) } });
}

describe('customer list', () => {
  it('pages the hotel customers, newest first by default', async () => {
    const { hotel, ownerToken } = await createHotelWithStaff(ctx.deps);
    const customers = await createCustomers(ctx.deps, hotel.id, 25);
    const first = await api.query('customer.list', { page: 1, pageSize: 10 }, { token: ownerToken });
    expect(first.data).toMatchObject({ total: 25, page: 1, pageSize: 10 });
    expect(first.data!.items.map((c) => c.id)).toEqual(
      customers
        .slice(-10)
        .reverse()
        .map((c) => c.id),
    );
    const last = await api.query('customer.list', { page: 3, pageSize: 10 }, { token: ownerToken });
    expect(last.data!.items).toHaveLength(5);
    const oldest = await api.query('customer.list', { pageSize: 1, sort: 'oldest' }, { token: ownerToken });
    expect(oldest.data!.items[0]!.id).toBe(customers[0]!.id);
    expect(Object.keys(first.data!.items[0]!).sort()).toEqual(['avatar', 'email', 'frozen', 'frozenAt', 'id', 'mobile', 'nickname', 'registeredAt']);
  });

  it('searches nickname, mobile, e-mail and id, and filters by state', async () => {
    const { hotel, ownerToken } = await createHotelWithStaff(ctx.deps);
    const [a, b] = await createCustomers(ctx.deps, hotel.id, 3, 'Searchable');
    await ctx.deps.prisma.customer.update({ where: { id: b!.id }, data: { nickname: 'Zhang Wei', frozenAt: new Date() } });
    const search = (search: string, state: 'all' | 'active' | 'frozen' = 'all') =>
      api.query('customer.list', { search, state }, { token: ownerToken }).then((r) => r.data!.items.map((c) => c.id));
    expect(await search('zhang')).toEqual([b!.id]);
    expect(await search(a!.mobile!.slice(-6))).toEqual([a!.id]);
    expect(await search(a!.email!.toUpperCase())).toEqual([a!.id]);
    expect(await search(String(a!.id))).toContain(a!.id);
    expect(await search('', 'frozen')).toEqual([b!.id]);
    expect(await search('', 'active')).not.toContain(b!.id);
    expect(await search('no such customer')).toEqual([]);
  });

  it('refuses bad paging with a translated field message', async () => {
    const { ownerToken } = await createHotelWithStaff(ctx.deps);
    const res = await api.query('customer.list', { pageSize: 1000 }, { token: ownerToken, lang: 'zh-CN' });
    expect(res.status).toBe(400);
    expect(res.error?.data.app).toMatchObject({ code: 'VALIDATION', fields: { pageSize: '每页条数不正确' } });
  });

  it('needs a session', async () => {
    expect((await api.query('customer.list', {})).error?.data.app?.errno).toBe(100003);
  });
});

describe('freezing a customer', () => {
  it('freezes, revokes their sessions and queues their credentials for removal, then unfreezes', async () => {
    const { hotel, ownerToken, owner } = await createHotelWithStaff(ctx.deps);
    const [customer] = await createCustomers(ctx.deps, hotel.id, 1);
    await giveCredentials(hotel.id, customer!.id);
    const before = await api.query('customer.get', { id: customer!.id }, { token: ownerToken });
    expect(before.data).toMatchObject({ frozen: false, activeCredentialCount: 3, activeSessionCount: 1 });

    const frozen = await api.mutation('customer.setFrozen', { id: customer!.id, frozen: true }, { token: ownerToken });
    expect(frozen.data).toMatchObject({ id: customer!.id, frozen: true });
    const after = await api.query('customer.get', { id: customer!.id }, { token: ownerToken });
    expect(after.data).toMatchObject({ frozen: true, activeCredentialCount: 0, activeSessionCount: 0 });
    const states = await ctx.deps.prisma.lockPassword.findMany({ where: { customerId: customer!.id }, select: { deliveryState: true } });
    expect(states).toEqual([{ deliveryState: 'removing' }]);

    const unfrozen = await api.mutation('customer.setFrozen', { id: customer!.id, frozen: false }, { token: ownerToken });
    expect(unfrozen.data).toMatchObject({ frozen: false, frozenAt: null });
    const audit = await ctx.deps.prisma.auditLog.findMany({ where: { actorAccountId: owner.id, entityType: 'Customer' }, orderBy: { id: 'asc' } });
    expect(audit.map((a) => [a.action, a.channel])).toEqual([
      ['customer.freeze', 'console'],
      ['customer.unfreeze', 'console'],
    ]);
    expect(audit[0]!.after).toMatchObject({ frozen: true, revoked: { sessions: 1, credentials: 3 } });
  });

  it('is not allowed to staff, who may only look', async () => {
    const { hotel, staffToken } = await createHotelWithStaff(ctx.deps);
    const [customer] = await createCustomers(ctx.deps, hotel.id, 1);
    expect((await api.query('customer.list', {}, { token: staffToken })).data?.total).toBe(1);
    const res = await api.mutation('customer.setFrozen', { id: customer!.id, frozen: true }, { token: staffToken });
    expect(res.status).toBe(403);
    expect(res.error?.data.app).toMatchObject({ code: 'FORBIDDEN', errno: 100004 });
    expect((await api.mutation('customer.delete', { id: customer!.id }, { token: staffToken })).error?.data.app?.code).toBe('FORBIDDEN');
  });
});

describe('deleting a customer', () => {
  it('deletes the customer and revokes their access, keeping credential history', async () => {
    const { hotel, ownerToken } = await createHotelWithStaff(ctx.deps);
    const [customer] = await createCustomers(ctx.deps, hotel.id, 1);
    await giveCredentials(hotel.id, customer!.id);
    expect((await api.mutation('customer.delete', { id: customer!.id }, { token: ownerToken })).status).toBe(200);
    expect(await ctx.deps.prisma.customer.findUnique({ where: { id: customer!.id } })).toBeNull();
    const password = await ctx.deps.prisma.lockPassword.findFirstOrThrow({ where: { hotelId: hotel.id, holderName: 'guest' } });
    expect(password).toMatchObject({ customerId: null, deliveryState: 'removing' });
    expect((await api.query('customer.get', { id: customer!.id }, { token: ownerToken })).error?.data.app?.code).toBe('NOT_FOUND');
  });

  it('keeps a customer with order records, and says to freeze instead', async () => {
    const { hotel, ownerToken } = await createHotelWithStaff(ctx.deps);
    const [customer] = await createCustomers(ctx.deps, hotel.id, 1);
    await ctx.deps.prisma.orderEntry.create({
      data: { hotelId: hotel.id, customerId: customer!.id, kind: 'recharge', method: 'cash', amount: 5000, currency: 'CNY' },
    });
    const res = await api.mutation('customer.delete', { id: customer!.id }, { token: ownerToken, lang: 'en' });
    expect(res.error?.data.app).toMatchObject({ code: 'CONFLICT', message: 'This user has order records and cannot be deleted. Freeze the user instead.' });
    expect(await ctx.deps.prisma.customer.count({ where: { id: customer!.id } })).toBe(1);
  });
});

describe('tenancy', () => {
  it('shows an account of hotel B none of hotel A customers, and refuses to touch them', async () => {
    const a = await createHotelWithStaff(ctx.deps);
    const b = await createHotelWithStaff(ctx.deps);
    const [customerOfA] = await createCustomers(ctx.deps, a.hotel.id, 3, 'OnlyA');
    await createCustomers(ctx.deps, b.hotel.id, 2, 'OnlyB');

    const listB = await api.query('customer.list', { pageSize: 100 }, { token: b.ownerToken });
    expect(listB.data!.total).toBe(2);
    expect(listB.data!.items.every((c) => c.nickname.startsWith('OnlyB'))).toBe(true);
    expect((await api.query('customer.list', { search: 'OnlyA' }, { token: b.ownerToken })).data!.total).toBe(0);
    expect((await api.query('customer.list', { search: String(customerOfA!.id) }, { token: b.ownerToken })).data!.items.map((c) => c.id)).not.toContain(
      customerOfA!.id,
    );

    for (const res of [
      await api.query('customer.get', { id: customerOfA!.id }, { token: b.ownerToken }),
      await api.mutation('customer.setFrozen', { id: customerOfA!.id, frozen: true }, { token: b.ownerToken }),
      await api.mutation('customer.delete', { id: customerOfA!.id }, { token: b.ownerToken }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.error?.data.app?.code).toBe('NOT_FOUND');
    }
    expect(await ctx.deps.prisma.customer.findUniqueOrThrow({ where: { id: customerOfA!.id } })).toMatchObject({ frozenAt: null });
  });
});
