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

// An order entry's journal entry, if it has one, and its hotel: an entry the journal lacks (written with
// the journal's triggers off: a restore, a bad import) is the documents' by the day it was written, and
// puts its folio or customer off.
const posted = Prisma.sql`LEFT JOIN "JournalEntry" e ON e."orderEntryId" = oe."id" JOIN "Hotel" h ON h."id" = oe."hotelId"`;
const postedOn = Prisma.sql`coalesce(e."businessDate", to_char(oe."createdAt" AT TIME ZONE h."timeZone", 'YYYY-MM-DD'))`;
const postedBy = (date: string) => Prisma.sql`${postedOn} <= ${date}`;

/** What a check compares: a folio's or a member's ledger lines (`lines`, signed) against its order entries (`entries`, summed by `sum`). */
interface OffCheck {
  key: 'folioId' | 'customerId';
  lines: Prisma.Sql;
  lineSign: 1 | -1;
  entries: Prisma.Sql;
  sum: Prisma.Sql;
}

const FOLIOS: OffCheck = {
  key: 'folioId',
  lines: Prisma.sql`l."account" IN ('guest', 'deposit', 'receivable')`,
  lineSign: 1,
  entries: Prisma.sql`oe."folioId" IS NOT NULL`,
  sum: Prisma.sql`-sum(oe."amount")`,
};
const CUSTOMERS: OffCheck = {
  key: 'customerId',
  lines: Prisma.sql`l."account" = 'customer_balance'`,
  lineSign: -1,
  entries: Prisma.sql`oe."customerId" IS NOT NULL AND (oe."folioId" IS NULL OR oe."method" = 'balance')`,
  sum: Prisma.sql`sum(CASE WHEN oe."folioId" IS NULL THEN oe."amount" ELSE -oe."amount" END)`,
};

/**
 * The folios or members whose ledger lines and order entries disagree by the end of `date`. Since a
 * checkpoint, each one's movement after it on both sides: the lines the checkpoint did not hold (as
 * `ledgerGroupsSql` splits them: dated after it, or written since and dated on or before it) and the
 * order entries it did not hold (posted after it, or written since: an entry the journal lacks is
 * posted on the day it was written). Every folio and member tied at the checkpoint and both tables are
 * append-only, so one is off exactly when its two movements differ. Summing the whole history of each
 * one that moved cost about 2 ms a member at 10,000 rooms and 3 years (bench/README §18). Without a
 * checkpoint, every one's whole history.
 */
function offSql(check: OffCheck, hotelId: number, date: string, from: Checkpoint | null): Prisma.Sql {
  const key = Prisma.raw(`"${check.key}"`);
  const sign = check.lineSign === 1 ? Prisma.empty : Prisma.sql`-`;
  const entries = Prisma.sql`oe."hotelId" = ${hotelId} AND ${check.entries} AND ${postedBy(date)}`;
  if (!from)
    return Prisma.sql`
      WITH j AS (
        SELECT l.${key} AS id, ${sign}sum(l."amount") AS s FROM "JournalLine" l JOIN "JournalEntry" e ON e."id" = l."journalEntryId"
        WHERE l."hotelId" = ${hotelId} AND e."businessDate" <= ${date} AND ${check.lines} GROUP BY 1),
      o AS (SELECT oe.${key} AS id, ${check.sum} AS s FROM "OrderEntry" oe ${posted} WHERE ${entries} GROUP BY 1)
      SELECT id AS ${key} FROM j FULL JOIN o USING (id) WHERE id IS NOT NULL AND coalesce(j.s, 0) <> coalesce(o.s, 0) ORDER BY 1`;
  return Prisma.sql`
    WITH j AS (
      SELECT l.id, ${sign}sum(l."amount") AS s FROM (
        SELECT l.${key} AS id, l."amount", l."account" FROM ${linesDated(hotelId, from.date, date, true)}
        UNION ALL
        SELECT l.${key}, l."amount", l."account" FROM "JournalLine" l JOIN "JournalEntry" e ON e."id" = l."journalEntryId"
         WHERE l."id" > ${from.lineId} AND l."hotelId" = ${hotelId} AND e."businessDate" <= ${from.date}) l
      WHERE ${check.lines} GROUP BY 1),
    since AS (
      SELECT e."orderEntryId" AS id FROM "JournalEntry" e
       WHERE e."hotelId" = ${hotelId} AND e."businessDate" > ${from.date} AND e."businessDate" <= ${date} AND e."orderEntryId" IS NOT NULL
      UNION SELECT oe."id" FROM "OrderEntry" oe WHERE oe."id" > ${from.orderEntryId} AND oe."hotelId" = ${hotelId}
      UNION SELECT oe."id" FROM "OrderEntry" oe JOIN "Hotel" h ON h."id" = oe."hotelId"
       WHERE oe."hotelId" = ${hotelId} AND oe."createdAt" >= ((${from.date}::date + 1)::timestamp AT TIME ZONE h."timeZone")
         AND oe."createdAt" < ((${date}::date + 1)::timestamp AT TIME ZONE h."timeZone")),
    o AS (
      SELECT oe.${key} AS id, ${check.sum} AS s
        FROM since CROSS JOIN LATERAL (SELECT * FROM "OrderEntry" oe WHERE oe."id" = since.id OFFSET 0) oe ${posted}
       WHERE ${entries} AND (${postedOn} > ${from.date} OR oe."id" > ${from.orderEntryId})
       GROUP BY 1)
    SELECT id AS ${key} FROM j FULL JOIN o USING (id) WHERE id IS NOT NULL AND coalesce(j.s, 0) <> coalesce(o.s, 0) ORDER BY 1`;
}

/** The folios whose guest, deposit and receivable ledgers do not hold the opposite of their bill's balance by the end of `date`. */
export async function foliosOff(db: Db, hotelId: number, date: string, from: Checkpoint | null): Promise<number[]> {
  return (await db.$queryRaw<{ folioId: number }[]>(foliosOffSql(hotelId, date, from))).map((r) => r.folioId);
}

/** The statement of `foliosOff`. */
export const foliosOffSql = (hotelId: number, date: string, from: Checkpoint | null): Prisma.Sql => offSql(FOLIOS, hotelId, date, from);

/** The customers whose balance in the journal is not the one their entries give by the end of `date` (docs/orders.md). */
export async function customersOff(db: Db, hotelId: number, date: string, from: Checkpoint | null): Promise<number[]> {
  return (await db.$queryRaw<{ customerId: number }[]>(customersOffSql(hotelId, date, from))).map((r) => r.customerId);
}

/** The statement of `customersOff`. */
export const customersOffSql = (hotelId: number, date: string, from: Checkpoint | null): Prisma.Sql => offSql(CUSTOMERS, hotelId, date, from);
