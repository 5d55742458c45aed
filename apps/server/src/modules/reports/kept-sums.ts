import { addDays, localDate } from '@console/shared';
import type { Deps } from '../../context';
import { lockLedgerDay } from '../../db/ledger-day-lock';
import { transaction } from '../../db/transaction';
import { hotelDay } from '../orders/cash-lines';
import { businessDateOf } from '../journal/business-date';
import { keepCheckpoint } from '../journal/ledger-checkpoint';
import { entrySums, type EntrySum } from './day-figures';

// The ledger's sums of the days that are over, kept once (LedgerDaySum) and read by every later
// report of those days; the install's sweep sums yesterday's on time.

/**
 * The ledger's sums of consecutive business dates (`dates`, day k's bounds being [bounds[k],
 * bounds[k+1]), kept beside them): a date before the open business date is summed once and kept
 * (LedgerDaySum, migration 20261209051000), since nothing is posted on it any more (the ledger is
 * append-only, an entry is dated by the business date when it is written); the others are summed each
 * time. Before summing a date to keep, the day lock is taken and let go at once: every entry dated
 * before now has then been committed (db/ledger-day-lock.ts), so none of a kept day's is missing. An
 * entry posted later on a kept date all the same (an import) removes its day's kept sums in the
 * database (JournalEntry_forget_day_sums).
 */
export async function keptEntrySums(deps: Deps, hotelId: number, dates: string[], bounds: Date[]): Promise<EntrySum[][]> {
  const { prisma } = deps;
  const kept = await prisma.ledgerDaySum.findMany({ where: { hotelId, date: { in: dates } } });
  const keptOn = new Map(kept.map((k) => [k.date, k]));
  const days: (EntrySum[] | undefined)[] = dates.map((date) => keptOn.get(date)?.sums as unknown as EntrySum[] | undefined);
  const missing = days.flatMap((d, k) => (d ? [] : [k]));
  if (missing.length) {
    const first = missing[0]!;
    const last = missing[missing.length - 1]!;
    const open = await businessDateOf(prisma, hotelId);
    const over = missing.filter((k) => dates[k]! < open);
    if (over.length) await transaction(deps, (tx) => lockLedgerDay(tx, hotelId));
    const summed = await entrySums(prisma, hotelId, dates.slice(first, last + 1));
    summed.forEach((d, j) => (days[first + j] ??= d));
    if (over.length) {
      await prisma.$executeRawUnsafe(
        `INSERT INTO "LedgerDaySum" ("hotelId", "date", "dayStart", "dayEnd", "sums")
         SELECT $1, d.date, d.start, d.end, d.sums FROM unnest($2::text[], $3::timestamptz[], $4::timestamptz[], $5::jsonb[]) AS d(date, start, "end", sums)
         ON CONFLICT ("hotelId", "date") DO UPDATE SET "dayStart" = excluded."dayStart", "dayEnd" = excluded."dayEnd", "sums" = excluded."sums", "createdAt" = now()`,
        hotelId,
        over.map((k) => dates[k]!),
        over.map((k) => bounds[k]!),
        over.map((k) => bounds[k + 1]!),
        over.map((k) => JSON.stringify(days[k]!)),
      );
    }
  }
  return days.map((d) => d!);
}

/**
 * The day before today of the hotels whose ledger has entries, summed and kept by the install's sweep
 * (`keptEntrySums`) once the business date has passed it, unless closed: a month's report then reads
 * kept sums even the first time. Only yesterday: older days are summed the first time a report asks
 * for them. How many days it summed.
 */
export async function sumDaysOnTime(deps: Deps, now: Date, scope: { hotelId?: number } = {}): Promise<number> {
  const hotels = await deps.prisma.$queryRawUnsafe<{ id: number; timeZone: string }[]>(
    `SELECT h."id", h."timeZone" FROM "Hotel" h WHERE ($1::int IS NULL OR h."id" = $1) AND EXISTS (SELECT 1 FROM "OrderEntry" e WHERE e."hotelId" = h."id")`,
    scope.hotelId ?? null,
  );
  if (!hotels.length) return 0;
  const yesterdays = hotels.map((h) => addDays(localDate(now, h.timeZone), -1));
  const done = await deps.prisma.$queryRawUnsafe<{ hotelId: number }[]>(
    `SELECT d."hotelId" FROM unnest($1::int[], $2::text[]) AS d("hotelId", date)
      WHERE EXISTS (SELECT 1 FROM "LedgerDaySum" s WHERE s."hotelId" = d."hotelId" AND s."date" = d.date)
         OR EXISTS (SELECT 1 FROM "DayClose" c WHERE c."hotelId" = d."hotelId" AND c."date" = d.date)`,
    hotels.map((h) => h.id),
    yesterdays,
  );
  const skip = new Set(done.map((d) => d.hotelId));
  let summed = 0;
  for (const [k, hotel] of hotels.entries()) {
    if (skip.has(hotel.id)) continue;
    // In the night before the audit hour, yesterday is still the business date: not over.
    if ((await businessDateOf(deps.prisma, hotel.id, now)) <= yesterdays[k]!) continue;
    const { from, to } = hotelDay(yesterdays[k]!, hotel.timeZone);
    await keptEntrySums(deps, hotel.id, [yesterdays[k]!], [from, to]);
    // And the books' checkpoint of that day, where the next trial balances start (a closed day has the close's).
    await keepCheckpoint(deps, hotel.id, yesterdays[k]!);
    summed += 1;
  }
  return summed;
}
