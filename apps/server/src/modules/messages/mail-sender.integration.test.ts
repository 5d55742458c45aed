import { randomUUID } from 'node:crypto';
import { startLockSim, type LockSim } from '@console/lock-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SmsSender } from '../../infra/sms';
import { startWorkers } from '../../jobs/workers';
import { createHotelWithStaff, createRooms, uniqueMobile } from '../../test/factories';
import { actorContext, createTestContext, testLockIdBase, type TestContext } from '../../test/harness';
import { pairSimLock, simControl } from '../../test/lock-factories';
import { mailboxOf, startSmtpCapture, type SmtpCapture } from '../../test/smtp-capture';
import { trpcClient } from '../../test/trpc-client';
import { createPassword } from '../credentials/password.service';
import { checkIn } from '../stays/check-in';
import { queueGuestMessages } from './queue';
import { sendAgain } from './stay-messages';

/**
 * Mail as a careful provider sends it (issue 27 §8): the install's SMTP server is never asked to
 * send as an address the install does not own. The envelope sender and From are the install's
 * (SMTP_FROM) unless the hotel's address is on a domain the install allows
 * (SMTP_ALLOWED_SENDER_DOMAINS); the hotel's address is the Reply-To; one-line fields hold one line;
 * a hotel sends at most SMTP_HOTEL_HOURLY_LIMIT e-mails an hour, the rest wait and are sent later;
 * and a message is sent once however many jobs or clicks ask for it at once. Real workers, the lock
 * simulator and a real SMTP server that records each mail's envelope.
 */
const LIMIT = 2;
const INSTALL = 'noreply@console.test';

let smtp: SmtpCapture;
let sim: LockSim;
let ctx: TestContext;
let api: ReturnType<typeof trpcClient>;
let workers: ReturnType<typeof startWorkers>;

const quietSms: SmsSender = { name: 'quiet', async send() {} };

beforeAll(async () => {
  smtp = await startSmtpCapture();
  sim = await startLockSim({ latencyMs: [5, 20], lockIdBase: testLockIdBase() });
  ctx = await createTestContext({
    sim,
    sms: quietSms,
    env: {
      LOCK_DELIVERY_ATTEMPTS: '3',
      LOCK_DELIVERY_BACKOFF_MS: '100',
      SMTP_URL: smtp.url,
      SMTP_FROM: `Smart Lock Console <${INSTALL}>`,
      SMTP_ALLOWED_SENDER_DOMAINS: 'harbour.test, Seaside.Test',
      SMTP_HOTEL_HOURLY_LIMIT: String(LIMIT),
    },
  });
  api = trpcClient(ctx.app);
  workers = startWorkers(ctx.deps, { sweep: false });
});

afterAll(async () => {
  await workers?.close();
  await ctx?.close();
  await sim?.close();
  await smtp?.close();
});

const control = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => simControl<T>(sim, method, path, body);

/** A hotel with one room paired with a new simulated lock. */
async function pairedRoom() {
  const h = await createHotelWithStaff(ctx.deps);
  const { gateway } = await control<{ gateway: { gatewayId: number } }>('POST', '/gateways', {});
  const { lock } = await control<{ lock: { lockId: number } }>('POST', '/locks', { gatewayId: gateway.gatewayId });
  const { rooms } = await createRooms(ctx.deps, h.hotel.id, [`S${lock.lockId}`]);
  await pairSimLock(ctx.deps, h.hotel.id, rooms[0]!.id, lock.lockId);
  return { ...h, room: rooms[0]!, staff: await actorContext(ctx.deps, h.staffToken) };
}

/** A guest checked in with an e-mail address (and an English phone number). */
async function stayOf(d: Awaited<ReturnType<typeof pairedRoom>>) {
  const email = `guest-${randomUUID().slice(0, 8)}@example.org`;
  const stay = await checkIn(d.staff, {
    roomId: d.room.id,
    checkInAt: new Date(Date.now() - 60_000),
    expectedCheckOutAt: new Date(Date.now() + 26 * 3_600_000),
    guests: [{ name: 'Nora Quinn', mobile: `+44 ${uniqueMobile().slice(-10)}`, email }],
    idempotencyKey: randomUUID(),
  });
  return { stay, email };
}

async function until<T>(what: string, read: () => Promise<T | undefined> | T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A code given to the stay and confirmed by the lock. */
async function confirmedCode(d: Awaited<ReturnType<typeof pairedRoom>>, stayId: number, code: string) {
  const created = await createPassword(d.staff, { roomId: d.room.id, stayId, kind: 'custom', code });
  await until(`password ${created.id} on the lock`, async () => {
    const row = await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id: created.id } });
    if (row.deliveryState === 'failed') throw new Error(`password ${created.id} failed: ${row.lastError}`);
    return row.deliveryState === 'on_lock' ? row : undefined;
  });
  return created;
}

const emailsOf = (stayId: number) => ctx.deps.prisma.guestMessage.findMany({ where: { stayId, channel: 'email' }, orderBy: { id: 'asc' } });
const mailsTo = (email: string) => smtp.mails.filter((m) => m.to.includes(email));
/** Waits until the stay's e-mails are `count` and none of them is on its way (queued or being sent). */
const settledEmails = (stayId: number, count: number) =>
  until(`${count} settled e-mails of stay ${stayId}`, async () => {
    const rows = await emailsOf(stayId);
    return rows.length === count && rows.every((r) => r.state !== 'queued' && r.state !== 'sending') ? rows : undefined;
  });

const saveSettings = (token: string, senderName: string, senderEmail: string) =>
  api.raw.mutation('guestMessage.saveSettings', { language: 'en', senderName, senderEmail }, { token });

describe('the sender of a hotel’s e-mail', () => {
  it('is the install (envelope and From) when the hotel’s domain is not allowed; the hotel’s address is the Reply-To', async () => {
    const d = await pairedRoom();
    expect((await saveSettings(d.ownerToken, 'Bank Director', 'director@bank.example')).status).toBe(200);
    const { stay, email } = await stayOf(d);
    await confirmedCode(d, stay.id, '640218');
    await settledEmails(stay.id, 1);
    const [mail] = mailsTo(email);
    expect(mail).toBeDefined();
    expect(mail!.mailFrom).toBe(INSTALL);
    expect(mailboxOf(mail!.header('From'))).toEqual({ name: 'Bank Director', address: INSTALL });
    expect(mailboxOf(mail!.header('Reply-To'))).toEqual({ name: 'Bank Director', address: 'director@bank.example' });
    expect(mail!.headerNames.filter((n) => n === 'from' || n === 'sender')).toEqual(['from']);
    expect(mail!.text).toContain('640218');

    // The settings page says which address guests see, and where their replies go.
    const settings = await api.query('guestMessage.settings', undefined, { token: d.ownerToken });
    expect(settings.data).toMatchObject({
      sender: {
        from: { name: 'Bank Director', address: INSTALL },
        replyTo: { name: 'Bank Director', address: 'director@bank.example' },
        hotelAddressIsFrom: false,
      },
    });
  });

  it('is the hotel’s own address (envelope and From) on a domain the install allows, in any case', async () => {
    const d = await pairedRoom();
    expect((await saveSettings(d.ownerToken, 'Harbour Front Desk', 'Desk@Harbour.Test')).status).toBe(200);
    const { stay, email } = await stayOf(d);
    await confirmedCode(d, stay.id, '731902');
    await settledEmails(stay.id, 1);
    const [mail] = mailsTo(email);
    expect(mail!.mailFrom.toLowerCase()).toBe('desk@harbour.test');
    // nodemailer writes a domain in lower case (as DNS reads it).
    const lower = (m: { name: string; address: string }) => ({ ...m, address: m.address.toLowerCase() });
    expect(lower(mailboxOf(mail!.header('From')))).toEqual({ name: 'Harbour Front Desk', address: 'desk@harbour.test' });
    expect(lower(mailboxOf(mail!.header('Reply-To')))).toEqual({ name: 'Harbour Front Desk', address: 'desk@harbour.test' });
    const settings = await api.query('guestMessage.settings', undefined, { token: d.ownerToken });
    expect(settings.data).toMatchObject({ sender: { from: { address: 'Desk@Harbour.Test' }, hotelAddressIsFrom: true } });

    // A subdomain of an allowed domain is another domain: the install sends, the hotel gets the replies.
    expect((await saveSettings(d.ownerToken, '', 'desk@mail.harbour.test')).status).toBe(200);
    const other = await api.query('guestMessage.settings', undefined, { token: d.ownerToken });
    expect(other.data).toMatchObject({
      sender: { from: { name: d.hotel.name, address: INSTALL }, replyTo: { address: 'desk@mail.harbour.test' }, hotelAddressIsFrom: false },
    });
  });

  it('refuses a line break, a NUL or a lone surrogate in the sender name and a line break in a subject, naming the field', async () => {
    const d = await pairedRoom();
    const cases: [string, RegExp][] = [
      ['Front\r\nBcc: victim@example.com', /one line/],
      ['Front\ndesk', /one line/],
      ['Front\rdesk', /one line/],
      ['Front\u2028desk', /one line/],
      ['Front\tdesk', /one line/],
      ['Front\u0000desk', /control characters/],
      ['Front\ud800desk', /incomplete Unicode character/],
    ];
    for (const [senderName, message] of cases) {
      const res = await saveSettings(d.ownerToken, senderName, 'desk@harbour.test');
      expect(res.status, JSON.stringify(senderName)).toBe(400);
      expect(res.error?.data.app?.fields?.senderName, JSON.stringify(senderName)).toMatch(message);
    }
    const ja = await api.raw.mutation(
      'guestMessage.saveSettings',
      { language: 'ja', senderName: 'A\nB', senderEmail: '' },
      { token: d.ownerToken, lang: 'ja' },
    );
    expect(ja.error?.data.app?.fields?.senderName).toMatch(/\p{Script=Han}|\p{Script=Hiragana}|\p{Script=Katakana}/u);
    const subject = await api.raw.mutation(
      'guestMessage.saveTemplate',
      { channel: 'email', language: 'en', subject: 'Your code\r\nBcc: victim@example.com', body: '{{code}}' },
      { token: d.ownerToken },
    );
    expect(subject.status).toBe(400);
    expect(subject.error?.data.app?.fields?.subject).toMatch(/one line/);
    expect(await ctx.deps.prisma.guestMessageSettings.count({ where: { hotelId: d.hotel.id } })).toBe(0);
    expect(await ctx.deps.prisma.guestMessageTemplate.count({ where: { hotelId: d.hotel.id } })).toBe(0);
  });

  it('never writes a line break into a header, even from a name kept before the rule', async () => {
    const d = await pairedRoom();
    // Written as an older version let them in: a sender name and a room name of two lines.
    await ctx.deps.prisma.guestMessageSettings.create({
      data: { hotelId: d.hotel.id, language: 'en', senderName: 'Front\r\nBcc: victim@example.com', senderEmail: 'desk@bank.example' },
    });
    await ctx.deps.prisma.room.update({ where: { id: d.room.id }, data: { name: `S\r\nBcc: victim@example.com` } });
    const { stay, email } = await stayOf(d);
    await confirmedCode(d, stay.id, '815374');
    await settledEmails(stay.id, 1);
    const [mail] = mailsTo(email);
    expect(mail!.to).toEqual([email]);
    expect(mail!.header('Bcc')).toBe('');
    expect(mailboxOf(mail!.header('From'))).toEqual({ name: 'Front Bcc: victim@example.com', address: INSTALL });
    expect(mailboxOf(mail!.header('Reply-To'))).toEqual({ name: 'Front Bcc: victim@example.com', address: 'desk@bank.example' });
    expect(mail!.subject).toContain('S Bcc: victim@example.com');
    for (const name of ['From', 'Reply-To', 'Subject']) expect(mail!.header(name), name).not.toMatch(/[\r\n\u2028\u2029]/);
  });
});

describe('the hourly e-mail limit of a hotel', () => {
  it('holds a hotel’s e-mails over the limit (said on its log and its settings) while another hotel sends, and sends them once the hour makes room', async () => {
    const a = await pairedRoom();
    const b = await pairedRoom();
    const first = await stayOf(a);
    for (const code of ['502817', '613928', '724039']) await confirmedCode(a, first.stay.id, code);
    const rows = await settledEmails(first.stay.id, 3);
    expect(rows.map((r) => r.state).sort()).toEqual(['held', 'sent', 'sent']);
    expect(mailsTo(first.email)).toHaveLength(LIMIT);
    const held = rows.find((r) => r.state === 'held')!;
    expect(held.heldUntil!.getTime()).toBeGreaterThan(Date.now() + 55 * 60_000);
    expect(held.heldUntil!.getTime()).toBeLessThanOrEqual(Date.now() + 60 * 60_000);
    expect(held.error).toBeNull();

    // The other hotel is not held by the first one's limit.
    const other = await stayOf(b);
    for (const code of ['835140', '946251']) await confirmedCode(b, other.stay.id, code);
    expect((await settledEmails(other.stay.id, 2)).map((r) => r.state)).toEqual(['sent', 'sent']);
    expect(mailsTo(other.email)).toHaveLength(2);

    // The stay's log and the messages page say so.
    const log = await api.query('guestMessage.log', { stayId: first.stay.id }, { token: a.staffToken });
    expect(log.data!.find((m) => m.id === held.id)).toMatchObject({ state: 'held', heldUntil: held.heldUntil!.toISOString() });
    const settings = await api.query('guestMessage.settings', undefined, { token: a.ownerToken });
    expect(settings.data?.mailLimit).toMatchObject({ perHour: LIMIT, sentLastHour: LIMIT, held: 1, nextAt: held.heldUntil!.toISOString() });
    expect((await api.query('guestMessage.settings', undefined, { token: b.ownerToken })).data?.mailLimit).toMatchObject({ held: 0, nextAt: null });

    // An hour later (the hotel's sends of the last hour moved back by an hour), the held e-mail is sent.
    const key = ctx.deps.key('mail-limit', String(a.hotel.id));
    const counted = await ctx.deps.redis.zrange(key, 0, -1, 'WITHSCORES');
    for (let i = 0; i < counted.length; i += 2) await ctx.deps.redis.zadd(key, Number(counted[i + 1]) - 3_600_000, counted[i]!);
    await (await ctx.deps.queues.guestMessage.getJob(`gm-${held.id}`))!.promote();
    await until('the held e-mail sent', async () =>
      (await ctx.deps.prisma.guestMessage.findUniqueOrThrow({ where: { id: held.id } })).state === 'sent' ? true : undefined,
    );
    expect(mailsTo(first.email)).toHaveLength(3);
    expect((await ctx.deps.prisma.guestMessage.findUniqueOrThrow({ where: { id: held.id } })).heldUntil).toBeNull();
  });
});

describe('two identical sends at once', () => {
  it('"send again" twice at once makes one message and one e-mail', async () => {
    const d = await pairedRoom();
    const { stay, email } = await stayOf(d);
    await confirmedCode(d, stay.id, '357146');
    await settledEmails(stay.id, 1);
    const [one, two] = await Promise.all([
      sendAgain(d.staff, { stayId: stay.id, channel: 'email' }),
      sendAgain(d.staff, { stayId: stay.id, channel: 'email' }),
    ]);
    expect(one!.map((m) => m.id)).toEqual(two!.map((m) => m.id));
    const rows = await settledEmails(stay.id, 2);
    expect(rows.map((r) => [r.trigger, r.state])).toEqual([
      ['on_lock', 'sent'],
      ['again', 'sent'],
    ]);
    expect(mailsTo(email)).toHaveLength(2);
  });

  it('a message asked of two jobs at once is sent by one of them', async () => {
    const d = await pairedRoom();
    const { stay, email } = await stayOf(d);
    const password = await confirmedCode(d, stay.id, '468257');
    await settledEmails(stay.id, 1);
    // A slow provider: the first job is still sending when the second one starts.
    smtp.slowFor.set(email, 1_500);
    const [row] = await queueGuestMessages(ctx.deps, {
      hotelId: d.hotel.id,
      stayId: stay.id,
      passwordId: password.id,
      code: '468257',
      language: 'en',
      trigger: 'again',
      messages: [{ channel: 'email', recipient: email }],
    });
    await ctx.deps.queues.guestMessage.add('send', { messageId: row!.id }, { jobId: `gm-${row!.id}-twin`, attempts: 1 });
    await settledEmails(stay.id, 2);
    await new Promise((r) => setTimeout(r, 2_000));
    expect(mailsTo(email)).toHaveLength(2);
    expect((await ctx.deps.prisma.guestMessage.findUniqueOrThrow({ where: { id: row!.id } })).state).toBe('sent');
  });
});
