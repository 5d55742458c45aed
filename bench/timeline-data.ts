import type pg from 'pg';

/**
 * The tape chart's hotel of bench/timeline.ts and bench/timeline-paint.ts, generated in SQL: 20 room
 * groups and `rooms` rooms over them (every 97th out of order); each room's last two years as past
 * stays (one every 10 days, 2 nights, checked out); and over the 60 days from `windowStartDaysAgo`
 * days ago 20 stays a room (2 nights, then a free night): those before now checked out (one in 40
 * with its bill left owing), the one over now in house, the later ones reserved (one in 5 from a
 * calendar feed); a primary guest on every stay of the window, a password on every active one (one
 * in 50 failed); an owner and a staff member limited to 5 % of the rooms. Every statement is set-based
 * (one INSERT ... SELECT a table): 1,000 rooms (93,000 stays) in 15 to 21 s, 10,000 rooms (930,000
 * stays) in 106 to 239 s on the shared 2-core machine, as loaded. `pastStays` (default 73, the two
 * years) cuts the history short: a smoke run keeps one past stay a room (BENCH_SMOKE, bench/lib.ts).
 */
export async function generateTapeHotel(
  client: pg.Client,
  { rooms: ROOMS, timeZone: TZ, windowStartDaysAgo, pastStays = 73 }: { rooms: number; timeZone: string; windowStartDaysAgo: number; pastStays?: number },
) {
  const {
    rows: [hotel],
  } = await client.query<{ id: number }>(`INSERT INTO "Hotel" ("name", "timeZone", "updatedAt") VALUES ('Bench Tape', $1, now()) RETURNING "id"`, [TZ]);
  const hotelId = hotel!.id;
  const account = async (mobile: string) =>
    (
      await client.query<{ id: number }>(
        `INSERT INTO "Account" ("mobile", "passwordHash", "nickname", "updatedAt") VALUES ($1, 'x', 'Bench', now()) RETURNING "id"`,
        [mobile],
      )
    ).rows[0]!.id;
  const ownerId = await account('13312345710');
  const staffId = await account('13312345711');
  await client.query(`INSERT INTO "Membership" ("accountId", "hotelId", "role", "updatedAt") VALUES ($1, $2, 'owner', now())`, [ownerId, hotelId]);
  await client.query(`INSERT INTO "RoomGroup" ("hotelId", "name", "sort", "updatedAt") SELECT $1, 'Floor ' || g, g, now() FROM generate_series(1, 20) g`, [
    hotelId,
  ]);
  await client.query(
    `INSERT INTO "Room" ("hotelId", "groupId", "name", "sortOrder", "usualPrice", "maintenance", "updatedAt")
     SELECT $1, (SELECT id FROM "RoomGroup" WHERE "hotelId" = $1 AND "sort" = 1 + (i % 20)), 'R' || lpad(i::text, 5, '0'), i, 20000,
            CASE WHEN i % 97 = 0 THEN 'out_of_order'::"MaintenanceStatus" ELSE 'none'::"MaintenanceStatus" END, now()
     FROM generate_series(1, ${ROOMS}) i`,
    [hotelId],
  );
  // History before the window: `pastStays` stays a room, one every 10 days (73 by default: two years).
  await client.query(
    `INSERT INTO "Stay" ("hotelId", "roomId", "status", "checkInAt", "expectedCheckOutAt", "checkedOutAt", "priceAmount", "updatedAt")
     SELECT $1, r.id, 'checked_out', d - interval '2 days', d, d, 40000, now()
     FROM "Room" r CROSS JOIN LATERAL (SELECT date_trunc('day', now()) - (${windowStartDaysAgo + 1} || ' days')::interval - (n * 10 || ' days')::interval AS d FROM generate_series(0, ${pastStays - 1}) n) x
     WHERE r."hotelId" = $1`,
    [hotelId],
  );
  // The window (from `windowStartDaysAgo` days ago, 60 days): 20 stays a room, 2 nights then a free night.
  await client.query(
    `INSERT INTO "Stay" ("hotelId", "roomId", "status", "checkInAt", "expectedCheckOutAt", "checkedOutAt", "priceAmount", "updatedAt")
     SELECT $1, r.id,
            CASE WHEN a + interval '2 days' <= now() THEN 'checked_out'::"StayStatus" WHEN a <= now() THEN 'in_house'::"StayStatus" ELSE 'reserved'::"StayStatus" END,
            a, a + interval '2 days', CASE WHEN a + interval '2 days' <= now() THEN a + interval '2 days' END, 40000, now()
     FROM "Room" r CROSS JOIN LATERAL (
       SELECT date_trunc('day', now()) - (${windowStartDaysAgo} || ' days')::interval + ((n * 3 + r.id % 3) || ' days')::interval + interval '6 hours' AS a FROM generate_series(0, 19) n) x
     WHERE r."hotelId" = $1`,
    [hotelId],
  );
  // A primary guest on each stay of the window (the history's are never read by the timeline: not made, which
  // halves the time to make 10,000 rooms).
  await client.query(
    `INSERT INTO "StayGuest" ("hotelId", "stayId", "isPrimary", "name") SELECT $1, s.id, true, 'Guest ' || s.id FROM "Stay" s
     WHERE s."hotelId" = $1 AND s."checkInAt" > now() - (${windowStartDaysAgo + 1} || ' days')::interval`,
    [hotelId],
  );
  await client.query(
    `INSERT INTO "Folio" ("hotelId", "stayId", "currency", "owedAt", "owedAmount", "owedReason")
     SELECT $1, s.id, 'CNY', s."checkedOutAt", 1000, 'company' FROM "Stay" s
     WHERE s."hotelId" = $1 AND s."status" = 'checked_out' AND s."checkInAt" > now() - (${windowStartDaysAgo + 1} || ' days')::interval AND s.id % 40 = 0`,
    [hotelId],
  );
  await client.query(
    `INSERT INTO "LockPassword" ("hotelId", "roomId", "stayId", "kind", "holderName", "code", "validFrom", "validUntil", "deliveryState", "updatedAt")
     SELECT $1, s."roomId", s."id", 'custom', 'Guest', lpad((s."id" % 1000000)::text, 6, '0'), s."checkInAt", s."expectedCheckOutAt",
            CASE WHEN s."id" % 50 = 0 THEN 'failed'::"DeliveryState" ELSE 'on_lock'::"DeliveryState" END, now()
     FROM "Stay" s WHERE s."hotelId" = $1 AND s."status" IN ('in_house', 'reserved')`,
    [hotelId],
  );
  const {
    rows: [feed],
  } = await client.query<{ id: number }>(
    `INSERT INTO "CalendarFeed" ("hotelId", "roomId", "label", "url", "updatedAt") SELECT $1, min(id), 'Airbnb', 'https://bench.test/a.ics', now() FROM "Room" WHERE "hotelId" = $1 RETURNING id`,
    [hotelId],
  );
  await client.query(
    `INSERT INTO "CalendarFeedBooking" ("hotelId", "feedId", "uid", "stayId", "state", "reference", "guestName", "startsAt", "endsAt", "updatedAt")
     SELECT $1, $2, 'b-' || s.id, s.id, 'booked', 'HM' || s.id, 'Guest', s."checkInAt", s."expectedCheckOutAt", now()
     FROM "Stay" s WHERE s."hotelId" = $1 AND s."status" = 'reserved' AND s.id % 5 = 0`,
    [hotelId, feed!.id],
  );
  const {
    rows: [m],
  } = await client.query<{ id: number }>(
    `INSERT INTO "Membership" ("accountId", "hotelId", "role", "allRooms", "updatedAt") VALUES ($1, $2, 'staff', false, now()) RETURNING "id"`,
    [staffId, hotelId],
  );
  await client.query(
    `INSERT INTO "MembershipRoom" ("hotelId", "membershipId", "roomId") SELECT $1, $2, r.id FROM "Room" r WHERE r."hotelId" = $1 AND r."sortOrder" % 20 = 0`,
    [hotelId, m!.id],
  );
  return { hotelId, ownerId, staffId };
}
