/**
 * The journal of `reports.ts`'s generated ledger, written set-based (since 2026-11-28).
 *
 * The schema posts each order entry to the journal by a row trigger (`OrderEntry_journal`, decision
 * 053), checked at commit (`OrderEntry_is_posted`, `JournalEntry_balances`, `JournalLine_balances`):
 * about a dozen statements a row, 1,000 entries a second on the bench's 2 cores, 4 hours for the
 * 13.5 million entries of 10,000 rooms and 3 years. So the generator writes the order entries with
 * those triggers off and posts them here in three statements by the same rule (`Journal_post_entry`
 * as it reads in the schema), then checks what the commit-time triggers would have checked, in one
 * pass: every order entry posted once, every journal entry of at least two lines summing to zero, a
 * room charge's nights summing to it. The night audit's trial balance checks the rest (each bill's
 * ledgers equal to its entries, each customer's balance) on the days the benchmark closes.
 *
 * What makes the rule simple here, checked first: no tax rules (`OrderEntry_tax_added` and
 * `JournalLine_tax` add nothing), no day closed and no audit hour (the business date is the calendar
 * date, every night still open), no kept day sums to forget, and every bill's visit begun (the
 * generator's bills are those of stays that came: their ledger is the guest's, no deposit ledger to
 * move). A room charge's nights are the schema's own `Journal_even_nights`. The bills left owing
 * move to receivables afterwards, by the schema's trigger (`Folio_owing_journal`), as before.
 */
import type pg from 'pg';

/** The triggers this file stands in for while the generator writes the ledger. */
const STAND_IN = {
  OrderEntry: ['OrderEntry_journal', 'OrderEntry_is_posted', 'OrderEntry_tax_added'],
  JournalEntry: ['JournalEntry_business_date', 'JournalEntry_forget_day_sums', 'JournalEntry_balances'],
  JournalLine: ['JournalLine_tax', 'JournalLine_balances'],
};

/** Turns the journal's triggers off (before the order entries are written) or on again (after `postJournal`). */
export async function journalTriggers(client: pg.Client, on: boolean): Promise<void> {
  for (const [table, triggers] of Object.entries(STAND_IN))
    await client.query(`ALTER TABLE "${table}" ${triggers.map((t) => `${on ? 'ENABLE' : 'DISABLE'} TRIGGER "${t}"`).join(', ')}`);
}

type Step = (client: pg.Client, label: string, sql: string, values?: unknown[]) => Promise<number>;

/** Posts every order entry of the hotel to the journal (see the head of this file), then checks it. */
export async function postJournal(client: pg.Client, hotelId: number, step: Step): Promise<void> {
  const {
    rows: [pre],
  } = await client.query<{ taxes: number; closed: number; sums: number; audit: string | null; posted: number; unbegun: number }>(
    // unbegun: bills of visits not begun, or of visits of more than one stay (the generator makes neither)
    `SELECT (SELECT count(*) FROM "TaxRule" WHERE "hotelId" = $1)::int AS taxes, (SELECT count(*) FROM "DayClose" WHERE "hotelId" = $1)::int AS closed,
            (SELECT count(*) FROM "LedgerDaySum" WHERE "hotelId" = $1)::int AS sums, (SELECT "dayCloseTime" FROM "Hotel" WHERE "id" = $1) AS audit,
            (SELECT count(*) FROM "JournalEntry" WHERE "hotelId" = $1)::int AS posted,
            (SELECT count(*) FROM "Folio" f JOIN "Stay" s ON s."id" = f."stayId" WHERE f."hotelId" = $1 AND s."status" NOT IN ('in_house', 'expired', 'moved', 'checked_out'))::int
              + (SELECT count(*) FROM "Stay" s WHERE s."hotelId" = $1 AND s."visitStayId" <> s."id")::int AS unbegun`,
    [hotelId],
  );
  if (pre!.taxes || pre!.closed || pre!.sums || pre!.audit !== null || pre!.posted || pre!.unbegun)
    throw new Error(`The journal cannot be posted set-based: ${JSON.stringify(pre)}`);
  // Each statement planned on the tables as they now are (a join of 13.5 million entries planned on
  // an empty table's statistics spilled its hash to disk for minutes).
  await client.query(`ANALYZE "OrderEntry"`);
  await step(
    client,
    'JournalEntry',
    `INSERT INTO "JournalEntry" ("hotelId", "orderEntryId", "folioId", "source", "businessDate", "postedAt")
     SELECT oe."hotelId", oe."id", oe."folioId", 'order', to_char(oe."createdAt" AT TIME ZONE h."timeZone", 'YYYY-MM-DD'), oe."createdAt"
       FROM "OrderEntry" oe JOIN "Hotel" h ON h."id" = oe."hotelId" WHERE oe."hotelId" = $1 ORDER BY oe."id"`,
    [hotelId],
  );
  await client.query(`ANALYZE "JournalEntry"`);
  // Journal_post_entry's lines, a kind at a time; a folio's ledger is the guest's (every visit begun, none owing yet).
  await step(
    client,
    'JournalLine',
    `INSERT INTO "JournalLine" ("hotelId", "journalEntryId", "account", "folioId", "customerId", "method", "shiftId", "serviceDate", "amount")
     SELECT oe."hotelId", je."id", l.account::"LedgerAccount", l.folio, l.customer, l.method, l.shift, l.night, l.amount
       FROM "OrderEntry" oe JOIN "JournalEntry" je ON je."hotelId" = oe."hotelId" AND je."orderEntryId" = oe."id"
       CROSS JOIN LATERAL (
         SELECT 'guest' AS account, oe."folioId" AS folio, NULL::int AS customer, NULL::"PaymentMethod" AS method, NULL::int AS shift, NULL::text AS night, -oe."amount" AS amount
          WHERE oe."kind" IN ('room_charge', 'charge')
         UNION ALL
         SELECT 'revenue_rooms', NULL, NULL, NULL, NULL, n->>'date', -(n->>'amount')::bigint
           FROM jsonb_array_elements(CASE WHEN oe."kind" = 'room_charge' THEN coalesce(oe."nights", "Journal_even_nights"(oe)) ELSE '[]'::jsonb END) n
          WHERE (n->>'amount')::bigint <> 0
         UNION ALL
         SELECT 'revenue_extras', NULL, NULL, NULL, NULL, NULL, oe."amount" WHERE oe."kind" = 'charge'
         UNION ALL -- money received or paid back: the way it moved (or a customer's balance) against the folio (or the customer's balance)
         SELECT CASE WHEN oe."method" = 'balance' THEN 'customer_balance' ELSE 'money' END, NULL, CASE WHEN oe."method" = 'balance' THEN oe."customerId" END,
                CASE WHEN oe."method" <> 'balance' THEN oe."method" END, CASE WHEN oe."method" <> 'balance' THEN oe."shiftId" END, NULL, oe."amount"
          WHERE oe."kind" IN ('deposit', 'payment', 'recharge', 'refund')
         UNION ALL
         SELECT CASE WHEN oe."folioId" IS NOT NULL THEN 'guest' ELSE 'customer_balance' END, oe."folioId", CASE WHEN oe."folioId" IS NULL THEN oe."customerId" END,
                NULL, NULL, NULL, -oe."amount"
          WHERE oe."kind" IN ('deposit', 'payment', 'recharge', 'refund')
       ) l
      WHERE oe."hotelId" = $1 AND oe."kind" <> 'correction'`,
    [hotelId],
  );
  await client.query(`ANALYZE "JournalLine"`);
  // A correction: the exact reverse of the lines of the entry it corrects.
  await step(
    client,
    'JournalLine (corrections)',
    `INSERT INTO "JournalLine" ("hotelId", "journalEntryId", "account", "folioId", "customerId", "method", "shiftId", "serviceDate", "amount")
     SELECT oe."hotelId", je."id", CASE WHEN l."account" IN ('guest', 'deposit', 'receivable') THEN 'guest'::"LedgerAccount" ELSE l."account" END,
            l."folioId", l."customerId", l."method", l."shiftId", l."serviceDate", -l."amount"
       FROM "OrderEntry" oe JOIN "JournalEntry" je ON je."hotelId" = oe."hotelId" AND je."orderEntryId" = oe."id"
       JOIN "JournalEntry" le ON le."hotelId" = oe."hotelId" AND le."orderEntryId" = oe."linkedEntryId"
       JOIN "JournalLine" l ON l."journalEntryId" = le."id"
      WHERE oe."hotelId" = $1 AND oe."kind" = 'correction'`,
    [hotelId],
  );
  const {
    rows: [post],
  } = await client.query<{ entries: number; unposted: number; unbalanced: number; nights_off: number }>(
    `SELECT count(*)::int AS entries, count(*) FILTER (WHERE x.journal IS NULL)::int AS unposted,
            count(*) FILTER (WHERE x.journal IS NOT NULL AND (x.n < 2 OR x.total <> 0))::int AS unbalanced,
            count(*) FILTER (WHERE x.kind = 'room_charge' AND x.rooms <> x.amount)::int AS nights_off
       FROM (SELECT oe."id", min(oe."kind"::text) AS kind, min(oe."amount") AS amount, min(je."id") AS journal, count(l."id") AS n,
                    coalesce(sum(l."amount"), 0) AS total, coalesce(sum(l."amount") FILTER (WHERE l."account" = 'revenue_rooms'), 0) AS rooms
               FROM "OrderEntry" oe LEFT JOIN "JournalEntry" je ON je."hotelId" = oe."hotelId" AND je."orderEntryId" = oe."id"
               LEFT JOIN "JournalLine" l ON l."journalEntryId" = je."id"
              WHERE oe."hotelId" = $1 GROUP BY oe."id") x`,
    [hotelId],
  );
  if (post!.unposted || post!.unbalanced || post!.nights_off)
    throw new Error(
      `The journal written set-based: of ${post!.entries} order entries ${post!.unposted} not posted, ${post!.unbalanced} posted unbalanced, ${post!.nights_off} room charges whose nights do not sum to them`,
    );
}
