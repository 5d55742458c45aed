/**
 * The journal's side of `reports.ts` (issue 36 "Faces and numbers"): the night audit's no-show fees
 * checked, a day's trial balance (`order.trialBalance`, what the trial balance page calls) and the
 * standing-by-day statement (decision 062, `standingSql`) timed against the same statements alone on
 * the service's pool. Imported by reports.ts, which generates the hotel and closes its days.
 *
 * The statements of the trial balance are copied here from modules/journal/trial-balance.ts and
 * trial-balance-details.ts as Prisma.sql templates (so that they are sent with the parameters the
 * service sends), and checked once against the service's answer: a copy that drifts from the service
 * fails the run, smoke included.
 */
import type pg from 'pg';
import { addDays } from '@console/shared';
import type { TReportRange, TTrialBalance } from '@console/shared/dto';
import { Prisma } from '../apps/server/src/generated/prisma/client.ts';
import type { AuthedContext } from '../apps/server/src/context.ts';
import { trialBalance, trialBalanceOf } from '../apps/server/src/modules/journal/trial-balance.ts';
import { keepCheckpoint } from '../apps/server/src/modules/journal/ledger-checkpoint.ts';
import { customersOffSql, foliosOffSql, ledgerGroupsSql, type Checkpoint } from '../apps/server/src/modules/journal/trial-balance-sums.ts';
import { standingByDay } from '../apps/server/src/modules/reports/day-figures.ts';
import { standingSql } from '../apps/server/src/modules/reports/figures-sql.ts';
import { fmt, median, percentile, SMOKE, target } from './lib.ts';

/** The no-show fee's note (modules/orders/no-show-fee.ts). */
const FEE_NOTE = 'orders.notes.noShowFee';

/**
 * The reservations of the day [from, to) that its close will end as no-shows (awaited, their no-show
 * time come), each with the fee the hotel's policy makes it owe: under `charge_first_night`, its first
 * night's rate read from its room (the bench's rooms have no dated prices, and an absent guest's
 * booking is its nights at their rates), else 0.
 */
export async function pendingNoShows(client: pg.Client, hotelId: number, date: string, from: Date, to: Date): Promise<Map<number, number>> {
  const { rows } = await client.query<{ id: number; fee: number }>(
    `SELECT s."id", CASE WHEN h."noShowPolicy" <> 'charge_first_night' THEN 0
                         WHEN extract(dow FROM $4::date) IN (5, 6) AND r."weekendPrice" IS NOT NULL THEN r."weekendPrice" ELSE r."usualPrice" END AS fee
       FROM "Stay" s JOIN "Room" r ON r."id" = s."roomId" JOIN "Hotel" h ON h."id" = s."hotelId"
      WHERE s."hotelId" = $1 AND s."status" = 'reserved' AND s."awaitsArrival" AND s."checkInAt" >= $2 AND s."checkInAt" < $3 AND s."noShowAt" <= now()`,
    [hotelId, from, to, date],
  );
  return new Map(rows.map((r) => [r.id, r.fee]));
}

/**
 * After the close: each reservation of `pending` a no-show, with one no-show fee on its bill of the
 * amount expected (none when 0), booked in the journal as other revenue and owed on the bill's
 * ledgers (its guest, deposit and receivable ledgers: a visit never begun owes it on its deposit's). Throws naming the first ones that differ. The fees' count, total and business dates.
 */
export async function checkNoShowFees(client: pg.Client, hotelId: number, pending: Map<number, number>) {
  const { rows } = await client.query<{ id: number; status: string; fees: number; fee: number; booked: number; owed: number; dates: string[] | null }>(
    `SELECT s."id", s."status"::text AS status, f.fees, f.fee, j.booked, j.owed, j.dates
       FROM "Stay" s
       CROSS JOIN LATERAL (SELECT count(*)::int AS fees, coalesce(-sum(oe."amount"), 0)::int AS fee FROM "OrderEntry" oe
                            WHERE oe."hotelId" = $1 AND oe."stayId" = s."id" AND oe."kind" = 'charge' AND oe."noteKey" = $3) f
       CROSS JOIN LATERAL (SELECT coalesce(-sum(l."amount") FILTER (WHERE l."account" = 'revenue_extras'), 0)::int AS booked,
                                  coalesce(sum(l."amount") FILTER (WHERE l."account" IN ('guest', 'deposit', 'receivable')), 0)::int AS owed,
                                  array_agg(DISTINCT e."businessDate") AS dates
                             FROM "OrderEntry" oe JOIN "JournalEntry" e ON e."orderEntryId" = oe."id" JOIN "JournalLine" l ON l."journalEntryId" = e."id"
                            WHERE oe."hotelId" = $1 AND oe."stayId" = s."id" AND oe."kind" = 'charge' AND oe."noteKey" = $3) j
      WHERE s."hotelId" = $1 AND s."id" = ANY($2::int[])`,
    [hotelId, [...pending.keys()], FEE_NOTE],
  );
  const wrong = rows.flatMap((r) => {
    const fee = pending.get(r.id)!;
    const ok = r.status === 'no_show' && r.fees === (fee > 0 ? 1 : 0) && r.fee === fee && r.booked === fee && r.owed === fee;
    return ok
      ? []
      : [
          `stay ${r.id}: ${r.status}, ${r.fees} fees of ${r.fee} (${r.booked} other revenue, ${r.owed} owed on the bill's ledgers); expected no_show, a fee of ${fee}`,
        ];
  });
  if (rows.length !== pending.size) wrong.unshift(`${rows.length} of the ${pending.size} reservations found`);
  if (wrong.length) throw new Error(`The close's no-shows: ${wrong.length} wrong\n  ${wrong.slice(0, 10).join('\n  ')}`);
  return {
    count: rows.length,
    charged: rows.filter((r) => r.fees > 0).length,
    total: rows.reduce((s, r) => s + r.fee, 0),
    dates: [...new Set(rows.flatMap((r) => r.dates ?? []))].sort(),
  };
}

/**
 * The night audit's no-shows after the close of `date` (checkNoShowFees; `charged`: how many fees the
 * generator's hotel must have posted, null on a reused database), then the trial balances of the day
 * closed and of the days the fees were booked on: each must tie.
 */
export async function checkNightAudit(
  client: pg.Client,
  prisma: AuthedContext['deps']['prisma'],
  hotelId: number,
  date: string,
  pending: Map<number, number>,
  charged: number | null,
) {
  const fees = await checkNoShowFees(client, hotelId, pending);
  if (charged !== null && fees.charged !== charged) throw new Error(`${date}: ${fees.charged} no-show fees posted, ${charged} expected`);
  await checkTies(prisma, hotelId, [...new Set([date, ...fees.dates])]);
  return fees;
}

/** Throws unless the journal's trial balance of each date ties (the close's own check, read after it). */
async function checkTies(prisma: AuthedContext['deps']['prisma'], hotelId: number, dates: string[]): Promise<void> {
  for (const date of dates) {
    const books = await trialBalanceOf(prisma, hotelId, date);
    if (!books.ties)
      throw new Error(
        `${date}: the trial balance does not tie (opening ${books.totals.opening}, closing ${books.totals.closing}, ${books.checks.foliosOff.length} folios and ${books.checks.customersOff.length} customers off)`,
      );
  }
}

// As trial-balance.ts: an order entry's journal entry, if it has one, and its hotel.
const posted = Prisma.sql`LEFT JOIN "JournalEntry" e ON e."orderEntryId" = oe."id" JOIN "Hotel" h ON h."id" = oe."hotelId"`;
const postedBy = (date: string) => Prisma.sql`coalesce(e."businessDate", to_char(oe."createdAt" AT TIME ZONE h."timeZone", 'YYYY-MM-DD')) <= ${date}`;

/**
 * A day's trial balance recounted over every line the hotel wrote (no checkpoint): what the service's
 * answer, read from the checkpoint before the day and the lines since, is checked against.
 */
function trialBalanceRecountStatements(hotelId: number, date: string) {
  return {
    sums: Prisma.sql`
      SELECT l."account",
        coalesce(sum(l."amount") FILTER (WHERE e."businessDate" < ${date}), 0) AS "opening",
        coalesce(sum(l."amount") FILTER (WHERE e."businessDate" = ${date} AND l."amount" > 0), 0) AS "debits",
        coalesce(sum(l."amount") FILTER (WHERE e."businessDate" = ${date} AND l."amount" < 0), 0) AS "credits"
      FROM "JournalLine" l JOIN "JournalEntry" e ON e."id" = l."journalEntryId"
      WHERE e."hotelId" = ${hotelId} AND e."businessDate" <= ${date}
      GROUP BY l."account"`,
    night: Prisma.sql`
      SELECT -sum(l."amount") AS "amount" FROM "JournalLine" l
      WHERE l."hotelId" = ${hotelId} AND l."serviceDate" = ${date} AND l."account" = 'revenue_rooms'`,
    folios: Prisma.sql`
      WITH j AS (
        SELECT l."folioId", sum(l."amount") AS s FROM "JournalLine" l JOIN "JournalEntry" e ON e."id" = l."journalEntryId"
        WHERE e."hotelId" = ${hotelId} AND e."businessDate" <= ${date} AND l."account" IN ('guest', 'deposit', 'receivable')
        GROUP BY l."folioId"),
      o AS (
        SELECT oe."folioId", -sum(oe."amount") AS s FROM "OrderEntry" oe ${posted}
        WHERE oe."hotelId" = ${hotelId} AND oe."folioId" IS NOT NULL AND ${postedBy(date)}
        GROUP BY oe."folioId")
      SELECT "folioId" FROM j FULL JOIN o USING ("folioId") WHERE coalesce(j.s, 0) <> coalesce(o.s, 0) ORDER BY 1`,
    customers: Prisma.sql`
      WITH j AS (
        SELECT l."customerId", -sum(l."amount") AS s FROM "JournalLine" l JOIN "JournalEntry" e ON e."id" = l."journalEntryId"
        WHERE e."hotelId" = ${hotelId} AND e."businessDate" <= ${date} AND l."account" = 'customer_balance'
        GROUP BY l."customerId"),
      o AS (
        SELECT oe."customerId", sum(CASE WHEN oe."folioId" IS NULL THEN oe."amount" ELSE -oe."amount" END) AS s
        FROM "OrderEntry" oe ${posted}
        WHERE oe."hotelId" = ${hotelId} AND oe."customerId" IS NOT NULL AND (oe."folioId" IS NULL OR oe."method" = 'balance') AND ${postedBy(date)}
        GROUP BY oe."customerId")
      SELECT "customerId" FROM j FULL JOIN o USING ("customerId") WHERE coalesce(j.s, 0) <> coalesce(o.s, 0) ORDER BY 1`,
    money: Prisma.sql`
    SELECT l."method"::text AS "method", l."shiftId",
      coalesce(sum(l."amount") FILTER (WHERE e."businessDate" < ${date}), 0) AS "opening",
      coalesce(sum(l."amount") FILTER (WHERE e."businessDate" = ${date} AND l."amount" > 0), 0) AS "debits",
      coalesce(sum(l."amount") FILTER (WHERE e."businessDate" = ${date} AND l."amount" < 0), 0) AS "credits"
    FROM "JournalLine" l JOIN "JournalEntry" e ON e."id" = l."journalEntryId"
    WHERE e."hotelId" = ${hotelId} AND e."businessDate" <= ${date} AND l."account" = 'money'
    GROUP BY 1, 2`,
    closed: Prisma.sql`SELECT "id" FROM "DayClose" WHERE "hotelId" = ${hotelId} AND "date" = ${date} LIMIT 1`,
  };
}

type Row = Record<string, unknown>;

/**
 * A day's trial balance by the same statements alone, side by side on `pool` as `trialBalance` sends
 * them (the folios and customers a check names, and the shifts of the day, read after: none in a
 * bench hotel whose books tie and that has no shifts, so none here either). Their rows.
 */
async function trialBalanceRecount(
  pool: pg.Pool,
  hotelId: number,
  date: string,
): Promise<Record<keyof ReturnType<typeof trialBalanceRecountStatements>, Row[]>> {
  const q = trialBalanceRecountStatements(hotelId, date);
  const run = async (s: Prisma.Sql) => (await pool.query<Row>(s.text, s.values as unknown[])).rows;
  const [sums, night, folios, customers, money, closed] = await Promise.all([q.sums, q.night, q.folios, q.customers, q.money, q.closed].map(run));
  return { sums: sums!, night: night!, folios: folios!, customers: customers!, money: money!, closed: closed! };
}

/**
 * A day's trial balance by the service's own statements alone (trial-balance-sums.ts), on `pool` as
 * `trialBalance` sends them: the checkpoint before the day and the day's close row side by side, then
 * the ledger's groups since the checkpoint, the night's room revenue and the folios and customers
 * off, side by side (the shifts of the day and the folios a check names are read after: none in the
 * bench's hotel, which has no shifts and whose books tie). The baseline of the trial balance's ratio.
 */
export async function trialBalanceAlone(pool: pg.Pool, hotelId: number, date: string): Promise<void> {
  const run = (s: Prisma.Sql) => pool.query<Row>(s.text, s.values as unknown[]);
  const [{ rows: found }] = await Promise.all([
    pool.query<{ date: string; lineId: number; orderEntryId: number; balances: Checkpoint['balances'] }>(
      `SELECT "hotelId", "date", "lineId", "orderEntryId", "balances", "createdAt" FROM "LedgerCheckpoint" WHERE "hotelId" = $1 AND "date" < $2 ORDER BY "date" DESC LIMIT 1`,
      [hotelId, date],
    ),
    pool.query(`SELECT "id" FROM "DayClose" WHERE "hotelId" = $1 AND "date" = $2 LIMIT 1`, [hotelId, date]),
  ]);
  const from: Checkpoint | null = found[0] ?? null;
  await Promise.all([
    run(ledgerGroupsSql(hotelId, date, from)),
    run(Prisma.sql`SELECT -sum(l."amount") AS "amount" FROM "JournalLine" l
      WHERE l."hotelId" = ${hotelId} AND l."serviceDate" = ${date} AND l."account" = 'revenue_rooms'`),
    run(foliosOffSql(hotelId, date, from)),
    run(customersOffSql(hotelId, date, from)),
  ]);
}

/** Throws unless the service's trial balance is the recount over every line (trialBalanceRecount). */
export async function sameTrialBalance(pool: pg.Pool, hotelId: number, date: string, tb: TTrialBalance): Promise<void> {
  const alone = await trialBalanceRecount(pool, hotelId, date);
  const num = (v: unknown) => Number(v ?? 0);
  const diffs: string[] = [];
  const byAccount = new Map(alone.sums.map((s) => [String(s.account), s]));
  for (const row of tb.rows) {
    const s = byAccount.get(row.account);
    for (const k of ['opening', 'debits', 'credits'] as const)
      if (row[k] !== num(s?.[k])) diffs.push(`${row.account}.${k}: ${row[k]} in the service, ${num(s?.[k])} alone`);
  }
  if (tb.roomRevenueOfNight !== num(alone.night[0]?.amount))
    diffs.push(`room revenue of the night: ${tb.roomRevenueOfNight}, ${num(alone.night[0]?.amount)} alone`);
  if (tb.checks.foliosOff.length !== alone.folios.length) diffs.push(`folios off: ${tb.checks.foliosOff.length}, ${alone.folios.length} alone`);
  if (tb.checks.customersOff.length !== alone.customers.length) diffs.push(`customers off: ${tb.checks.customersOff.length}, ${alone.customers.length} alone`);
  const money = tb.money.reduce((s, m) => s + m.closing, 0);
  const moneyAlone = alone.money.reduce((s, m) => s + num(m.opening) + num(m.debits) + num(m.credits), 0);
  if (money !== moneyAlone) diffs.push(`money closing: ${money}, ${moneyAlone} alone`);
  if (tb.closed !== alone.closed.length > 0) diffs.push(`closed: ${tb.closed}, ${alone.closed.length > 0} alone`);
  if (diffs.length) throw new Error(`${date}, the trial balance: ${diffs.length} figures differ from its recount over every line\n  ${diffs.join('\n  ')}`);
}

/** What the hotel stood at at the end of each of `dates` (`ends`), by the service (`standingByDay`) and by its statement alone. */
export const standingCalls = (prisma: AuthedContext['deps']['prisma'], pool: pg.Pool, hotelId: number, dates: string[], ends: Date[]) => ({
  service: () => standingByDay(prisma, hotelId, dates, ends),
  alone: async () => {
    const q = standingSql(hotelId, dates, ends).standing;
    return (await pool.query(q.text, q.values)).rows;
  },
});

export type TimedCase = { name: string; base?: string; fn: () => Promise<unknown> };

/**
 * Times cases too slow for reports.ts's 100 calls each: each case called once (its warm-up, timed),
 * then `most` calls, or as many as fit in `budgetMs` (at least 3), the cases shuffled call by call.
 * A smoke run: one call each, no warm-up. Prints the table (calls, p50, p95, the base's and the ratio
 * of the p95s) and returns each case's p50 and p95.
 */
export async function timeWithin(cases: TimedCase[], most: number, budgetMs: number): Promise<Map<string, { n: number; p50: number; p95: number }>> {
  const left = new Map<string, number>();
  for (const c of cases) {
    if (SMOKE) {
      left.set(c.name, 1);
      continue;
    }
    const start = performance.now();
    await c.fn();
    left.set(c.name, Math.max(3, Math.min(most, Math.floor(budgetMs / Math.max(1, performance.now() - start)))));
  }
  const times = new Map<string, number[]>(cases.map((c) => [c.name, []]));
  for (;;) {
    const due = cases.filter((c) => times.get(c.name)!.length < left.get(c.name)!);
    if (due.length === 0) break;
    for (let i = due.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [due[i], due[j]] = [due[j]!, due[i]!];
    }
    for (const c of due) {
      const start = performance.now();
      await c.fn();
      times.get(c.name)!.push(performance.now() - start);
    }
  }
  const stats = new Map(cases.map((c) => [c.name, { n: times.get(c.name)!.length, p50: median(times.get(c.name)!), p95: percentile(times.get(c.name)!, 95) }]));
  console.log('| call | calls | p50 ms | p95 ms | the statements alone: calls, p50 / p95 ms | p95 ratio |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const c of cases) {
    const s = stats.get(c.name)!;
    const b = c.base ? stats.get(c.base) : undefined;
    console.log(
      `| ${c.name} | ${s.n} | ${fmt(s.p50)} | ${fmt(s.p95)} | ${b ? `${b.n}, ${fmt(b.p50)} / ${fmt(b.p95)}` : ''} | ${b ? fmt(s.p95 / b.p95, 2) : ''} |`,
    );
  }
  return stats;
}

/** The checkpoints of the days `from` to `to` not kept yet, kept in order as the install's nightly sweep keeps them, and how long it took. */
export async function keepSweepCheckpoints(owner: AuthedContext, hotelId: number, from: string, to: string): Promise<{ kept: number; ms: number }> {
  const start = performance.now();
  let kept = 0;
  for (let d = from; d <= to; d = addDays(d, 1)) {
    const had = await owner.deps.prisma.ledgerCheckpoint.findUnique({ where: { hotelId_date: { hotelId, date: d } }, select: { date: true } });
    if (!had && (await keepCheckpoint(owner.deps, hotelId, d))) kept += 1;
  }
  return { kept, ms: performance.now() - start };
}

/**
 * The trial balance page's call (`order.trialBalance`, in process and over HTTP) of an open past day
 * and of the day just closed, once the nightly sweep's checkpoints are kept, and what the hotel stood
 * at by day (`standingByDay`: decision 062) of a day (in a smoke run also of the month and of a day a
 * year back), each against its statements alone (timeWithin). Checked first: both trial balances tie
 * and equal their recount over every line, and the month's standing (three of its days at full size)
 * is its report's. Target: a day's trial balance p95 under 200 ms.
 */
export async function timeLedger(b: {
  owner: AuthedContext;
  pool: pg.Pool;
  hotelId: number;
  viaHttp: (procedure: string, input: unknown) => Promise<unknown>;
  hotelDay: (date: string) => { from: Date; to: Date };
  today: string;
  pastDay: string;
  closeDate: string;
  month: Pick<TReportRange, 'days'>;
  most: number;
}): Promise<void> {
  const { owner, pool, hotelId, viaHttp, hotelDay, today, pastDay, closeDate, month, most } = b;
  const prisma = owner.deps.prisma;
  const monthFrom = month.days[0]!.date;
  const monthDates = month.days.map((x) => x.date);
  const yearAgo = addDays(today, -365);
  const standing = {
    day: standingCalls(prisma, pool, hotelId, [pastDay], [hotelDay(pastDay).to]),
    month: standingCalls(
      prisma,
      pool,
      hotelId,
      monthDates,
      monthDates.map((x) => hotelDay(x).to),
    ),
    year: standingCalls(prisma, pool, hotelId, [yearAgo], [hotelDay(yearAgo).to]),
  };
  // The install's sweep keeps a checkpoint of the books each night (the day before: kept-sums.ts
  // sumDaysOnTime), so every day a manager opens has one the day before: those of the days from the last
  // one kept before the past day (the month closed one by one) to the day closed, kept in order.
  const last = await prisma.ledgerCheckpoint.findFirst({ where: { hotelId, date: { lt: pastDay } }, orderBy: { date: 'desc' }, select: { date: true } });
  const sweep = await keepSweepCheckpoints(owner, hotelId, last ? addDays(last.date, 1) : addDays(pastDay, -1), addDays(closeDate, -1));
  if (sweep.kept)
    console.log(
      `The nightly sweep's checkpoints of ${sweep.kept} days up to ${addDays(closeDate, -1)}, kept one after the other as the install keeps them: ${fmt(sweep.ms / 1000, 1)} s.`,
    );
  for (const date of [pastDay, closeDate]) {
    const tb = await trialBalance(owner, { date });
    if (!tb.ties || tb.closed !== (date === closeDate)) throw new Error(`${date}: the trial balance ${tb.ties ? 'ties' : 'does not tie'}, closed ${tb.closed}`);
    await sameTrialBalance(pool, hotelId, date, tb);
  }
  // What the report kept of each day (the month's: its first, middle and last day at full size, each a
  // minute's reading of the bills settled since) computed again.
  const checked = SMOKE ? month.days : [0, Math.floor(month.days.length / 2), month.days.length - 1].map((i) => month.days[i]!);
  const stood = await standingByDay(
    prisma,
    hotelId,
    checked.map((x) => x.date),
    checked.map((x) => hotelDay(x.date).to),
  );
  for (const [i, day] of checked.entries())
    if (day.owing.count !== stood[i]!.owing.count || day.owing.total !== stood[i]!.owing.total || day.depositsHeld !== stood[i]!.depositsHeld)
      throw new Error(`${day.date}: what the hotel stood at differs from the month's report`);
  console.log(
    `\nThe trial balance of ${pastDay} (open) and ${closeDate} (closed) ties, equal to its recount over every line; the standing of ${checked.length} days of the month computed again equal to its report's.\n`,
  );
  const ledger = await timeWithin(
    [
      { name: `trialBalance, ${pastDay} (open)`, base: `the trial balance of ${pastDay} alone`, fn: () => trialBalance(owner, { date: pastDay }) },
      {
        name: `order.trialBalance over HTTP, ${pastDay}`,
        base: `the trial balance of ${pastDay} alone`,
        fn: () => viaHttp('order.trialBalance', { date: pastDay }),
      },
      { name: `the trial balance of ${pastDay} alone`, fn: () => trialBalanceAlone(pool, hotelId, pastDay) },
      { name: `trialBalance, ${closeDate} (closed)`, base: `the trial balance of ${closeDate} alone`, fn: () => trialBalance(owner, { date: closeDate }) },
      {
        name: `order.trialBalance over HTTP, ${closeDate}`,
        base: `the trial balance of ${closeDate} alone`,
        fn: () => viaHttp('order.trialBalance', { date: closeDate }),
      },
      { name: `the trial balance of ${closeDate} alone`, fn: () => trialBalanceAlone(pool, hotelId, closeDate) },
      { name: `standingByDay, ${pastDay}`, base: `standingSql of ${pastDay} alone`, fn: standing.day.service },
      { name: `standingSql of ${pastDay} alone`, fn: standing.day.alone },
      // A month's and a day a year back's: in a smoke run only. At 10,000 rooms each day reads every bill
      // settled since it (a minute and more a call for a month), once: the report reads what it kept
      // (LedgerDaySum), and the sweep keeps each day's the night it ends.
      ...(SMOKE
        ? [
            {
              name: `standingByDay, the ${monthDates.length} days of ${monthFrom.slice(0, 7)}`,
              base: 'standingSql of the month alone',
              fn: standing.month.service,
            },
            { name: 'standingSql of the month alone', fn: standing.month.alone },
            { name: `standingByDay, ${yearAgo} (a year back)`, base: `standingSql of ${yearAgo} alone`, fn: standing.year.service },
            { name: `standingSql of ${yearAgo} alone`, fn: standing.year.alone },
          ]
        : []),
    ],
    most,
    Number(process.env.BENCH_LEDGER_BUDGET_S ?? 30) * 1000,
  );
  const tbWorst = Math.max(...[...ledger].filter(([name]) => name.includes('rialBalance')).map(([, s]) => s.p95));
  target("A day's trial balance p95 under 200 ms", tbWorst < 200, `worst ${fmt(tbWorst)} ms`);
}
