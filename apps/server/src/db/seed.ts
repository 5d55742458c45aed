import type { TPrisma } from './client';
import { hashPassword } from '../modules/auth/password';

/** The demo hotel of the quick start. Printed at start; change the passwords in a real install. */
export const DEMO = {
  owner: { mobile: '13800000000', email: 'owner@demo.hotel', password: 'demo1234', nickname: 'Demo Owner' },
  staff: { mobile: '13900000000', email: 'staff@demo.hotel', password: 'staff1234', nickname: 'Demo Staff' },
  hotel: { name: 'Demo Hotel', address: '1 Harbour Road', tel: '+86 21 5555 0100', timeZone: 'Asia/Shanghai', currency: 'CNY' },
  groups: [
    { name: 'Standard', sort: 1, floor: 1, price: 29900 },
    { name: 'Deluxe', sort: 2, floor: 2, price: 45900 },
    { name: 'Suite', sort: 3, floor: 3, price: 88800 },
  ],
  roomsPerGroup: 10,
  customers: 50,
} as const;

const NICKNAMES = ['Li Wei', 'Wang Fang', 'Zhang Min', 'Liu Yang', 'Chen Jie', 'Yang Lei', 'Zhao Jing', 'Huang Tao', 'Zhou Yan', 'Wu Hao'];

/**
 * Creates the demo hotel: 3 room groups, 30 rooms, an owner and a staff account, 50 customers.
 * Idempotent: everything is looked up by its natural key and only what is missing is created,
 * so a second run changes nothing (not even a changed demo password).
 */
export async function seedDemo(prisma: TPrisma): Promise<{ hotelId: number; created: boolean }> {
  const ensureAccount = async (a: { mobile: string; email: string; password: string; nickname: string }) => {
    const existing = await prisma.account.findUnique({ where: { mobile: a.mobile }, select: { id: true } });
    if (existing) return { id: existing.id, created: false };
    const created = await prisma.account.create({
      data: { mobile: a.mobile, email: a.email, nickname: a.nickname, passwordHash: await hashPassword(a.password) },
      select: { id: true },
    });
    return { id: created.id, created: true };
  };
  const owner = await ensureAccount(DEMO.owner);
  const staff = await ensureAccount(DEMO.staff);

  const ownerMembership = await prisma.membership.findFirst({ where: { accountId: owner.id, role: 'owner' }, select: { hotelId: true } });
  const hotelId = ownerMembership?.hotelId ?? (await prisma.hotel.create({ data: DEMO.hotel, select: { id: true } })).id;
  const created = !ownerMembership;

  await prisma.membership.createMany({
    data: [
      { accountId: owner.id, hotelId, role: 'owner', apiKeyAuth: true },
      { accountId: staff.id, hotelId, role: 'staff' },
    ],
    skipDuplicates: true,
  });
  await prisma.roomGroup.createMany({ data: DEMO.groups.map((g) => ({ hotelId, name: g.name, sort: g.sort })), skipDuplicates: true });
  const groups = await prisma.roomGroup.findMany({ where: { hotelId }, select: { id: true, name: true } });
  const groupId = new Map(groups.map((g) => [g.name, g.id]));
  await prisma.room.createMany({
    data: DEMO.groups.flatMap((g) =>
      Array.from({ length: DEMO.roomsPerGroup }, (_, i) => {
        const name = `${g.floor}${String(i + 1).padStart(2, '0')}`;
        return {
          hotelId,
          groupId: groupId.get(g.name) ?? null,
          name,
          sortOrder: g.floor * 100 + i + 1,
          usualPrice: g.price,
          weekendPrice: Math.round(g.price * 1.2),
          depositAmount: 20000,
          bluetoothName: `SL-${name}`,
          lockPower: 100 - ((i * 7) % 60),
        };
      }),
    ),
    skipDuplicates: true,
  });
  const day = 24 * 3600 * 1000;
  const base = Date.UTC(2026, 0, 1, 2, 0, 0);
  await prisma.customer.createMany({
    data: Array.from({ length: DEMO.customers }, (_, i) => ({
      hotelId,
      nickname: `${NICKNAMES[i % NICKNAMES.length]} ${Math.floor(i / NICKNAMES.length) + 1}`,
      mobile: `1500000${String(i + 1).padStart(4, '0')}`,
      email: `guest${i + 1}@example.com`,
      registeredAt: new Date(base + i * 3 * day + (i % 7) * 3_600_000),
    })),
    skipDuplicates: true,
  });
  if (created) await seedFrontDesk(prisma, hotelId);
  return { hotelId, created };
}

/**
 * A lived-in board for the first start: a guest in 102, a reservation for tomorrow in 203, a
 * room waiting for housekeeping (305), one out of order (310), and unlock records of 102.
 * Only when the hotel is created, so running the seed again changes nothing.
 */
async function seedFrontDesk(prisma: TPrisma, hotelId: number) {
  const rooms = new Map((await prisma.room.findMany({ where: { hotelId }, select: { id: true, name: true } })).map((r) => [r.name, r.id]));
  const hour = 3_600_000;
  const now = Date.now();
  const stays = [
    {
      room: '102',
      status: 'in_house' as const,
      checkInAt: new Date(now - 20 * hour),
      expectedCheckOutAt: new Date(now + 28 * hour),
      guest: 'Chen Jie',
      mobile: '15000000005',
    },
    {
      room: '203',
      status: 'reserved' as const,
      checkInAt: new Date(now + 26 * hour),
      expectedCheckOutAt: new Date(now + 70 * hour),
      guest: 'Zhou Yan',
      mobile: '15000000009',
    },
  ];
  for (const s of stays) {
    const roomId = rooms.get(s.room);
    if (!roomId) continue;
    const stay = await prisma.stay.create({
      data: {
        hotelId,
        roomId,
        status: s.status,
        checkInAt: s.checkInAt,
        expectedCheckOutAt: s.expectedCheckOutAt,
        breakfast: true,
        priceAmount: 29_900 * 2,
        depositAmount: 20_000,
      },
    });
    await prisma.stayGuest.create({
      data: { hotelId, stayId: stay.id, isPrimary: true, name: s.guest, mobile: s.mobile, gender: 'unknown', nationality: 'CN' },
    });
  }
  await prisma.room.updateMany({ where: { hotelId, name: '305' }, data: { cleanStatus: 'dirty' } });
  await prisma.room.updateMany({ where: { hotelId, name: '310' }, data: { maintenance: 'out_of_order' } });
  const room102 = rooms.get('102');
  if (room102) {
    await prisma.unlockRecord.createMany({
      data: Array.from({ length: 12 }, (_, i) => ({
        hotelId,
        roomId: room102,
        occurredAt: new Date(now - i * 5 * hour),
        style: (['card', 'password', 'bluetooth', 'face'] as const)[i % 4]!,
        event: i % 6 === 5 ? 'open_refused' : 'opened',
        success: i % 6 !== 5,
        source: 'lock',
        device: 'DEMO-LOCK-102',
        operator: i % 3 === 0 ? 'Wang Fang' : 'Chen Jie',
      })),
    });
  }
}
