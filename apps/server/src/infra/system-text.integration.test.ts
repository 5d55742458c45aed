import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TLanguageHeader } from '@console/shared';
import { createSession } from '../modules/auth/session.service';
import { createCardKeySet, listCardKeySets, syncCardKeys } from '../modules/cards/card-keys.service';
import { recordDeposit, recordPayment } from '../modules/orders/payments';
import { postRoomCharge } from '../modules/orders/posting';
import { listOrders, listOrdersAfter } from '../modules/orders/order-list';
import { ledgerHotel, stayIn, type Ctx } from '../test/ledger-kit';
import { getFolio, settleFolio } from '../modules/orders/settlement.service';
import { createTestContext, testMeta, type TestContext } from '../test/harness';
import { legacyClient } from '../test/legacy-client';
import { trpcClient } from '../test/trpc-client';
import { SYSTEM_TEXT_KEYS } from './system-text';

/**
 * Issue 17 §5: text the system writes is stored as a code (an i18n key and its parameters) and
 * read in the reader's language on every face, whoever caused it: the notes a settlement writes,
 * the payment taken at a legacy check-out, the name of a key set nobody named. A clerk working in
 * Chinese no longer leaves Chinese notes for an English-speaking manager, an Arabic legacy client
 * or a French export. Rows written before keep their text.
 */
let ctx: TestContext;
let api: ReturnType<typeof trpcClient>;
let ipCounter = 0;
const legacy = (language: string) => legacyClient(ctx.app, ctx.config, { language, ip: `10.91.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}` });

beforeAll(async () => {
  ctx = await createTestContext();
  api = trpcClient(ctx.app);
});
afterAll(() => ctx?.close());

/** The same member, reading or acting in another language. */
const speaking = (by: Ctx, lang: TLanguageHeader): Ctx => ({ ...by, meta: { ...by.meta, lang } });
const t = (lang: TLanguageHeader, key: string, params?: Record<string, unknown>) => ctx.deps.i18n.t(lang, key, params);

async function legacyToken(accountId: number, hotelId: number) {
  return (await createSession(ctx.deps, { accountId, hotelId, kind: 'legacy', meta: testMeta() })).token;
}

describe('notes the system writes on the bill', () => {
  it('are stored as codes when a Chinese-speaking clerk settles, and read in English, Arabic, German and French on every face', async () => {
    const h = await ledgerHotel(ctx);
    const zh = speaking(h.staff, 'zh-CN');
    // Left early (the room charge is recomputed), the deposit kept with a reason, the nights not used refunded.
    const early = await stayIn(zh, h.rooms[0].id, { from: -48, to: 72 });
    await recordDeposit(zh, { stayId: early.id, amount: 20_000, method: 'cash' });
    await postRoomCharge(zh, { stayId: early.id });
    const owed = (await getFolio(zh, { stayId: early.id })).owed;
    if (owed > 0) await recordPayment(zh, { stayId: early.id, amount: owed + 20_000, method: 'alipay' });
    await settleFolio(zh, { stayId: early.id, checkOut: true, deposit: 'keep', depositReason: '台灯坏了', refundMethod: 'cash' });
    // What is owed paid at check-out; a deposit refunded at check-out.
    const paying = await stayIn(zh, h.rooms[1].id, { to: 'next_noon' });
    const due = await getFolio(zh, { stayId: paying.id });
    const owedNow = due.preview?.ifDepositRefunded.owed ?? 0;
    expect(owedNow).toBeGreaterThan(0);
    await settleFolio(zh, { stayId: paying.id, checkOut: true, deposit: 'refund', payment: { amount: owedNow, method: 'cash' } });
    const refunding = await stayIn(zh, h.rooms[2].id, { to: 'next_noon' });
    await recordDeposit(zh, { stayId: refunding.id, amount: 500_000, method: 'cash' });
    await settleFolio(zh, { stayId: refunding.id, checkOut: true, deposit: 'refund', refundMethod: 'cash' });

    // In the table: codes, not Chinese sentences.
    const rows = await ctx.deps.prisma.orderEntry.findMany({
      where: { hotelId: h.hotel.id, noteKey: { not: null } },
      select: { id: true, kind: true, note: true, noteKey: true, noteParams: true },
      orderBy: { id: 'asc' },
    });
    expect(new Set(rows.map((r) => r.noteKey))).toEqual(
      new Set([
        'orders.notes.roomChargeRecomputed',
        'orders.notes.depositKept',
        'orders.notes.checkOutRefund',
        'orders.notes.settlementPayment',
        'orders.notes.depositRefund',
      ]),
    );
    expect(rows.every((r) => r.note === '')).toBe(true);
    expect(rows.find((r) => r.noteKey === 'orders.notes.depositKept')?.noteParams).toEqual({ reason: '台灯坏了' });
    const chinese = /[\u4e00-\u9fff]/;
    const all = await ctx.deps.prisma.orderEntry.findMany({ where: { hotelId: h.hotel.id }, select: { note: true } });
    expect(all.filter((r) => chinese.test(r.note))).toEqual([]);

    const expected = (lang: TLanguageHeader) => new Map(rows.map((r) => [r.id, t(lang, r.noteKey!, (r.noteParams ?? {}) as Record<string, unknown>)]));
    // The service, in English: the clerk's own words stay as typed inside the translated note.
    const english = await listOrders(speaking(h.owner, 'en'), { page: 1, pageSize: 100 });
    const en = expected('en');
    for (const item of english.items.filter((i) => en.has(i.id))) expect(item.note).toBe(en.get(item.id));
    expect(english.items.map((i) => i.note)).toEqual(
      expect.arrayContaining([
        'Deposit kept: 台灯坏了',
        'Paid at check-out',
        'Refunded at check-out',
        'Deposit refunded at check-out',
        'Room charge recomputed',
      ]),
    );

    // tRPC, in German (the request's language).
    const german = await api.query('order.folio', { stayId: early.id }, { token: h.ownerToken, lang: 'de' });
    expect(german.data!.entries.filter((e) => e.kind === 'charge').map((e) => e.note)).toEqual(['Kaution einbehalten: 台灯坏了']);
    expect(german.data!.entries.filter((e) => e.kind === 'correction').every((e) => e.note === 'Zimmerpreis neu berechnet')).toBe(true);

    // Legacy `order/orderList`, an Arabic client (crypto-js envelope).
    const token = await legacyToken(h.ownerId, h.hotel.id);
    const arabic = await legacy('ar').call<{ list: { id: number; note: string }[] }>('order/orderList', { limit: 100 }, { token, language: 'ar' });
    expect(arabic.errno, arabic.errmsg).toBe(0);
    const ar = expected('ar');
    const arabicNotes = arabic.data.list.filter((o) => ar.has(o.id));
    expect(arabicNotes).toHaveLength(rows.length);
    for (const order of arabicNotes) expect(order.note).toBe(ar.get(order.id));
    expect(arabic.data.list.map((o) => o.note)).toContain('دُفع عند المغادرة');

    // An export reads the same list in its own language.
    const french = await listOrdersAfter(speaking(h.owner, 'fr'), {}, null, 100);
    expect(french.map((o) => o.note)).toEqual(expect.arrayContaining(['Caution conservée : 台灯坏了', 'Payé au départ', 'Remboursé au départ']));
  });

  it('keeps the text of rows written before, and the database takes a code or a text, never both', async () => {
    const h = await ledgerHotel(ctx);
    const stay = await stayIn(h.staff, h.rooms[0].id, { to: 'next_noon' });
    const folio = await recordDeposit(h.staff, { stayId: stay.id, amount: 1_000, method: 'cash' });
    const on = { hotelId: h.hotel.id, currency: 'CNY', stayId: stay.id, roomId: h.rooms[0].id, folioId: folio.entry.folioId };
    // A charge written in Chinese before codes existed is shown as it was written.
    const old = await ctx.deps.prisma.orderEntry.create({ data: { ...on, kind: 'charge', amount: -100, note: '退房时付款' }, select: { id: true } });
    const list = await listOrders(speaking(h.owner, 'en'), { page: 1, pageSize: 10 });
    expect(list.items.find((i) => i.id === old.id)?.note).toBe('退房时付款');
    await expect(
      ctx.deps.prisma.orderEntry.create({ data: { ...on, kind: 'charge', amount: -100, note: 'typed', noteKey: 'orders.notes.depositRefund' } }),
    ).rejects.toThrow(/OrderEntry_note_or_key/);
    await expect(ctx.deps.prisma.orderEntry.create({ data: { ...on, kind: 'charge', amount: -100, note: ' ' } })).rejects.toThrow(/OrderEntry_reason/);
    await expect(ctx.deps.prisma.orderEntry.create({ data: { ...on, kind: 'charge', amount: -100, note: '', noteParams: { reason: 'x' } } })).rejects.toThrow(
      /OrderEntry_note_params/,
    );
    // A code alone is a reason.
    const coded = await ctx.deps.prisma.orderEntry.create({
      data: { ...on, kind: 'charge', amount: -100, note: '', noteKey: 'orders.notes.depositKept', noteParams: { reason: 'minibar' } },
      select: { id: true },
    });
    expect((await listOrders(speaking(h.owner, 'ja'), { page: 1, pageSize: 10 })).items.find((i) => i.id === coded.id)?.note).toBe(
      t('ja', 'orders.notes.depositKept', { reason: 'minibar' }),
    );
  });
});

describe("a key set's name nobody typed", () => {
  it('is "Key set n" in the reader\'s language: the first one made by a Chinese legacy client, the next one unnamed on tRPC', async () => {
    const h = await ledgerHotel(ctx);
    // The first key set is made when the hotel's keys are first pushed (legacy, in Chinese).
    const token = await legacyToken(h.ownerId, h.hotel.id);
    const pushed = await legacy('zh-CN').call('room/sendCardEncryptionSyntony', {}, { token, language: 'zh-CN' });
    expect(pushed.errno, pushed.errmsg).toBe(0);
    const first = await ctx.deps.prisma.cardEncryption.findFirstOrThrow({
      where: { hotelId: h.hotel.id },
      select: { name: true, nameKey: true, nameParams: true },
    });
    expect(first).toEqual({ name: '', nameKey: 'cards.keySetName', nameParams: { n: 1 } });

    // Made on tRPC without a name (a blank one is none), by an Arabic-speaking owner.
    const second = await api.mutation('card.createKeySet', { name: '   ' }, { token: h.ownerToken, lang: 'ar' });
    expect(second.data?.name).toBe('مجموعة المفاتيح 2');
    const typed = await api.mutation('card.createKeySet', { name: 'Spring 2027' }, { token: h.ownerToken, lang: 'ar' });
    expect(typed.data?.name).toBe('Spring 2027');

    expect((await listCardKeySets(speaking(h.owner, 'en'))).map((k) => k.name)).toEqual(['Spring 2027', 'Key set 2', 'Key set 1']);
    const english = await api.query('card.keySets', undefined, { token: h.ownerToken, lang: 'de' });
    expect(english.data!.map((k) => k.name)).toEqual(['Spring 2027', 'Schlüsselsatz 2', 'Schlüsselsatz 1']);
    const arabic = await legacy('ar').call<{ list: { name: string }[] } | { name: string }[]>('room/cardEncryptionList', {}, { token, language: 'ar' });
    expect(JSON.stringify(arabic.data)).toContain('مجموعة المفاتيح 1');
    // The legacy protocol still asks for a name when it makes one (its clients always sent one).
    expect(await legacy('en').call('room/cardEncryption', {}, { token, language: 'en' })).toMatchObject({ errno: 100001 });
    // Services called directly name it the same way.
    const third = await createCardKeySet(speaking(h.owner, 'ja'), {});
    expect(third.name).toBe(t('ja', 'cards.keySetName', { n: 4 }));
    expect((await syncCardKeys(speaking(h.owner, 'en'), {})).length).toBe(0);
  });
});

describe('the codes', () => {
  it('are in every locale file', () => {
    for (const lang of ['zh-CN', 'zh-TW', 'en', 'ko', 'de', 'ru-RU', 'es', 'ar', 'pt', 'ja', 'fr', 'it'] as const) {
      for (const key of SYSTEM_TEXT_KEYS) expect(t(lang, key, { reason: 'r', n: 1 }), `${lang} ${key}`).not.toBe(key);
    }
  });
});
