import type { TLedgerAccount, TMoneyMethod } from '@console/shared';
import { Prisma } from '../../generated/prisma/client';
import type { AuthedContext } from '../../context';
import type { Tx } from '../../db/transaction';

type Db = AuthedContext['deps']['prisma'] | Tx;
const n = (v: bigint | number | null | undefined) => Number(v ?? 0);

/** A ledger group: an account; the money account per way of paying and cashier shift. */
export interface LedgerGroup {
  account: TLedgerAccount;
  method: TMoneyMethod | null;
  shiftId: number | null;
  opening: number;
  debits: number;
  credits: number;
}

/** Where a trial balance starts (ledger-checkpoint.ts): the books at the end of `date`, which tied. */
export interface Checkpoint {
  date: string;
  lineId: number;
  orderEntryId: number;
  balances: { account: TLedgerAccount; method: TMoneyMethod | null; shiftId: number | null; amount: number }[];
}

// Nothing to start from: every line the hotel wrote (dated after '' and none written "since").
const NONE = { date: '', lineId: 2_147_483_647, orderEntryId: 2_147_483_647 };

/** The latest checkpoint of the hotel before `date`, if any. */
export async function checkpointBefore(db: Db, hotelId: number, date: string): Promise<Checkpoint | null> {
  const row = await db.ledgerCheckpoint.findFirst({ where: { hotelId, date: { lt: date } }, orderBy: { date: 'desc' } });
  return row ? { date: row.date, lineId: row.lineId, orderEntryId: row.orderEntryId, balances: row.balances as unknown as Checkpoint['balances'] } : null;
}

/**
 * The lines of the hotel's journal entries dated in (`after`, `upTo`], as `l` beside their entry `e`.
 * After a checkpoint these are a few days' entries: each one's lines are read by its index (a lateral
 * read the planner may not turn into a join: it chose a hash join that reads every line of the
 * journal, 10 million at 10,000 rooms and a year). Without one, every line, by a join.
 */
const linesDated = (hotelId: number, after: string, upTo: string, few: boolean) =>
  few
    ? Prisma.sql`"JournalEntry" e CROSS JOIN LATERAL (SELECT * FROM "JournalLine" l WHERE l."journalEntryId" = e."id" OFFSET 0) l
       WHERE e."hotelId" = ${hotelId} AND e."businessDate" > ${after} AND e."businessDate" <= ${upTo}`
    : Prisma.sql`"JournalEntry" e JOIN "JournalLine" l ON l."journalEntryId" = e."id"
       WHERE e."hotelId" = ${hotelId} AND e."businessDate" > ${after} AND e."businessDate" <= ${upTo}`;

export const groupKey = (g: { account: string; method: string | null; shiftId: number | null }) => `${g.account}|${g.method ?? ''}|${g.shiftId ?? ''}`;

/**
 * Each ledger group's balance before `date` and its debits and credits on it: the checkpoint's
 * balances, plus the lines dated after the checkpoint, plus the lines written since it but dated on
 * or before it (an entry imported with a past date); without a checkpoint, every line.
 */
export async function ledgerGroups(db: Db, hotelId: number, date: string, from: Checkpoint | null): Promise<LedgerGroup[]> {
  const sums = await db.$queryRaw<
    { account: TLedgerAccount; method: TMoneyMethod | null; shiftId: number | null; opening: bigint; debits: bigint; credits: bigint }[]
  >(ledgerGroupsSql(hotelId, date, from));
  const groups = new Map<string, LedgerGroup>();
  for (const b of from?.balances ?? []) groups.set(groupKey(b), { ...b, opening: b.amount, debits: 0, credits: 0 });
  for (const s of sums) {
    const key = groupKey(s);
    const g = groups.get(key) ?? { account: s.account, method: s.method, shiftId: s.shiftId, opening: 0, debits: 0, credits: 0 };
    g.opening += n(s.opening);
    g.debits += n(s.debits);
    g.credits += n(s.credits);
    groups.set(key, g);
  }
  return [...groups.values()];
}

/** The statement of `ledgerGroups`: each group's lines since the checkpoint (or every line), summed. */
export function ledgerGroupsSql(hotelId: number, date: string, from: Checkpoint | null): Prisma.Sql {
  const c = from ?? NONE;
  return Prisma.sql`
    WITH lines AS (
      SELECT l."account", l."method", l."shiftId", l."amount", e."businessDate"
        FROM ${linesDated(hotelId, c.date, date, from !== null)}
      UNION ALL
      SELECT l."account", l."method", l."shiftId", l."amount", e."businessDate"
        FROM "JournalLine" l JOIN "JournalEntry" e ON e."id" = l."journalEntryId"
       WHERE l."id" > ${c.lineId} AND l."hotelId" = ${hotelId} AND e."businessDate" <= ${c.date})
    SELECT "account",
      CASE WHEN "account" = 'money' THEN "method"::text END AS "method",
      CASE WHEN "account" = 'money' THEN "shiftId" END AS "shiftId",
      coalesce(sum("amount") FILTER (WHERE "businessDate" < ${date}), 0) AS "opening",
      coalesce(sum("amount") FILTER (WHERE "businessDate" = ${date} AND "amount" > 0), 0) AS "debits",
      coalesce(sum("amount") FILTER (WHERE "businessDate" = ${date} AND "amount" < 0), 0) AS "credits"
    FROM lines GROUP BY 1, 2, 3`;
}

/**
 * The folios a check must read again since a checkpoint: those of the lines dated after
 * it (up to `date`) or written since it, and of the order entries written since it or created in the
 * days after it up to `date` (an entry the journal lacks is dated by the day it was written: one
 * created later does not count on `date`). Every other one tied at the checkpoint and has not moved
 * by `date`. Without a checkpoint: every one (no filter).
 */
function touchedSince(hotelId: number, date: string, from: Checkpoint | null): Prisma.Sql | null {
  if (!from) return null;
  return Prisma.sql`
    SELECT l."folioId" AS id FROM ${linesDated(hotelId, from.date, date, true)}
    UNION SELECT l."folioId" FROM "JournalLine" l WHERE l."id" > ${from.lineId} AND l."hotelId" = ${hotelId}
    UNION SELECT oe."folioId" FROM "JournalEntry" e CROSS JOIN LATERAL (SELECT * FROM "OrderEntry" oe WHERE oe."id" = e."orderEntryId" OFFSET 0) oe
     WHERE e."hotelId" = ${hotelId} AND e."businessDate" > ${from.date} AND e."businessDate" <= ${date}
    UNION SELECT oe."folioId" FROM "OrderEntry" oe WHERE oe."id" > ${from.orderEntryId} AND oe."hotelId" = ${hotelId}
    UNION SELECT oe."folioId" FROM "OrderEntry" oe JOIN "Hotel" h ON h."id" = oe."hotelId"
     WHERE oe."hotelId" = ${hotelId} AND oe."createdAt" >= ((${from.date}::date + 1)::timestamp AT TIME ZONE h."timeZone")
       AND oe."createdAt" < ((${date}::date + 1)::timestamp AT TIME ZONE h."timeZone")`;
}

// An order entry's journal entry, if it has one, and its hotel: an entry the journal lacks (written with
// the journal's triggers off: a restore, a bad import) is the documents' by the day it was written, and
// puts its folio or customer off.
const posted = Prisma.sql`LEFT JOIN "JournalEntry" e ON e."orderEntryId" = oe."id" JOIN "Hotel" h ON h."id" = oe."hotelId"`;
const postedBy = (date: string) => Prisma.sql`coalesce(e."businessDate", to_char(oe."createdAt" AT TIME ZONE h."timeZone", 'YYYY-MM-DD')) <= ${date}`;

/** The folios whose guest, deposit and receivable ledgers do not hold the opposite of their bill's balance by the end of `date`. */
export async function foliosOff(db: Db, hotelId: number, date: string, from: Checkpoint | null): Promise<number[]> {
  return (await db.$queryRaw<{ folioId: number }[]>(foliosOffSql(hotelId, date, from))).map((r) => r.folioId);
}

/** The statement of `foliosOff`. */
export function foliosOffSql(hotelId: number, date: string, from: Checkpoint | null): Prisma.Sql {
  const ledgers = Prisma.sql`l."hotelId" = ${hotelId} AND e."businessDate" <= ${date} AND l."account" IN ('guest', 'deposit', 'receivable')`;
  const entries = Prisma.sql`oe."hotelId" = ${hotelId} AND ${postedBy(date)}`;
  const touched = touchedSince(hotelId, date, from);
  // Since a checkpoint: each folio it names, summed by its indexes; without one, every folio at once.
  return touched
    ? Prisma.sql`
      SELECT t.id AS "folioId" FROM (SELECT DISTINCT id FROM (${touched}) c WHERE id IS NOT NULL) t
        CROSS JOIN LATERAL (SELECT sum(l."amount") AS s FROM "JournalLine" l JOIN "JournalEntry" e ON e."id" = l."journalEntryId"
                             WHERE l."folioId" = t.id AND ${ledgers} OFFSET 0) j
        CROSS JOIN LATERAL (SELECT -sum(oe."amount") AS s FROM "OrderEntry" oe ${posted} WHERE oe."folioId" = t.id AND ${entries} OFFSET 0) o
      WHERE coalesce(j.s, 0) <> coalesce(o.s, 0) ORDER BY 1`
    : Prisma.sql`
      WITH j AS (
        SELECT l."folioId", sum(l."amount") AS s FROM "JournalLine" l JOIN "JournalEntry" e ON e."id" = l."journalEntryId"
        WHERE ${ledgers} GROUP BY l."folioId"),
      o AS (SELECT oe."folioId", -sum(oe."amount") AS s FROM "OrderEntry" oe ${posted} WHERE oe."folioId" IS NOT NULL AND ${entries} GROUP BY oe."folioId")
      SELECT "folioId" FROM j FULL JOIN o USING ("folioId") WHERE coalesce(j.s, 0) <> coalesce(o.s, 0) ORDER BY 1`;
}

/** The customers whose balance in the journal is not the one their entries give by the end of `date` (docs/orders.md). */
export async function customersOff(db: Db, hotelId: number, date: string, from: Checkpoint | null): Promise<number[]> {
  return (await db.$queryRaw<{ customerId: number }[]>(customersOffSql(hotelId, date, from))).map((r) => r.customerId);
}

/**
 * The statement of `customersOff`. Since a checkpoint, each customer's movement after it on both sides
 * (the lines and the order entries the checkpoint did not hold, as `ledgerGroupsSql` splits them): every
 * customer tied at the checkpoint and both ledgers are append-only, so one is off by `date` exactly
 * when its two movements differ. A member's account lives for years: summing the whole history of each
 * one that moved cost about 2 ms a customer at 10,000 rooms and 3 years. Without one, every customer.
 */
export function customersOffSql(hotelId: number, date: string, from: Checkpoint | null): Prisma.Sql {
  const entries = Prisma.sql`oe."hotelId" = ${hotelId} AND (oe."folioId" IS NULL OR oe."method" = 'balance') AND ${postedBy(date)}`;
  const balance = Prisma.sql`sum(CASE WHEN oe."folioId" IS NULL THEN oe."amount" ELSE -oe."amount" END)`;
  if (from) {
    const postedOn = Prisma.sql`coalesce(e."businessDate", to_char(oe."createdAt" AT TIME ZONE h."timeZone", 'YYYY-MM-DD'))`;
    return Prisma.sql`
      WITH j AS (
        SELECT l."customerId", -sum(l."amount") AS s FROM (
          SELECT l."customerId", l."amount", l."account" FROM ${linesDated(hotelId, from.date, date, true)}
          UNION ALL
          SELECT l."customerId", l."amount", l."account" FROM "JournalLine" l JOIN "JournalEntry" e ON e."id" = l."journalEntryId"
           WHERE l."id" > ${from.lineId} AND l."hotelId" = ${hotelId} AND e."businessDate" <= ${from.date}) l
        WHERE l."account" = 'customer_balance' GROUP BY 1),
      since AS (
        SELECT e."orderEntryId" AS id FROM "JournalEntry" e
         WHERE e."hotelId" = ${hotelId} AND e."businessDate" > ${from.date} AND e."businessDate" <= ${date} AND e."orderEntryId" IS NOT NULL
        UNION SELECT oe."id" FROM "OrderEntry" oe WHERE oe."id" > ${from.orderEntryId} AND oe."hotelId" = ${hotelId}
        UNION SELECT oe."id" FROM "OrderEntry" oe JOIN "Hotel" h ON h."id" = oe."hotelId"
         WHERE oe."hotelId" = ${hotelId} AND oe."createdAt" >= ((${from.date}::date + 1)::timestamp AT TIME ZONE h."timeZone")
           AND oe."createdAt" < ((${date}::date + 1)::timestamp AT TIME ZONE h."timeZone")),
      o AS (
        SELECT oe."customerId", ${balance} AS s
          FROM since CROSS JOIN LATERAL (SELECT * FROM "OrderEntry" oe WHERE oe."id" = since.id OFFSET 0) oe ${posted}
         WHERE oe."customerId" IS NOT NULL AND ${entries} AND (${postedOn} > ${from.date} OR oe."id" > ${from.orderEntryId})
         GROUP BY 1)
      SELECT "customerId" FROM j FULL JOIN o USING ("customerId") WHERE "customerId" IS NOT NULL AND coalesce(j.s, 0) <> coalesce(o.s, 0) ORDER BY 1`;
  }
  const ledger = Prisma.sql`l."hotelId" = ${hotelId} AND e."businessDate" <= ${date} AND l."account" = 'customer_balance'`;
  return Prisma.sql`
      WITH j AS (
        SELECT l."customerId", -sum(l."amount") AS s FROM "JournalLine" l JOIN "JournalEntry" e ON e."id" = l."journalEntryId"
        WHERE ${ledger} GROUP BY l."customerId"),
      o AS (SELECT oe."customerId", ${balance} AS s FROM "OrderEntry" oe ${posted} WHERE oe."customerId" IS NOT NULL AND ${entries} GROUP BY oe."customerId")
      SELECT "customerId" FROM j FULL JOIN o USING ("customerId") WHERE coalesce(j.s, 0) <> coalesce(o.s, 0) ORDER BY 1`;
}
