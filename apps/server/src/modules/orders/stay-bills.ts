import type { AuthedContext } from '../../context';
import type { TPrisma } from '../../db/client';
import type { Tx } from '../../db/transaction';
import { roomScopeSql } from '../base/room-access';
import { owedAndDueBack } from './ledger-facts';

/**
 * A stay's bill as lists show it (the guest list and its export, the room board's "due" mark, the
 * today board): the balance of its visit's folio (the sum of its entries, docs/orders.md) and the
 * folio's state. The same figure as the bill on the room page and the check-out dialog, because it
 * is the same sum: under the posting rule (decision 021) the room charge stands on the folio from
 * the moment the stay begins, so the balance is what the guest owes (or is due back) at every moment.
 */
export interface StayBill {
  /** none: nothing recorded yet; open; owing: left owing at check-out (collectable); settled. */
  state: 'none' | 'open' | 'owing' | 'settled';
  /** Signed from the guest's side: negative is owed, positive is due back. */
  balance: number;
  owed: number;
  dueBack: number;
  /**
   * The deposit the folio holds now, as its bill counts it (ledger-facts.ts `depositHeld`): its
   * deposits less what was refunded or corrected of them. Not the amount a reservation asked for
   * (`Stay.depositAmount`): a deposit never taken, or refunded, is not held (issue 36 §5).
   */
  depositHeld: number;
}

export const NO_BILL: StayBill = { state: 'none', balance: 0, owed: 0, dueBack: 0, depositHeld: 0 };

/** The bills of the visits whose first stays are `visitStayIds` (Stay.visitStayId), in one statement. */
export async function billsOfVisits(db: TPrisma | Tx, hotelId: number, visitStayIds: readonly number[]): Promise<Map<number, StayBill>> {
  const ids = [...new Set(visitStayIds)];
  if (ids.length === 0) return new Map();
  // What is left of each deposit is the database's own rule (`OrderEntry_refundable`), as the bill's.
  const rows = await db.$queryRaw<{ stayId: number; settled: boolean; owing: boolean; balance: bigint; depositHeld: bigint }[]>`
    SELECT f."stayId", f."settledAt" IS NOT NULL AS "settled", f."owedAt" IS NOT NULL AS "owing",
           coalesce((SELECT sum(e."amount") FROM "OrderEntry" e WHERE e."hotelId" = f."hotelId" AND e."folioId" = f."id"), 0)::bigint AS "balance",
           coalesce((SELECT sum("OrderEntry_refundable"(e."hotelId", e."id")) FROM "OrderEntry" e
                      WHERE e."hotelId" = f."hotelId" AND e."folioId" = f."id" AND e."kind" = 'deposit'), 0)::bigint AS "depositHeld"
    FROM "Folio" f
    WHERE f."hotelId" = ${hotelId} AND f."stayId" = ANY (${ids}::int[])`;
  return new Map(
    rows.map((r) => {
      const balance = Number(r.balance);
      const state = r.settled ? 'settled' : r.owing ? 'owing' : 'open';
      return [r.stayId, { state, balance, ...owedAndDueBack(balance), depositHeld: Number(r.depositHeld) }];
    }),
  );
}

/** Each stay with its visit's bill (`bill`), in the same order. */
export async function withBills<T extends { visitStayId: number }>(
  db: TPrisma | Tx,
  hotelId: number,
  stays: readonly T[],
): Promise<(T & { bill: StayBill })[]> {
  const bills = await billsOfVisits(
    db,
    hotelId,
    stays.map((s) => s.visitStayId),
  );
  return stays.map((s) => ({ ...s, bill: bills.get(s.visitStayId) ?? NO_BILL }));
}

/** How many unpaid departures the today board names (the rest are counted). */
export const UNPAID_LISTED = 20;

export interface UnpaidDeparture {
  folioId: number;
  /** The visit's last stay (checked out), and its room. */
  stayId: number;
  roomId: number;
  roomName: string;
  /** The stay's primary guest (the guest detail page collects the bill). */
  guestId: number | null;
  guestName: string | null;
  checkedOutAt: string | null;
  /** When it was left owing, how much is owed now (payments since taken off), and why (OWING_REASONS). */
  owedAt: string;
  owed: number;
  reason: string;
  note: string;
}

/**
 * Bills left owing at check-out and not yet paid (docs/orders.md, "Bills left owing"): the today
 * board's unpaid departures, newest first, for members who take payments (`stay.manage`), over
 * the rooms they may see. One statement: the owing folios through their partial index, each with
 * its visit's last stay, its primary guest and what it still owes.
 */
export async function unpaidDepartures(ctx: AuthedContext): Promise<{ total: number; owed: number; items: UnpaidDeparture[] } | null> {
  const { actor } = ctx;
  if (!actor.permissions.has('stay.manage')) return null;
  const rows = await ctx.deps.prisma.$queryRaw<
    (Omit<UnpaidDeparture, 'owedAt' | 'checkedOutAt' | 'owed'> & { owedAt: Date; checkedOutAt: Date | null; owed: bigint; total: bigint; owedTotal: bigint })[]
  >`
    SELECT x.*, count(*) OVER ()::bigint AS "total", sum(x."owed") OVER ()::bigint AS "owedTotal"
    FROM (
      SELECT f."id" AS "folioId", s."id" AS "stayId", r."id" AS "roomId", r."name" AS "roomName", g."id" AS "guestId", g."name" AS "guestName",
             s."checkedOutAt", f."owedAt", f."owedReason" AS "reason", f."owedNote" AS "note",
             -coalesce((SELECT sum(e."amount") FROM "OrderEntry" e WHERE e."hotelId" = f."hotelId" AND e."folioId" = f."id"), 0)::bigint AS "owed"
      FROM "Folio" f
      CROSS JOIN LATERAL (SELECT v."id", v."roomId", v."checkedOutAt" FROM "Stay" v WHERE v."hotelId" = f."hotelId" AND v."visitStayId" = f."stayId" ORDER BY v."id" DESC LIMIT 1) s
      JOIN "Room" r ON r."id" = s."roomId"
      LEFT JOIN LATERAL (SELECT sg."id", sg."name" FROM "StayGuest" sg WHERE sg."hotelId" = f."hotelId" AND sg."stayId" = s."id" ORDER BY sg."isPrimary" DESC, sg."id" LIMIT 1) g ON true
      WHERE f."hotelId" = ${actor.hotelId} AND f."owedAt" IS NOT NULL AND f."settledAt" IS NULL AND ${roomScopeSql(actor)}
    ) x
    ORDER BY x."owedAt" DESC, x."folioId" DESC
    LIMIT ${UNPAID_LISTED}`;
  return {
    total: Number(rows[0]?.total ?? 0),
    owed: Number(rows[0]?.owedTotal ?? 0),
    items: rows.map(({ total: _total, owedTotal: _owedTotal, ...r }) => ({
      ...r,
      owedAt: r.owedAt.toISOString(),
      checkedOutAt: r.checkedOutAt?.toISOString() ?? null,
      owed: Number(r.owed),
    })),
  };
}
