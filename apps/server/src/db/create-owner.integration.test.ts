import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createPrisma, type TPrisma } from './client';
import { createHotelWithOwner } from './create-owner';
import { verifyPassword } from '../modules/auth/password';
import { uniqueMobile } from '../test/factories';

describe('creating a hotel with its owner', () => {
  let prisma: TPrisma;
  beforeAll(() => {
    prisma = createPrisma(inject('databaseUrl'), { max: 2 });
  });
  afterAll(() => prisma.$disconnect());

  it('creates the hotel, the owner account and its membership', async () => {
    const mobile = uniqueMobile();
    const { hotelId, accountId } = await createHotelWithOwner(prisma, {
      hotelName: 'Lakeside Inn',
      account: mobile,
      password: 'first-owner-1',
      timeZone: 'Europe/Berlin',
      currency: 'eur',
    });
    const membership = await prisma.membership.findUniqueOrThrow({
      where: { accountId_hotelId: { accountId, hotelId } },
      include: { hotel: true, account: true },
    });
    expect(membership).toMatchObject({
      role: 'owner',
      apiKeyAuth: true,
      hotel: { name: 'Lakeside Inn', timeZone: 'Europe/Berlin', currency: 'EUR' },
      account: { mobile },
    });
    expect(await verifyPassword(membership.account.passwordHash, 'first-owner-1')).toBe(true);
  });

  it('refuses a bad account, a short password, an unknown time zone and an existing account', async () => {
    const base = { hotelName: 'X', account: uniqueMobile(), password: 'long-enough-1' };
    await expect(createHotelWithOwner(prisma, { ...base, account: '12345' })).rejects.toThrow(/validation\.accountInvalid/);
    await expect(createHotelWithOwner(prisma, { ...base, password: 'short' })).rejects.toThrow(/validation\.newPasswordLength/);
    await expect(createHotelWithOwner(prisma, { ...base, timeZone: 'Mars/Olympus' })).rejects.toThrow(RangeError);
    await createHotelWithOwner(prisma, base);
    await expect(createHotelWithOwner(prisma, base)).rejects.toThrow(/already exists/);
  });
});
