import { addDays, localDate } from '@console/shared';
import type { Deps } from '../../context';
import { lockLedgerDay } from '../../db/ledger-day-lock';
import { transaction } from '../../db/transaction';
import { hotelDay } from '../orders/cash-lines';
import { businessDateOf } from '../journal/business-date';
import { keepCheckpoint } from '../journal/ledger-checkpoint';
import { entrySums, extrasByDay, standingByDay, type DayExtras, type EntrySum, type Standing } from './day-figures';

// The ledger's sums of the days that are over and what the hotel stood at at their end, kept once
// (LedgerDaySum) and read by every later report of those days; the install's sweep keeps yesterday's on time.

/** A day's kept figures: its entries summed, its other revenue and taxes, and its bills owing and deposits held at its end. */
export interface KeptDays {
  sums: EntrySum[][];
  stands: Standing[];
  extras: DayExtras[];
}

/**
 * The ledger's sums of consecutive business dates (`dates`, day k's bounds being [bounds[k],
 * bounds[k+1]), kept beside them) and what the hotel stood at at each one's end: a date before the
 * open business date is computed once and kept (LedgerDaySum, migrations 20261209051000 and
 * 20261220110000), since nothing is posted on it any more (the ledger is append-only, an entry is
 * dated by the business date when it is written) and a bill settled or left owing later is so from
 * later on; the others are computed each time. Before computing a date to keep, the day lock is taken
 * and let go at once: every entry dated before now has then been committed (db/ledger-day-lock.ts),
 * so none of a kept day's is missing. An entry posted later on a kept date all the same (an import)
 * removes its day's kept row in the database (JournalEntry_forget_day_sums).
 */
export async function keptDays(deps: Deps, hotelId: number, dates: string[], bounds: Date[]): Promise<KeptDays> {
  const { prisma } = deps;
  const kept = await prisma.ledgerDaySum.findMany({ where: { hotelId, date: { in: dates } } });
  const keptOn = new Map(kept.map((k) => [k.date, k]));
  const sums: (EntrySum[] | undefined)[] = dates.map((date) => keptOn.get(date)?.sums as unknown as EntrySum[] | undefined);
  const stands: (Standing | undefined)[] = dates.map((date) => (keptOn.get(date)?.standing ?? undefined) as unknown as Standing | undefined);
  const extras: (DayExtras | undefined)[] = dates.map((date) => (keptOn.get(date)?.extras ?? undefined) as unknown as DayExtras | undefined);
  const missing = dates.flatMap((_, k) => (sums[k] && stands[k] && extras[k] ? [] : [k]));
  if (!missing.length) return { sums: sums as EntrySum[][], stands: stands as Standing[], extras: extras as DayExtras[] };
  const open = await businessDateOf(prisma, hotelId);
  const over = missing.filter((k) => dates[k]! < open);
  if (over.length) await transaction(deps, (tx) => lockLedgerDay(tx, hotelId));
  const noSums = missing.filter((k) => !sums[k]);
  const noStand = missing.filter((k) => !stands[k]);
  const noExtras = missing.filter((k) => !extras[k]);
  const [summed, stood, extra] = await Promise.all([
    noSums.length ? entrySums(prisma, hotelId, dates.slice(noSums[0]!, noSums[noSums.length - 1]! + 1)) : [],
    noStand.length
      ? standingByDay(
          prisma,
          hotelId,
          noStand.map((k) => dates[k]!),
          noStand.map((k) => bounds[k + 1]!),
        )
      : [],
    extrasByDay(
      prisma,
      hotelId,
      noExtras.map((k) => dates[k]!),
    ),
  ]);
  summed.forEach((d, j) => (sums[noSums[0]! + j] ??= d));
  noStand.forEach((k, j) => (stands[k] = stood[j]));
  noExtras.forEach((k, j) => (extras[k] = extra[j]));
  if (over.length) {
    await prisma.$executeRawUnsafe(
      `INSERT INTO "LedgerDaySum" ("hotelId", "date", "dayStart", "dayEnd", "sums", "standing", "extras")
       SELECT $1, d.date, d.start, d.end, d.sums, d.standing, d.extras
         FROM unnest($2::text[], $3::timestamptz[], $4::timestamptz[], $5::jsonb[], $6::jsonb[], $7::jsonb[]) AS d(date, start, "end", sums, standing, extras)
       ON CONFLICT ("hotelId", "date") DO UPDATE SET "dayStart" = excluded."dayStart", "dayEnd" = excluded."dayEnd", "sums" = excluded."sums",
         "standing" = excluded."standing", "extras" = excluded."extras", "createdAt" = now()`,
      hotelId,
      over.map((k) => dates[k]!),
      over.map((k) => bounds[k]!),
      over.map((k) => bounds[k + 1]!),
      over.map((k) => JSON.stringify(sums[k]!)),
      over.map((k) => JSON.stringify(stands[k]!)),
      over.map((k) => JSON.stringify(extras[k]!)),
    );
  }
  return { sums: sums as EntrySum[][], stands: stands as Standing[], extras: extras as DayExtras[] };
}

/**
 * The day before today of the hotels whose ledger has entries, summed and kept by the install's sweep
 * (`keptDays`) once the business date has passed it, unless closed: a month's report then reads
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
    await keptDays(deps, hotel.id, [yesterdays[k]!], [from, to]);
    // And the books' checkpoint of that day, where the next trial balances start (a closed day has the close's).
    await keepCheckpoint(deps, hotel.id, yesterdays[k]!);
    summed += 1;
  }
  return summed;
}
