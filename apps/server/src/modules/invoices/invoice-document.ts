import { localDate, type TLanguageHeader } from '@console/shared';
import type { TInvoiceDocument } from '@console/shared/dto';
import type { Tx } from '../../db/transaction';
import type { Translator } from '../../infra/i18n';
import { textReader } from '../../infra/system-text';
import { loadVisit, type Visit } from '../orders/folio';

/**
 * What an invoice says (docs/invoices.md), written once when it is issued, its texts in the
 * document's language: the hotel's legal details, the buyer, the stay, the charges standing on the
 * bill (a room charge by the nights it is for, each extra, each tax added), the taxes per rule, the
 * money received and handed back, and the totals. Charges corrected (with their corrections) are
 * left out: the document shows what stands.
 */

type Buyer = TInvoiceDocument['buyer'];

const CHARGE_KINDS = new Set(['room_charge', 'charge']);
const MONEY_KINDS = new Set(['deposit', 'payment', 'refund']);

/** The room the guest had on `date`: that of the last stay of the visit begun on or before it. */
function roomOn(visit: Visit, date: string, timeZone: string): string {
  const stay = visit.stays.filter((s) => localDate(s.checkInAt, timeZone) <= date).at(-1) ?? visit.first;
  return stay.room.name;
}

export async function invoiceDocument(
  tx: Tx,
  i18n: Translator,
  hotelId: number,
  folioId: number,
  language: TLanguageHeader,
  buyer: Buyer,
): Promise<{ document: TInvoiceDocument; total: number }> {
  const t = (key: string, params?: Record<string, unknown>) => i18n.t(language, key, params);
  const read = textReader(i18n, language);
  const [hotel, folio] = await Promise.all([
    tx.hotel.findUniqueOrThrow({ where: { id: hotelId }, select: { name: true, legalName: true, address: true, tel: true, taxId: true, timeZone: true } }),
    tx.folio.findFirstOrThrow({ where: { hotelId, id: folioId }, select: { stayId: true } }),
  ]);
  const visit = await loadVisit(tx, hotelId, folio.stayId);
  const [guest, entries] = await Promise.all([
    tx.stayGuest.findFirst({ where: { hotelId, stayId: visit.current.id }, orderBy: [{ isPrimary: 'desc' }, { id: 'asc' }], select: { name: true } }),
    tx.orderEntry.findMany({
      where: { hotelId, folioId },
      select: {
        id: true,
        kind: true,
        amount: true,
        method: true,
        note: true,
        noteKey: true,
        noteParams: true,
        nights: true,
        taxRuleId: true,
        linkedEntryId: true,
        createdAt: true,
      },
      orderBy: { id: 'asc' },
    }),
  ]);
  const corrected = new Set(entries.filter((e) => e.kind === 'correction').map((e) => e.linkedEntryId));
  const standing = entries.filter((e) => e.kind !== 'correction' && !corrected.has(e.id));
  const dateOf = (at: Date) => localDate(at, hotel.timeZone);

  const taxRows = await tx.$queryRaw<{ entryId: number; ruleId: number | null; tax: bigint }[]>`
    SELECT j."orderEntryId" AS "entryId", l."taxRuleId" AS "ruleId", -sum(l."amount")::bigint AS "tax"
    FROM "JournalEntry" j JOIN "JournalLine" l ON l."journalEntryId" = j."id"
    WHERE j."hotelId" = ${hotelId} AND j."orderEntryId" = ANY(${standing.map((e) => e.id)}::int[]) AND l."account" = 'tax_payable'
    GROUP BY 1, 2`;
  const includedIn = new Map<number, number>();
  for (const row of taxRows) {
    const entry = standing.find((e) => e.id === row.entryId);
    if (entry && entry.taxRuleId === null) includedIn.set(row.entryId, (includedIn.get(row.entryId) ?? 0) + Number(row.tax));
  }

  const lines: TInvoiceDocument['lines'] = [];
  // Room charges by the nights they are for, summed per night over the charges standing (a renewal's
  // or a room change's charge carries the differences of the nights it re-spreads).
  const byNight = new Map<string, number>();
  for (const e of standing.filter((x) => CHARGE_KINDS.has(x.kind))) {
    const nights = e.kind === 'room_charge' ? ((e.nights ?? null) as { date: string; amount: number }[] | null) : null;
    if (nights?.length) {
      for (const n of nights) byNight.set(n.date, (byNight.get(n.date) ?? 0) + n.amount);
      continue;
    }
    const note = read(e.note, e.noteKey, e.noteParams);
    const description =
      e.kind === 'room_charge' ? t('invoices.lines.room', { room: roomOn(visit, dateOf(e.createdAt), hotel.timeZone) }) : note || t(`orders.kinds.${e.kind}`);
    lines.push({ date: dateOf(e.createdAt), description, amount: -e.amount, taxIncluded: includedIn.get(e.id) ?? null, tax: e.taxRuleId !== null });
  }
  const nightLines = [...byNight]
    .filter(([, amount]) => amount !== 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([date, amount]) => ({
      date,
      description: t('invoices.lines.room', { room: roomOn(visit, date, hotel.timeZone) }),
      amount,
      taxIncluded: null,
      tax: false,
    }));
  lines.unshift(...nightLines);

  // The taxes per rule: included in the charges, or added as lines of their own.
  const ruleIds = [...new Set(taxRows.map((r) => r.ruleId).filter((id): id is number => id !== null))];
  const rules = await tx.taxRule.findMany({ where: { hotelId, id: { in: ruleIds } }, select: { id: true, appliesTo: true, mode: true, rateBp: true } });
  const taxes: TInvoiceDocument['taxes'] = rules.map((rule) => {
    const amount = taxRows.filter((r) => r.ruleId === rule.id).reduce((s, r) => s + Number(r.tax), 0);
    const rate = (rule.rateBp ?? 0) / 100;
    const description =
      rule.appliesTo === 'city'
        ? t('invoices.taxes.city')
        : t(`invoices.taxes.${rule.mode === 'added' ? 'added' : 'included'}`, { rate, kind: t(`invoices.taxes.${rule.appliesTo}`) });
    return { description, amount, included: rule.mode === 'included' };
  });

  const payments = standing
    .filter((e) => MONEY_KINDS.has(e.kind))
    .map((e) => ({
      date: dateOf(e.createdAt),
      description: e.method ? `${t(`orders.kinds.${e.kind}`)} · ${t(`orders.methods.${e.method}`)}` : t(`orders.kinds.${e.kind}`),
      amount: e.amount,
    }));
  const charges = lines.reduce((s, l) => s + l.amount, 0);
  const paid = payments.reduce((s, p) => s + p.amount, 0);
  const end = visit.current.checkedOutAt ?? visit.current.expectedCheckOutAt;
  const document: TInvoiceDocument = {
    seller: { name: hotel.name, legalName: hotel.legalName, address: hotel.address, tel: hotel.tel, taxId: hotel.taxId },
    buyer,
    stay: { roomName: visit.current.room.name, guestName: guest?.name ?? '', arrival: visit.first.checkInAt.toISOString(), departure: end.toISOString() },
    lines,
    taxes,
    payments,
    totals: { charges, taxes: taxes.reduce((s, x) => s + x.amount, 0), paid, due: charges - paid },
  };
  return { document, total: charges };
}
