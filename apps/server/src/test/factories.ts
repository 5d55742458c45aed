import { randomBytes } from 'node:crypto';
import { isTooSimple } from '@console/shared';
import type { Role } from '../generated/prisma/client';
import type { Deps } from '../context';
import { hashPassword } from '../modules/auth/password';
import { createSession } from '../modules/auth/session.service';
import { testMeta } from './harness';

let sequence = 0;
/**
 * A token of this module's copy (each test file has its own) and a counter, apart by a dash: never
 * the same in two files, whether their workers share a process or not. (The process id, the time
 * and the counter written one after the other met again: `Account_email_key` in the whole run.)
 */
const RUN = randomBytes(5).toString('hex');
/**
 * The counter closed by a dash too: no name is the start of another ("Hotel x-1" is the start of
 * "Hotel x-10", and the permission matrix, which looks for one hotel's names in another's answers,
 * found hotel A's in hotel B's).
 */
const unique = () => `${RUN}-${(sequence += 1)}-`;

/**
 * A mobile number no other test has (valid per the mainland rule: 1, then 3-9, then 9 digits), whose last 4, 5 and 6 digits a lock takes as a code (never
 * "too simple": the access rules' phone-digit codes of tests are the rule's, not its fallback's).
 */
export function uniqueMobile(): string {
  for (;;) {
    // The process (its id's last 3 digits) and a counter of its own from a random start: never the same
    // twice in a process (the last 9 digits of time and counters of varying length once met again:
    // Account_mobile_key in CI), and apart from the other test processes'.
    mobileSequence = (mobileSequence + 1) % 1_000_000;
    const mobile = `19${String(process.pid % 1000).padStart(3, '0')}${String(mobileSequence).padStart(6, '0')}`;
    if (![4, 5, 6].some((n) => isTooSimple(mobile.slice(-n)))) return mobile;
  }
}
let mobileSequence = randomBytes(4).readUInt32BE() % 1_000_000;

export const TEST_PASSWORD = 'correct-horse-7';
let passwordHash: Promise<string> | undefined;

export async function createHotel(deps: Deps, name = `Hotel ${unique()}`) {
  return deps.prisma.hotel.create({ data: { name, timeZone: 'Asia/Shanghai' } });
}

export async function createAccount(
  deps: Deps,
  options: { hotelId?: number; role?: Role; password?: string; email?: string; mobile?: string; apiKeyAuth?: boolean } = {},
) {
  passwordHash ??= hashPassword(TEST_PASSWORD);
  const account = await deps.prisma.account.create({
    data: {
      mobile: options.mobile ?? uniqueMobile(),
      email: options.email ?? `user${unique()}@test.local`,
      nickname: `User ${unique()}`,
      passwordHash: options.password ? await hashPassword(options.password) : await passwordHash,
    },
  });
  if (options.hotelId !== undefined) {
    await deps.prisma.membership.create({
      data: { accountId: account.id, hotelId: options.hotelId, role: options.role ?? 'owner', apiKeyAuth: options.apiKeyAuth ?? false },
    });
  }
  return account;
}

export async function createCustomers(deps: Deps, hotelId: number, count: number, prefix = 'Guest') {
  const base = Date.now() - count * 60_000;
  const rows = Array.from({ length: count }, (_, i) => ({
    hotelId,
    nickname: `${prefix} ${i + 1}`,
    mobile: uniqueMobile(),
    email: `${prefix.toLowerCase().replace(/\W/g, '')}${i + 1}-${unique()}@example.com`,
    registeredAt: new Date(base + i * 60_000),
  }));
  await deps.prisma.customer.createMany({ data: rows });
  return deps.prisma.customer.findMany({ where: { hotelId, mobile: { in: rows.map((r) => r.mobile) } }, orderBy: { id: 'asc' } });
}

/** A hotel with an owner and a staff account, each with a web session. */
export async function createHotelWithStaff(deps: Deps) {
  const hotel = await createHotel(deps);
  const owner = await createAccount(deps, { hotelId: hotel.id, role: 'owner' });
  const staff = await createAccount(deps, { hotelId: hotel.id, role: 'staff' });
  const ownerSession = await createSession(deps, { accountId: owner.id, hotelId: hotel.id, kind: 'web', meta: testMeta() });
  const staffSession = await createSession(deps, { accountId: staff.id, hotelId: hotel.id, kind: 'web', meta: testMeta() });
  return { hotel, owner, staff, ownerToken: ownerSession.token, staffToken: staffSession.token };
}

/** Rooms of a hotel, optionally in a new group, each with a usual price of 200.00. */
export async function createRooms(deps: Deps, hotelId: number, names: string[], options: { groupName?: string; usualPrice?: number } = {}) {
  const group = options.groupName ? await deps.prisma.roomGroup.create({ data: { hotelId, name: options.groupName, sort: 1 } }) : null;
  const rooms = [];
  for (const [i, name] of names.entries()) {
    rooms.push(await deps.prisma.room.create({ data: { hotelId, name, groupId: group?.id ?? null, sortOrder: i, usualPrice: options.usualPrice ?? 20_000 } }));
  }
  return { rooms, group };
}

/** A stay written directly (bypassing the service), for tests that need a given state. */
export async function insertStay(
  deps: Deps,
  data: {
    hotelId: number;
    roomId: number;
    checkInAt: Date;
    expectedCheckOutAt: Date;
    status?: 'reserved' | 'in_house' | 'expired' | 'checked_out';
    guestName?: string;
    guestMobile?: string;
    guestIdNumber?: string;
  },
) {
  const stay = await deps.prisma.stay.create({
    data: {
      hotelId: data.hotelId,
      roomId: data.roomId,
      status: data.status ?? 'in_house',
      checkInAt: data.checkInAt,
      expectedCheckOutAt: data.expectedCheckOutAt,
    },
  });
  await deps.prisma.stayGuest.create({
    data: {
      hotelId: data.hotelId,
      stayId: stay.id,
      isPrimary: true,
      name: data.guestName ?? 'Test Guest',
      mobile: data.guestMobile ?? null,
      idNumber: data.guestIdNumber ?? null,
    },
  });
  return stay;
}

export const hours = (n: number) => new Date(Date.now() + n * 3_600_000);

/**
 * An IANA zone (`Etc/GMT±N`, whole hours, no daylight saving) in which the wall clock now shows
 * `hour` o'clock (the minutes are the UTC minutes): tests that depend on the hotel's day (today,
 * tomorrow, midnight) choose their clock this way instead of the hour they happen to run at.
 */
export function zoneAtLocalHour(hour: number, at = new Date()): string {
  let offset = hour - at.getUTCHours();
  if (offset < -12) offset += 24;
  if (offset > 14) offset -= 24;
  // Etc/GMT signs are inverted: Etc/GMT-8 is UTC+8.
  return offset === 0 ? 'Etc/GMT' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}
