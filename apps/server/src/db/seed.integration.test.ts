import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createPrisma, type TPrisma } from './client';
import { applyMigrations } from './migrate';
import { createScratchDatabase } from './scratch-database';
import { DEMO, seedDemo } from './seed';

describe('demo seed', () => {
  let db: Awaited<ReturnType<typeof createScratchDatabase>>;
  let prisma: TPrisma;
  beforeAll(async () => {
    db = await createScratchDatabase(inject('adminDatabaseUrl'), 'seed');
    await applyMigrations(db.url);
    prisma = createPrisma(db.url, { max: 2 });
  });
  afterAll(async () => {
    await prisma.$disconnect();
    await db.drop();
  });

  const snapshot = async () => ({
    hotels: await prisma.hotel.findMany({ orderBy: { id: 'asc' } }),
    accounts: await prisma.account.findMany({ orderBy: { id: 'asc' } }),
    memberships: await prisma.membership.findMany({ orderBy: { id: 'asc' } }),
    groups: await prisma.roomGroup.findMany({ orderBy: { id: 'asc' } }),
    rooms: await prisma.room.findMany({ orderBy: { id: 'asc' } }),
    customers: await prisma.customer.findMany({ orderBy: { id: 'asc' } }),
  });

  it('creates one hotel with 3 groups, 30 rooms, an owner, a staff account and 50 customers', async () => {
    const first = await seedDemo(prisma);
    expect(first.created).toBe(true);
    const s = await snapshot();
    expect(s.hotels).toHaveLength(1);
    expect(s.groups).toHaveLength(3);
    expect(s.rooms).toHaveLength(30);
    expect(s.customers).toHaveLength(DEMO.customers);
    expect(s.memberships.map((m) => m.role).sort()).toEqual(['owner', 'staff']);
    expect(s.rooms.every((r) => r.hotelId === first.hotelId && r.groupId !== null && r.usualPrice > 0)).toBe(true);
  });

  it('changes nothing when run again', async () => {
    const before = await snapshot();
    const second = await seedDemo(prisma);
    expect(second.created).toBe(false);
    expect(await snapshot()).toEqual(before);
  });
});
