import { ZAccount, ZNewPassword } from '@console/shared';
import type { TPrisma } from './client';
import { hashPassword } from '../modules/auth/password';

export interface CreateOwnerInput {
  hotelName: string;
  account: string;
  password: string;
  nickname?: string;
  timeZone?: string;
  currency?: string;
}

/**
 * Creates a hotel and its owner account in one transaction: how a self-hosted install gets its
 * first sign-in. The account rules are the shared ones; an account that exists is refused.
 */
export async function createHotelWithOwner(prisma: TPrisma, input: CreateOwnerInput) {
  const account = ZAccount.parse(input.account);
  const password = ZNewPassword.parse(input.password);
  const timeZone = input.timeZone ?? 'Asia/Shanghai';
  new Intl.DateTimeFormat('en', { timeZone }); // throws RangeError on an unknown time zone
  const isEmail = account.includes('@');
  const existing = await prisma.account.findUnique({ where: isEmail ? { email: account } : { mobile: account } });
  if (existing) throw new Error(`an account ${account} already exists`);
  const passwordHash = await hashPassword(password);
  return prisma.$transaction(async (tx) => {
    const hotel = await tx.hotel.create({ data: { name: input.hotelName, timeZone, currency: (input.currency ?? 'CNY').toUpperCase() } });
    const owner = await tx.account.create({
      data: { ...(isEmail ? { email: account } : { mobile: account }), nickname: input.nickname ?? input.hotelName, passwordHash },
    });
    await tx.membership.create({ data: { accountId: owner.id, hotelId: hotel.id, role: 'owner', apiKeyAuth: true } });
    await tx.auditLog.create({
      data: { hotelId: hotel.id, actorType: 'anonymous', action: 'hotel.create', entityType: 'Hotel', entityId: String(hotel.id), after: { owner: account } },
    });
    return { hotelId: hotel.id, accountId: owner.id };
  });
}
