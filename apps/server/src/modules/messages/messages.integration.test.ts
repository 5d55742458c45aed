import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { startLockSim, type LockSim } from '@console/lock-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SmsMessage, SmsSender } from '../../infra/sms';
import { startWorkers } from '../../jobs/workers';
import { createHotelWithStaff, createRooms, uniqueMobile } from '../../test/factories';
import { actorContext, createTestContext, testLockIdBase, type TestContext } from '../../test/harness';
import { pairSimLock, simControl } from '../../test/lock-factories';
import { startSmtpCapture, type SmtpCapture } from '../../test/smtp-capture';
import { trpcClient } from '../../test/trpc-client';
import type { AppError } from '../../errors';
import { createPassword, retryPassword } from '../credentials/password.service';
import { checkIn } from '../stays/check-in';
import { tellGuestOfPassword } from './on-lock';
import { sendAgain, stayMessages } from './stay-messages';
import { saveTemplate } from './templates';

/**
 * Guest messages end to end (issue 20 §3): the real delivery engine against apps/lock-sim, the real
 * BullMQ workers, a real SMTP server (test/smtp-capture.ts: the nodemailer project's smtp-server, on
 * a free port) whose received mails are read back, and an SMS sender that keeps what it was given.
 */
const smsSent: SmsMessage[] = [];
let smtp: SmtpCapture;
let sim: LockSim;
let ctx: TestContext;
let workers: ReturnType<typeof startWorkers>;
let serverUrl: string;

const recordingSms: SmsSender = {
  name: 'recording',
  async send(message) {
    smsSent.push(message);
  },
};

const control = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => simControl<T>(sim, method, path, body);

async function pairedRoom() {
  const h = await createHotelWithStaff(ctx.deps);
  const { gateway } = await control<{ gateway: { gatewayId: number } }>('POST', '/gateways', {});
  const { lock } = await control<{ lock: { lockId: number } }>('POST', '/locks', { gatewayId: gateway.gatewayId });
  const { rooms } = await createRooms(ctx.deps, h.hotel.id, [`M${lock.lockId}`]);
  await pairSimLock(ctx.deps, h.hotel.id, rooms[0]!.id, lock.lockId);
  const staff = await actorContext(ctx.deps, h.staffToken);
  const owner = await actorContext(ctx.deps, h.ownerToken);
  return { ...h, room: rooms[0]!, lockId: String(lock.lockId), staff, owner };
}

/** A stay of a Japanese guest (+81) with an e-mail address. */
async function stayOf(d: Awaited<ReturnType<typeof pairedRoom>>, email = `guest-${randomUUID().slice(0, 8)}@example.jp`) {
  const mobile = `+81 ${uniqueMobile().slice(-10)}`;
  const stay = await checkIn(d.staff, {
    roomId: d.room.id,
    checkInAt: new Date(Date.now() - 60_000),
    expectedCheckOutAt: new Date(Date.now() + 26 * 3_600_000),
    guests: [{ name: 'Sato Hanako', mobile, email }],
    idempotencyKey: randomUUID(),
  });
  return { stay, mobile, email };
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

async function waitForPassword(id: number, states: string[]) {
  return until(`password ${id} in ${states.join('/')}`, async () => {
    const row = await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id } });
    return states.includes(row.deliveryState) ? row : undefined;
  });
}

async function messagesOf(stayId: number) {
  return ctx.deps.prisma.guestMessage.findMany({ where: { stayId }, orderBy: { id: 'asc' } });
}

/** Waits until every message of the stay has left the queue (queued, or being sent). */
async function settled(stayId: number, count: number) {
  return until(`${count} settled messages of stay ${stayId}`, async () => {
    const rows = await messagesOf(stayId);
    return rows.length === count && rows.every((r) => r.state !== 'queued' && r.state !== 'sending') ? rows : undefined;
  });
}

beforeAll(async () => {
  smtp = await startSmtpCapture();
  sim = await startLockSim({ latencyMs: [5, 20], lockIdBase: testLockIdBase() });
  ctx = await createTestContext({
    sim,
    sms: recordingSms,
    env: {
      LOCK_DELIVERY_ATTEMPTS: '3',
      LOCK_DELIVERY_BACKOFF_MS: '100',
      SMTP_URL: smtp.url,
      SMTP_FROM: 'noreply@console.test',
      PUBLIC_URL: 'https://hotel.example.test',
    },
  });
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  serverUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  workers = startWorkers(ctx.deps, { sweep: false });
});

afterAll(async () => {
  await workers?.close();
  await ctx?.close();
  await sim?.close();
  await smtp?.close();
});

describe('guest messages', () => {
  it('sends one e-mail and one SMS with the code in the guest language once the lock confirms it, and never again for the same code', async () => {
    const d = await pairedRoom();
    const { stay, mobile, email } = await stayOf(d);
    const created = await createPassword(d.staff, { roomId: d.room.id, stayId: stay.id, kind: 'custom', code: '604127' });
    const onLock = await waitForPassword(created.id, ['on_lock', 'failed']);
    expect(onLock.deliveryState).toBe('on_lock');

    const rows = await settled(stay.id, 2);
    expect(rows.map((r) => [r.channel, r.state, r.language, r.trigger])).toEqual([
      ['sms', 'sent', 'ja', 'on_lock'],
      ['email', 'sent', 'ja', 'on_lock'],
    ]);
    const mail = smtp.mails.filter((m) => m.to.includes(email));
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toContain(d.room.name);
    expect(mail[0]!.text).toContain('604127');
    expect(mail[0]!.text).toContain('暗証番号');
    expect(mail[0]!.raw).toMatch(/^From: .*noreply@console\.test/m);
    // The mobile as the stay keeps it (the check-in form's spaces removed).
    expect(rows[0]!.recipient.replace(/\s/g, '')).toBe(mobile.replace(/\s/g, ''));
    const sms = smsSent.filter((s) => s.to === rows[0]!.recipient);
    expect(sms).toHaveLength(1);
    expect(sms[0]!.text).toContain('604127');
    expect(sms[0]!.text).toContain('暗証番号');

    // The same code confirmed again (a re-delivery, a validity change) tells nobody again.
    expect(await tellGuestOfPassword(ctx.deps, created.id, onLock.version)).toBe(0);
    expect(await messagesOf(stay.id)).toHaveLength(2);

    // The log on the stay, as the desk reads it.
    const log = await stayMessages(d.staff, { stayId: stay.id });
    expect(log.map((l) => l.state)).toEqual(['sent', 'sent']);
  });

  it('sends nothing while the lock has not confirmed the code, and tells the guest once it has', async () => {
    const d = await pairedRoom();
    await control('PATCH', `/locks/${d.lockId}`, { online: false });
    const { stay, email } = await stayOf(d);
    const created = await createPassword(d.staff, { roomId: d.room.id, stayId: stay.id, kind: 'custom', code: '391570' });
    expect(await waitForPassword(created.id, ['failed', 'on_lock'])).toMatchObject({ deliveryState: 'failed', lastError: 'lock_offline' });
    expect(await messagesOf(stay.id)).toEqual([]);
    expect(smtp.mails.filter((m) => m.to.includes(email))).toEqual([]);

    await control('PATCH', `/locks/${d.lockId}`, { online: true });
    await retryPassword(d.staff, { id: created.id });
    await waitForPassword(created.id, ['on_lock']);
    const rows = await settled(stay.id, 2);
    expect(rows.every((r) => r.state === 'sent')).toBe(true);
    expect(smtp.mails.filter((m) => m.to.includes(email)).map((m) => m.text.includes('391570'))).toEqual([true]);
  });

  it('logs an e-mail the SMTP server refuses as failed with its answer, and "send again" sends it', async () => {
    const d = await pairedRoom();
    const { stay, email } = await stayOf(d);
    smtp.refuse = true;
    try {
      const created = await createPassword(d.staff, { roomId: d.room.id, stayId: stay.id, kind: 'custom', code: '825063' });
      await waitForPassword(created.id, ['on_lock']);
      const rows = await settled(stay.id, 2);
      const mailRow = rows.find((r) => r.channel === 'email')!;
      expect(mailRow).toMatchObject({ state: 'failed', error: 'smtp_refused' });
      expect(mailRow.errorDetail).toContain('550');
      expect(rows.find((r) => r.channel === 'sms')!.state).toBe('sent');
    } finally {
      smtp.refuse = false;
    }
    expect(smtp.mails.filter((m) => m.to.includes(email))).toEqual([]);

    const again = await sendAgain(d.staff, { stayId: stay.id, channel: 'email' });
    expect(again).toHaveLength(1);
    expect(again[0]).toMatchObject({ channel: 'email', trigger: 'again' });
    // On its way: queued, or already claimed by the worker that sends it.
    expect(['queued', 'sending']).toContain(again[0]!.state);
    const rows = await settled(stay.id, 3);
    expect(rows[2]).toMatchObject({ channel: 'email', trigger: 'again', state: 'sent' });
    const received = smtp.mails.filter((m) => m.to.includes(email));
    expect(received).toHaveLength(1);
    expect(received[0]!.text).toContain('825063');
    const audit = await ctx.deps.prisma.auditLog.findFirst({ where: { hotelId: d.hotel.id, action: 'guestMessage.sendAgain', entityId: String(stay.id) } });
    expect(audit).not.toBeNull();

    // A few times per stay, then "too many".
    const codes: string[] = [];
    for (let i = 0; i < 6; i++) {
      try {
        await sendAgain(d.staff, { stayId: stay.id, channel: 'sms' });
        codes.push('ok');
      } catch (error) {
        codes.push((error as AppError).code);
      }
    }
    expect(codes.slice(0, 4)).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(codes.at(-1)).toBe('TOO_MANY_ATTEMPTS');
  });

  it("refuses another hotel's stay: its log and send again are not found", async () => {
    const a = await pairedRoom();
    const { stay } = await stayOf(a);
    const b = await createHotelWithStaff(ctx.deps);
    const other = await actorContext(ctx.deps, b.ownerToken);
    await expect(stayMessages(other, { stayId: stay.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(sendAgain(other, { stayId: stay.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const api = trpcClient(ctx.app);
    expect((await api.query('guestMessage.log', { stayId: stay.id }, { token: b.ownerToken })).error?.data.code).toBe('NOT_FOUND');
    expect((await api.mutation('guestMessage.sendAgain', { stayId: stay.id }, { token: b.ownerToken })).error?.data.code).toBe('NOT_FOUND');
  });

  it("carries the guest key page link (absolute under PUBLIC_URL): the e-mail's link opens the stay's page with its code", async () => {
    const d = await pairedRoom();
    await saveTemplate(d.owner, {
      channel: 'email',
      language: 'ja',
      subject: '{{hotel}} {{room}}',
      body: '{{guest}} 様\n暗証番号 {{code}}\n鍵のページ: {{keyPageLink}}\n',
    });
    const { stay, email } = await stayOf(d);
    const created = await createPassword(d.staff, { roomId: d.room.id, stayId: stay.id, kind: 'custom', code: '731864' });
    await waitForPassword(created.id, ['on_lock']);
    await settled(stay.id, 2);
    const mail = smtp.mails.find((m) => m.to.includes(email));
    const link = /鍵のページ: (\S+)/.exec(mail?.text ?? '')?.[1] ?? '';
    expect(link).toMatch(/^https:\/\/hotel\.example\.test\/k\/[A-Za-z0-9_-]{43}$/);
    // Opened as the install's proxy would hand it to the server: the page of this stay, with the code.
    const token = new URL(link).pathname.slice('/k/'.length);
    const response = await fetch(`${serverUrl}/trpc/keyPage.view?input=${encodeURIComponent(JSON.stringify({ token }))}`);
    expect(response.status).toBe(200);
    const view = ((await response.json()) as { result: { data: { room: { name: string }; codes: { code: string }[]; language: string } } }).result.data;
    expect(view).toMatchObject({ room: { name: d.room.name }, language: 'ja' });
    expect(view.codes.map((c) => c.code)).toEqual(['731864']);
    // The SMS of the same stay names the same link (one live link per visit).
    expect(await ctx.deps.prisma.keyLink.count({ where: { hotelId: d.hotel.id, revokedAt: null } })).toBe(1);
  });

  it("the product's default texts carry the key page link; a hotel's own saved template is sent as saved, without it", async () => {
    const d = await pairedRoom();
    await saveTemplate(d.owner, { channel: 'sms', language: 'ja', body: '{{hotel}} {{room}} 暗証番号 {{code}}' });
    const { stay, email } = await stayOf(d);
    const created = await createPassword(d.staff, { roomId: d.room.id, stayId: stay.id, kind: 'custom', code: '508273' });
    await waitForPassword(created.id, ['on_lock']);
    const rows = await settled(stay.id, 2);
    const link = /https:\/\/hotel\.example\.test\/k\/[A-Za-z0-9_-]{43}/;
    // The e-mail is the product's Japanese default: the link on its own line, under its label.
    const mail = smtp.mails.find((m) => m.to.includes(email));
    expect(mail?.text).toContain('508273');
    expect(mail?.text).toMatch(new RegExp(`お部屋の鍵（オンライン。[^\\n]*）：${link.source}`));
    // The SMS follows the hotel's own text, unchanged by the new defaults.
    const sms = smsSent.filter((s) => s.to === rows.find((r) => r.channel === 'sms')!.recipient);
    expect(sms.map((s) => s.text)).toEqual([`${d.hotel.name} ${d.room.name} 暗証番号 508273`]);
    expect(await ctx.deps.prisma.guestMessageTemplate.findMany({ where: { hotelId: d.hotel.id }, select: { channel: true, body: true } })).toEqual([
      { channel: 'sms', body: '{{hotel}} {{room}} 暗証番号 {{code}}' },
    ]);
  });

  it('refuses a template with an unknown variable, naming it in the request language, and saves a good one that is then used', async () => {
    const d = await pairedRoom();
    const api = trpcClient(ctx.app);
    const bad = await api.mutation(
      'guestMessage.saveTemplate',
      { channel: 'sms', language: 'ja', body: 'Code {{code}} for {{roomNumber}}' },
      { token: d.ownerToken, lang: 'en' },
    );
    expect(bad.status).toBe(400);
    expect(bad.error?.message).toContain('variables that do not exist');
    expect(bad.error?.message).toContain('{{roomNumber}}');
    await expect(saveTemplate(d.owner, { channel: 'email', language: 'ja', subject: '{{nope}}', body: '{{code}}' })).rejects.toMatchObject({
      code: 'VALIDATION',
      options: { details: { unknownVariables: ['nope'] } },
    });
    // Staff may not change templates.
    expect(
      (await api.mutation('guestMessage.saveTemplate', { channel: 'sms', language: 'ja', body: '{{code}}' }, { token: d.staffToken })).error?.data.code,
    ).toBe('FORBIDDEN');
    expect(await ctx.deps.prisma.guestMessageTemplate.count({ where: { hotelId: d.hotel.id } })).toBe(0);

    const saved = await api.mutation(
      'guestMessage.saveTemplate',
      { channel: 'sms', language: 'ja', body: 'ようこそ {{guest}} 様。ドアの番号 {{code}}' },
      { token: d.ownerToken },
    );
    expect(saved.data).toMatchObject({ isDefault: false });
    const { stay } = await stayOf(d, '');
    const created = await createPassword(d.staff, { roomId: d.room.id, stayId: stay.id, kind: 'custom', code: '472918' });
    await waitForPassword(created.id, ['on_lock']);
    const [only] = await settled(stay.id, 1);
    expect(smsSent.filter((s) => s.to === only!.recipient).map((s) => s.text)).toEqual(['ようこそ Sato Hanako 様。ドアの番号 472918']);

    const reset = await api.mutation('guestMessage.resetTemplate', { channel: 'sms', language: 'ja' }, { token: d.ownerToken });
    expect(reset.data).toMatchObject({ isDefault: true });
    expect(await ctx.deps.prisma.auditLog.count({ where: { hotelId: d.hotel.id, action: { startsWith: 'guestMessage.template.' } } })).toBe(2);
  });

  it('refuses hostile text (NUL, lone surrogates) in a template and in the sender', async () => {
    const d = await pairedRoom();
    const api = trpcClient(ctx.app);
    for (const body of ['Code {{code}}\u0000', 'Code {{code}} \ud800', 'Code {{code}} \udc00']) {
      const res = await api.mutation('guestMessage.saveTemplate', { channel: 'sms', language: 'en', body }, { token: d.ownerToken });
      expect(res.status).toBe(400);
      expect(res.error?.data.app?.fields?.body).toMatch(/control characters|incomplete Unicode character/);
    }
    const sender = await api.mutation(
      'guestMessage.saveSettings',
      { language: 'en', senderName: 'Front \ud800 desk', senderEmail: '' },
      { token: d.ownerToken },
    );
    expect(sender.status).toBe(400);
    expect(await ctx.deps.prisma.guestMessageTemplate.count({ where: { hotelId: d.hotel.id } })).toBe(0);
    expect(await ctx.deps.prisma.guestMessageSettings.count({ where: { hotelId: d.hotel.id } })).toBe(0);
  });
});
