import { openShiftFor, openShiftOfEntry } from './shifts';
import { lockLedgerDayShared } from '../../db/ledger-day-lock';
import { fromMinor, type TEventKind, type TPaymentMethod, type TOrderEntryKind } from '@console/shared';
import type { Prisma } from '../../generated/prisma/client';
import type { Actor, AuthedContext } from '../../context';
import type { TPrisma } from '../../db/client';
import { databaseConstraint } from '../../db/errors';
import type { Tx } from '../../db/transaction';
import { AppError } from '../../errors';
import { textColumns, type StoredText } from '../../infra/system-text';
import { recordAudit } from '../audit/audit.service';
import { loadRates } from '../price/price.service';
import { nightsOf, priceNight } from '../price/pricing';
import { isActive } from '../base/stay-dto';
import { ledgerFacts, owedAndDueBack, type LedgerLine } from './ledger-facts';
import { recordEvent } from '../../db/events';

/**
 * The building blocks of the ledger's use cases: the stays of a visit and its folio, the room
 * charge a stay owes, entries as every face shows them, the scope of entries an actor may see,
 * and the database's ledger rules turned into the errors a user reads.
 */

type Db = TPrisma | Tx;

// ---------------------------------------------------------------------------------------------
// Visits and folios

/** The columns of a stay its visit is made of (`VisitStay` less its room's name). */
export const visitStayColumns = {
  id: true,
  roomId: true,
  status: true,
  checkInAt: true,
  expectedCheckOutAt: true,
  checkedOutAt: true,
  priceAmount: true,
  depositAmount: true,
  movedFromStayId: true,
} as const satisfies Prisma.StaySelect;
const visitStaySelect = { ...visitStayColumns, room: { select: { name: true } } } satisfies Prisma.StaySelect;
export type VisitStay = Prisma.StayGetPayload<{ select: typeof visitStaySelect }>;

/** The stays of one guest's visit, first to current: a room change ends a stay and continues it in another. */
export interface Visit {
  first: VisitStay;
  current: VisitStay;
  stays: VisitStay[];
}

/** The visit of a stay (the caller has checked the stay is in the actor's scope). */
export async function loadVisit(db: Db, hotelId: number, stayId: number): Promise<Visit> {
  const { visitStayId } = await db.stay.findFirstOrThrow({ where: { id: stayId, hotelId }, select: { visitStayId: true } });
  // Every stay names its visit's first (set by the database: trigger Stay_visit); a visit moves forward only, so id order is its order.
  const stays = await db.stay.findMany({ where: { hotelId, visitStayId }, select: visitStaySelect, orderBy: { id: 'asc' } });
  return { first: stays[0]!, current: stays.at(-1)!, stays };
}

export interface FolioRow {
  id: number;
  currency: string;
  settledAt: Date | null;
  /** Left owing at check-out: it takes only payments of what is owed. */
  owedAt: Date | null;
}

export const folioSettled = () => new AppError('CONFLICT', { messageKey: 'orders.errors.folioSettled' });
export const folioOwing = () => new AppError('CONFLICT', { messageKey: 'orders.errors.folioOwing' });

/** Who writes entries: a member at the desk, or the server itself (a job: no account). */
export interface Poster {
  hotelId: number;
  currency: string;
  accountId: number | null;
  /** The hotel's time zone when the poster knows it (a member's actor does): spares reading the hotel again. */
  timeZone?: string;
}

/** What may be written on the folio: anything (an open one), or a payment (one left owing takes payments too). */
type FolioUse = 'any' | 'payment';

function checkFolioUse(folio: FolioRow, use: FolioUse) {
  if (folio.settledAt) throw folioSettled();
  if (folio.owedAt && use !== 'payment') throw folioOwing();
}

/**
 * The folio of a visit, made when its first entry is written, and locked for the rest of the
 * transaction: every write to one folio queues behind the others (and a settlement behind them).
 * Refused when it is settled, or kept in another currency than the hotel's now.
 */
export async function openFolio(tx: Tx, poster: Pick<Actor, 'hotelId' | 'currency'>, firstStayId: number, use: FolioUse = 'any'): Promise<FolioRow> {
  await tx.$executeRaw`INSERT INTO "Folio" ("hotelId", "stayId", "currency") VALUES (${poster.hotelId}, ${firstStayId}, ${poster.currency}) ON CONFLICT ("hotelId", "stayId") DO NOTHING`;
  const [folio] = await tx.$queryRaw<FolioRow[]>`
    SELECT "id", "currency", "settledAt", "owedAt" FROM "Folio" WHERE "hotelId" = ${poster.hotelId} AND "stayId" = ${firstStayId} FOR NO KEY UPDATE`;
  if (!folio) throw new AppError('CONFLICT', { messageKey: 'errors.CHANGED_MEANWHILE' });
  checkFolioUse(folio, use);
  if (folio.currency.trim() !== poster.currency)
    throw new AppError('CONFLICT', { messageKey: 'orders.errors.currencyChanged', params: { currency: folio.currency.trim() } });
  return folio;
}

/**
 * A visit's folio made now, when it has none: it has no entries, and its row, written by this
 * transaction, is held until the commit as `openFolio`'s lock would hold it. Null when the visit has
 * one already (made at the same moment by another write): then `openFolio`.
 */
export async function createFolio(tx: Tx, poster: Pick<Actor, 'hotelId' | 'currency'>, firstStayId: number): Promise<FolioRow | null> {
  const [folio] = await tx.$queryRaw<FolioRow[]>`
    INSERT INTO "Folio" ("hotelId", "stayId", "currency") VALUES (${poster.hotelId}, ${firstStayId}, ${poster.currency})
    ON CONFLICT ("hotelId", "stayId") DO NOTHING RETURNING "id", "currency", "settledAt", "owedAt"`;
  return folio ?? null;
}

/** Locks an existing folio by id for the rest of the transaction; refused when settled (or left owing, but for a payment). */
export async function lockFolio(tx: Tx, hotelId: number, folioId: number, use: FolioUse = 'any'): Promise<FolioRow> {
  const [folio] = await tx.$queryRaw<
    FolioRow[]
  >`SELECT "id", "currency", "settledAt", "owedAt" FROM "Folio" WHERE "hotelId" = ${hotelId} AND "id" = ${folioId} FOR NO KEY UPDATE`;
  if (!folio) throw new AppError('NOT_FOUND', { messageKey: 'orders.errors.entryNotFound' });
  checkFolioUse(folio, use);
  return folio;
}

// ---------------------------------------------------------------------------------------------
// The room charge

export interface RoomChargeDue {
  /** The stay's price: what was agreed at check-in, with renewals and room changes. */
  full: number;
  /** What the visit owes for the room when the guest leaves at `departureAt`. */
  due: number;
  departureAt: Date;
  /** Left before the expected check-out date: the nights not used are taken off. */
  early: boolean;
  /** The nights not used, priced by the pricing function. */
  unusedNights: { date: string; price: number }[];
}

/**
 * What a visit owes for its room(s) when the guest leaves at `departure` (the current stay's
 * check-out, or now): the current stay's price, which carries the whole visit's (room changes add
 * the difference, renewals the added nights), less the nights not used when the guest leaves before
 * the expected check-out date. Those nights are priced by the pricing function (docs/pricing.md),
 * so a stay priced by it costs exactly what the pricing function says of the nights it used. A
 * reservation cancelled before it began owes nothing.
 */
export async function roomChargeDue(db: Db, timeZone: string, visit: Visit, now: Date): Promise<RoomChargeDue> {
  const stay = visit.current;
  const departureAt = stay.checkedOutAt ?? now;
  const full = stay.priceAmount;
  // A reservation that never began (cancelled, or its guest never came) owes nothing for the room: the
  // desk decides what its deposit pays (kept with a reason at settlement, e.g. as a no-show fee).
  if (stay.status === 'ended' || stay.status === 'no_show' || (isActive(stay.status) && departureAt <= stay.checkInAt)) {
    return { full, due: 0, departureAt, early: false, unusedNights: [] };
  }
  if (departureAt >= stay.expectedCheckOutAt) return { full, due: full, departureAt, early: false, unusedNights: [] };
  const used = new Set(nightsOf(stay.checkInAt, departureAt, timeZone));
  const unused = nightsOf(stay.checkInAt, stay.expectedCheckOutAt, timeZone).filter((date) => !used.has(date));
  if (unused.length === 0) return { full, due: full, departureAt, early: false, unusedNights: [] };
  const rates = await loadRates(db, stay.roomId, timeZone, departureAt, stay.expectedCheckOutAt);
  const unusedNights = unused.map((date) => ({ date, price: priceNight(date, rates).price }));
  const credit = unusedNights.reduce((sum, n) => sum + n.price, 0);
  return { full, due: Math.max(0, full - credit), departureAt, early: true, unusedNights };
}

// ---------------------------------------------------------------------------------------------
// Money in messages, and the database's rules as errors

export function formatMoney(minor: number, currency: string, lang: string): string {
  try {
    return new Intl.NumberFormat(lang, { style: 'currency', currency }).format(fromMinor(minor, currency));
  } catch {
    return `${fromMinor(minor, currency)} ${currency}`;
  }
}

/** The ledger's database rules (migration 20261123100000_orders_ledger), as the errors a user reads. */
const RULE_ERRORS: Record<string, string> = {
  OrderEntry_folio_open: 'orders.errors.folioSettled',
  OrderEntry_folio_owing: 'orders.errors.folioOwing',
  OrderEntry_owing_overpaid: 'orders.errors.paymentAboveOwed',
  Folio_settled_is_final: 'orders.errors.folioSettled',
  OrderEntry_refund_within_payment: 'orders.errors.refundExceedsPayment',
  OrderEntry_refund_of_payment: 'orders.errors.notRefundable',
  OrderEntry_correction_unrefunded: 'orders.errors.correctRefundsFirst',
  OrderEntry_correction_reverses: 'orders.errors.cannotCorrectCorrection',
  OrderEntry_one_correction_key: 'orders.errors.alreadyCorrected',
  OrderEntry_balance_covers: 'orders.errors.balanceTooLow',
};

/** Turns a refusal of the ledger's database rules into a CONFLICT; anything else is thrown as it was. */
export function ledgerRuleError(error: unknown): unknown {
  const found = databaseConstraint(error);
  const constraint = found?.constraint ?? '';
  const key =
    RULE_ERRORS[constraint] ??
    (found?.code === '23505' && constraint.includes('OrderEntry_one_correction_key') ? RULE_ERRORS.OrderEntry_one_correction_key : undefined);
  return key ? new AppError('CONFLICT', { messageKey: key, cause: error }) : error;
}

/** Summary of a folio's entries: the balance and what it means for the guest. */
export function folioFigures(lines: readonly LedgerLine[]) {
  const facts = ledgerFacts(lines);
  return {
    balance: facts.balance,
    ...owedAndDueBack(facts.balance),
    depositHeld: facts.depositHeld,
    roomChargePosted: facts.roomChargePosted,
    totals: facts.totals,
  };
}

type NewEntry = {
  kind: TOrderEntryKind;
  amount: number;
  method: TPaymentMethod | null;
  /** Typed (a clerk's reason), or written by the system (a code, translated when read). */
  note: StoredText;
  stayId?: number | null;
  roomId?: number | null;
  customerId?: number | null;
  folioId?: number | null;
  linkedEntryId?: number | null;
  idempotencyKey?: string | null;
  /** A room charge's nights (room-nights.ts); without them the journal spreads it evenly over the visit's nights. */
  nights?: { date: string; amount: number }[];
  /** A tax charge: the rule that levied it (city-tax.ts). */
  taxRuleId?: number | null;
};

/** Appends one entry (by `poster`: the actor, or the server itself); the database's rules become user errors. */
export async function appendEntry(tx: Tx, poster: Poster, entry: NewEntry): Promise<number> {
  const note = textColumns(entry.note);
  try {
    // Dated once no day close is computing (db/ledger-day-lock.ts): an entry never lands in a day already closed.
    await lockLedgerDayShared(tx, poster.hotelId);
    const createdAt = new Date();
    // Money that changed hands belongs to the poster's open cashier shift, if one is open; a
    // correction undoes its entry where that entry was: in its shift while it is open, else in none (shifts.ts).
    const shiftId =
      entry.method === null
        ? null
        : entry.kind === 'correction' && entry.linkedEntryId
          ? await openShiftOfEntry(tx, poster.hotelId, entry.linkedEntryId)
          : poster.accountId !== null
            ? await openShiftFor(tx, poster.hotelId, poster.accountId)
            : null;
    const row = await tx.orderEntry.create({
      data: {
        createdAt,
        shiftId,
        hotelId: poster.hotelId,
        currency: poster.currency,
        createdByAccountId: poster.accountId,
        kind: entry.kind,
        amount: entry.amount,
        method: entry.method,
        note: note.text,
        noteKey: note.key,
        noteParams: note.params,
        stayId: entry.stayId ?? null,
        roomId: entry.roomId ?? null,
        customerId: entry.customerId ?? null,
        folioId: entry.folioId ?? null,
        linkedEntryId: entry.linkedEntryId ?? null,
        idempotencyKey: entry.idempotencyKey ?? null,
        nights: entry.nights,
        taxRuleId: entry.taxRuleId ?? null,
      },
      select: { id: true },
    });
    // Every entry of the ledger is a change of money on every screen that shows it (docs/events.md).
    await recordEvent(tx, {
      hotelId: poster.hotelId,
      kind: EVENT_OF_ENTRY[entry.kind],
      // A stay's entry names its room (a member limited to some rooms receives only theirs).
      roomIds: [entry.roomId ?? (entry.stayId ? (await tx.stay.findUnique({ where: { id: entry.stayId }, select: { roomId: true } }))?.roomId : null)],
      stayId: entry.stayId ?? undefined,
      customerId: entry.customerId ?? undefined,
      orderId: row.id,
    });
    return row.id;
  } catch (error) {
    throw ledgerRuleError(error);
  }
}

const EVENT_OF_ENTRY = {
  room_charge: 'charge.posted',
  charge: 'charge.posted',
  deposit: 'payment.recorded',
  payment: 'payment.recorded',
  recharge: 'payment.recorded',
  refund: 'refund.recorded',
  correction: 'ledger.changed',
} as const satisfies Record<TOrderEntryKind, TEventKind>;

/** Closes a folio whose entries sum to zero (audited as a settlement, with what decided it). */
export async function closeBalancedFolio(tx: Tx, ctx: AuthedContext, folioId: number, settlement: Prisma.InputJsonObject): Promise<void> {
  const { actor } = ctx;
  const sum = await tx.orderEntry.aggregate({ where: { hotelId: actor.hotelId, folioId }, _sum: { amount: true } });
  if ((sum._sum.amount ?? 0) !== 0)
    throw new AppError('CONFLICT', {
      messageKey: 'orders.errors.cannotBalance',
      money: { currency: actor.currency, amounts: { balance: sum._sum.amount ?? 0 } },
    });
  try {
    await tx.folio.update({
      where: { id: folioId },
      data: { settledAt: new Date(), settledByAccountId: actor.accountId, settlement: settlement as Prisma.InputJsonObject },
    });
  } catch (error) {
    throw ledgerRuleError(error);
  }
  await recordEvent(tx, { hotelId: actor.hotelId, kind: 'ledger.changed' });
  await recordAudit(tx, ctx, { action: 'order.settle', entityType: 'Folio', entityId: folioId, after: settlement });
}
