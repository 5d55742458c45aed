import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobContext } from '../../context';
import { createHotelWithStaff, createRooms, hours, insertStay } from '../../test/factories';
import { createTestContext, type TestContext } from '../../test/harness';
import { startSmtpCapture, type SmtpCapture } from '../../test/smtp-capture';
import { alertManagersOfArrivals } from './arrival-readiness';

/**
 * The managers told of arrivals without a key (issue 27, docs/access-rules.md "Arrivals not
 * ready"): one e-mail per hotel to its owners and administrators with an address, naming each
 * arrival once, in the hotel's message language, from the install's sender; another hotel's
 * arrivals never in it.
 */
let ctx: TestContext;
let smtp: SmtpCapture;
const INSTALL = 'console@install.test';

beforeAll(async () => {
  smtp = await startSmtpCapture();
  ctx = await createTestContext({ env: { SMTP_URL: smtp.url, SMTP_FROM: `Smart Lock Console <${INSTALL}>` } });
});
afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
});

async function hotelWithArrival(guestName: string) {
  const h = await createHotelWithStaff(ctx.deps);
  const email = `owner-${randomUUID().slice(0, 8)}@harbour.test`;
  await ctx.deps.prisma.account.update({ where: { id: h.owner.id }, data: { email } });
  const { rooms } = await createRooms(ctx.deps, h.hotel.id, [`A${randomUUID().slice(0, 5)}`]);
  const room = rooms[0]!;
  const stay = await insertStay(ctx.deps, {
    hotelId: h.hotel.id,
    roomId: room.id,
    checkInAt: hours(3),
    expectedCheckOutAt: hours(27),
    guestName,
    status: 'reserved',
  });
  // The rule issued its code; the lock's gateway refused it.
  await ctx.deps.prisma.stay.update({ where: { id: stay.id }, data: { accessIssuedAt: new Date() } });
  await ctx.deps.prisma.lockPassword.create({
    data: {
      hotelId: h.hotel.id,
      roomId: room.id,
      stayId: stay.id,
      kind: 'custom',
      code: '482913',
      holderName: guestName,
      validFrom: hours(2),
      deliveryState: 'failed',
      lastError: 'gateway_offline',
      attempts: 3,
    },
  });
  return { ...h, room, stay, email };
}

describe('arrivals without a key, told to the managers', () => {
  it('sends each hotel one e-mail naming its arrivals once, to its managers only, from the install', async () => {
    const a = await hotelWithArrival('Ana Silva');
    const b = await hotelWithArrival('Li Wei');
    const job = jobContext(ctx.deps, 'stay.sweep', randomUUID());
    expect(await alertManagersOfArrivals(job, new Date(), { hotelId: a.hotel.id })).toBe(1);
    const mails = smtp.mails.filter((m) => m.to.includes(a.email));
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail!.mailFrom).toBe(INSTALL);
    expect(mail!.subject).toContain(a.hotel.name);
    expect(mail!.text).toContain(a.room.name);
    expect(mail!.text).toContain('Ana Silva');
    expect(mail!.text).not.toContain('Li Wei');
    // Said once: the next sweep sends nothing more for it.
    expect(await alertManagersOfArrivals(job, new Date(), { hotelId: a.hotel.id })).toBe(0);
    expect(smtp.mails.filter((m) => m.to.includes(a.email))).toHaveLength(1);
    // The other hotel's managers hear of their own arrival only.
    expect(await alertManagersOfArrivals(job, new Date(), { hotelId: b.hotel.id })).toBe(1);
    const theirs = smtp.mails.filter((m) => m.to.includes(b.email));
    expect(theirs).toHaveLength(1);
    expect(theirs[0]!.text).toContain('Li Wei');
    expect(theirs[0]!.to).not.toContain(a.email);
  });

  it('tells nothing of an arrival whose key is on the lock, or that is days away', async () => {
    const c = await hotelWithArrival('Ok Guest');
    await ctx.deps.prisma.lockPassword.updateMany({ where: { stayId: c.stay.id }, data: { deliveryState: 'on_lock', lastError: null } });
    const far = await insertStay(ctx.deps, {
      hotelId: c.hotel.id,
      roomId: c.room.id,
      checkInAt: hours(72),
      expectedCheckOutAt: hours(90),
      guestName: 'Far Guest',
      status: 'reserved',
    });
    await ctx.deps.prisma.stay.update({ where: { id: far.id }, data: { accessIssuedAt: new Date() } });
    expect(await alertManagersOfArrivals(jobContext(ctx.deps, 'stay.sweep', randomUUID()), new Date(), { hotelId: c.hotel.id })).toBe(0);
    expect(smtp.mails.filter((m) => m.to.includes(c.email))).toHaveLength(0);
  });
});
