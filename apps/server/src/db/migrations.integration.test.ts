import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { Prisma } from '../generated/prisma/client';
import { createPrisma } from './client';
import { applyMigrations, readMigrations } from './migrate';
import { draftMigrationSql } from './schema-diff';
import { createScratchDatabase } from './scratch-database';

/** Constraints and indexes Prisma cannot express, written by hand in the migrations. */
const HAND_WRITTEN_CONSTRAINT_TYPES = ['c', 'x', 't'];
const HAND_WRITTEN_INDEXES = [
  'LockPassword_delivery_work_idx',
  // One tax rule in force a kind of revenue (migration 20261214300000_taxes).
  'TaxRule_in_force_key',
  // A charge's taxes added on top, found to correct them with it (migration 20261215100000_added_taxes).
  'OrderEntry_hotelId_taxedEntryId_idx',
  // One invoice standing per bill, one credit note per invoice (migration 20261215200000_invoices).
  'Invoice_standing_key',
  'Invoice_one_credit_key',
  'CardGrant_delivery_work_idx',
  'FaceAuthorization_delivery_work_idx',
  'Fingerprint_delivery_work_idx',
  'FaceAuthorization_live_face_room_key',
  'FaceAuthorization_live_face_door_key',
  'CardEncryption_active_key',
  'CardIssue_issued_card_key',
  'CardIssue_reserved_card_key',
  'CardGrant_denylist_prune_idx',
  'LockCardKeys_delivery_work_idx',
  'AuditLog_hotel_action_c_idx',
  'LockPassword_delivery_failed_idx',
  'FaceAuthorization_delivery_failed_idx',
  'CardGrant_delivery_failed_idx',
  'Stay_active_day_idx',
  'Stay_not_come_idx',
  'Stay_no_show_idx',
  'WebhookEndpoint_enabled_idx',
  'WebhookDelivery_endpoint_event_key',
  'WebhookDelivery_pending_resource_idx',
  'OrderEntry_one_correction_key',
  'Folio_hotelId_owing_idx',
  'AuditLog_hotel_actor_account_idx',
  'AuditLog_hotel_actor_type_idx',
  'AuditLog_hotel_channel_idx',
  'Stay_no_overlap',
  'Room_hotelId_name_active_key',
  'Room_lockId_active_key',
  'Room_name_trgm_idx',
  'Room_remarkName_trgm_idx',
  'Stay_guestSearch_trgm_idx',
  'LockPassword_live_code_key',
  'AccessRule_hotel_default_key',
  'LockPassword_live_door_code_key',
  'CardGrant_live_issue_door_key',
  'KeyLink_live_key',
  'LockManager_member_key',
  'LockManager_person_key',
  'CashierShift_one_open_key',
  'GuestMessage_pending_again_key',
  'Stay_night_idx',
  'Folio_hotelId_open_idx',
  'CalendarFeedBooking_identity_key',
  // Room revenue by the night it is for (20261210100000_journal).
  'JournalLine_hotelId_serviceDate_idx',
  // A member's balance lines, for the trial balance since a checkpoint (20261220130000_journal_customer_index).
  'JournalLine_hotelId_customerId_idx',
  'Folio_hotelId_settledAt_idx',
  // The search box's substrings (20261208200000_search_indexes).
  'StayGuest_name_trgm_idx',
  'StayGuest_mobile_trgm_idx',
  'StayGuest_idNumber_trgm_idx',
  'Card_cardNumber_trgm_idx',
  'Card_uid_trgm_idx',
  'CalendarFeedBooking_uid_trgm_idx',
  'CalendarFeedBooking_reference_trgm_idx',
  // Housekeeping (20261209100000_housekeeping): a room's out-of-order ranges never overlap.
  'RoomOutOfOrder_no_overlap',
  // Keys that follow the rota (20261209150000_attendant_keys).
  'LockPassword_live_attendant_key',
  'LockPassword_attendant_idx',
];

async function describeDatabase(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const columns = await client.query(`
      SELECT table_name, column_name, data_type, udt_name, is_nullable, column_default,
             character_maximum_length, numeric_precision, numeric_scale, datetime_precision
      FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'
      ORDER BY table_name, column_name`);
    const enums = await client.query(`
      SELECT t.typname AS name, array_agg(e.enumlabel ORDER BY e.enumsortorder) AS labels
      FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid JOIN pg_namespace n ON n.oid = t.typnamespace
      WHERE n.nspname = 'public' GROUP BY t.typname ORDER BY t.typname`);
    const constraints = await client.query(`
      SELECT c.conrelid::regclass::text AS table_name, c.conname, c.contype, pg_get_constraintdef(c.oid) AS definition
      FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
      WHERE n.nspname = 'public' AND c.conrelid <> 0 AND c.conrelid::regclass::text NOT IN ('_prisma_migrations', '"_prisma_migrations"')
      ORDER BY 1, 2`);
    const indexes = await client.query(`
      SELECT tablename, indexname, indexdef FROM pg_indexes
      WHERE schemaname = 'public' AND tablename <> '_prisma_migrations' ORDER BY 1, 2`);
    return { columns: columns.rows, enums: enums.rows, constraints: constraints.rows, indexes: indexes.rows };
  } finally {
    await client.end();
  }
}

describe('migrations and schema.prisma', () => {
  const adminUrl = inject('adminDatabaseUrl');
  let fromMigrations: Awaited<ReturnType<typeof createScratchDatabase>>;
  let fromPrisma: Awaited<ReturnType<typeof createScratchDatabase>>;

  beforeAll(async () => {
    [fromMigrations, fromPrisma] = await Promise.all([createScratchDatabase(adminUrl, 'mig'), createScratchDatabase(adminUrl, 'psl')]);
    await applyMigrations(fromMigrations.url);
    const prismaSql = await draftMigrationSql(adminUrl);
    const client = new pg.Client({ connectionString: fromPrisma.url });
    await client.connect();
    await client.query(prismaSql);
    await client.end();
  });
  afterAll(async () => {
    await Promise.all([fromMigrations?.drop(), fromPrisma?.drop()]);
  });

  it('build the same tables, columns, enums, keys and indexes as Prisma would from schema.prisma', async () => {
    const [a, b] = await Promise.all([describeDatabase(fromMigrations.url), describeDatabase(fromPrisma.url)]);
    const prismaShaped = <T extends { contype?: string; indexname?: string }>(rows: T[]) =>
      rows.filter((r) => !HAND_WRITTEN_CONSTRAINT_TYPES.includes(r.contype ?? '') && !HAND_WRITTEN_INDEXES.includes(r.indexname ?? ''));
    expect(a.columns).toEqual(b.columns);
    expect(a.enums).toEqual(b.enums);
    expect(prismaShaped(a.constraints)).toEqual(b.constraints);
    expect(prismaShaped(a.indexes)).toEqual(b.indexes);
  });

  it('add the hand-written invariants: the stay exclusion constraint, CHECKs, the append-only ledger', async () => {
    const { constraints } = await describeDatabase(fromMigrations.url);
    const names = constraints.map((c) => c.conname);
    expect(constraints.find((c) => c.conname === 'Stay_no_overlap')?.definition).toMatch(/EXCLUDE USING gist/);
    expect(names).toEqual(
      expect.arrayContaining([
        'Stay_min_length',
        'Account_has_login',
        'CardEncryption_retired',
        'CardIssue_validity',
        'CardGrant_validity',
        'Face_required_fields',
        'Face_imageSha256_hex',
      ]),
    );
    // The orders ledger (20261123100000_orders_ledger): each kind's sign, links, reasons and ways of paying.
    expect(names).toEqual(
      expect.arrayContaining([
        'OrderEntry_amount_sign',
        'OrderEntry_link',
        'OrderEntry_reason',
        'OrderEntry_method',
        'OrderEntry_folio_of_stay',
        'OrderEntry_recharge_customer',
      ]),
    );
  });

  it('record every migration in _prisma_migrations as Prisma does, and apply nothing twice', async () => {
    const client = new pg.Client({ connectionString: fromMigrations.url });
    await client.connect();
    try {
      const { rows } = await client.query(
        'SELECT migration_name, checksum, finished_at, applied_steps_count, rolled_back_at FROM "_prisma_migrations" ORDER BY migration_name',
      );
      const files = readMigrations();
      expect(rows.map((r) => r.migration_name)).toEqual(files.map((f) => f.name));
      expect(rows.map((r) => r.checksum)).toEqual(files.map((f) => f.checksum));
      expect(rows.every((r) => r.finished_at !== null && r.rolled_back_at === null && r.applied_steps_count === 1)).toBe(true);
      expect(await applyMigrations(fromMigrations.url)).toEqual({ applied: [] });
    } finally {
      await client.end();
    }
  });

  it('let the Prisma client read every model', async () => {
    const prisma = createPrisma(fromMigrations.url, { max: 2 });
    try {
      for (const model of Object.values(Prisma.ModelName)) {
        const delegate = (prisma as unknown as Record<string, { findFirst(): Promise<unknown> }>)[model.charAt(0).toLowerCase() + model.slice(1)];
        await expect(delegate!.findFirst(), model).resolves.toBeNull();
      }
    } finally {
      await prisma.$disconnect();
    }
  });

  it('refuse overlapping active stays of one room in the database itself', async () => {
    const prisma = createPrisma(fromMigrations.url, { max: 2 });
    try {
      const hotel = await prisma.hotel.create({ data: { name: 'Overlap Hotel' } });
      const room = await prisma.room.create({ data: { hotelId: hotel.id, name: '101' } });
      const at = (h: number) => new Date(Date.UTC(2026, 5, 1, h));
      await prisma.stay.create({ data: { hotelId: hotel.id, roomId: room.id, status: 'in_house', checkInAt: at(12), expectedCheckOutAt: at(36) } });
      await expect(
        prisma.stay.create({ data: { hotelId: hotel.id, roomId: room.id, status: 'reserved', checkInAt: at(30), expectedCheckOutAt: at(40) } }),
      ).rejects.toThrow(/Stay_no_overlap/);
      // Touching periods do not overlap ([start, end)), and ended stays do not count.
      await prisma.stay.create({ data: { hotelId: hotel.id, roomId: room.id, status: 'reserved', checkInAt: at(36), expectedCheckOutAt: at(40) } });
      await prisma.stay.create({ data: { hotelId: hotel.id, roomId: room.id, status: 'checked_out', checkInAt: at(12), expectedCheckOutAt: at(40) } });
      // A stay of another hotel cannot point at this room (composite foreign key).
      const other = await prisma.hotel.create({ data: { name: 'Other Hotel' } });
      await expect(
        prisma.stay.create({ data: { hotelId: other.id, roomId: room.id, status: 'reserved', checkInAt: at(50), expectedCheckOutAt: at(60) } }),
      ).rejects.toThrow(/Foreign key constraint violated|Stay_hotelId_roomId_fkey/);
      // The order ledger is append-only.
      const customer = await prisma.customer.create({ data: { hotelId: hotel.id } });
      const entry = await prisma.orderEntry.create({
        data: { hotelId: hotel.id, kind: 'recharge', method: 'cash', amount: 100, currency: 'CNY', customerId: customer.id },
      });
      // Prisma words the trigger's restrict_violation as a foreign-key error; the database's own message is in the cause.
      const databaseMessage = (promise: Promise<unknown>) =>
        promise.then(
          () => 'no error',
          (e: { meta?: { driverAdapterError?: { cause?: { originalMessage?: string } } } }) => e.meta?.driverAdapterError?.cause?.originalMessage ?? String(e),
        );
      expect(await databaseMessage(prisma.orderEntry.update({ where: { id: entry.id }, data: { amount: 1 } }))).toBe('OrderEntry is append-only');
      expect(await databaseMessage(prisma.orderEntry.delete({ where: { id: entry.id } }))).toBe('OrderEntry is append-only');
    } finally {
      await prisma.$disconnect();
    }
  });
});

describe('migration 20261124090000_lock_accounts on a database with typed lock ids', () => {
  const adminUrl = inject('adminDatabaseUrl');
  let db: Awaited<ReturnType<typeof createScratchDatabase>>;
  let before: string;

  beforeAll(async () => {
    db = await createScratchDatabase(adminUrl, 'locks');
    // The migrations before it, as an install that has not had it yet.
    before = fs.mkdtempSync(path.join(os.tmpdir(), 'migrations-before-'));
    for (const m of readMigrations().filter((m) => m.name < '20261124090000')) {
      fs.mkdirSync(path.join(before, m.name));
      fs.writeFileSync(path.join(before, m.name, 'migration.sql'), m.sql);
    }
    await applyMigrations(db.url, { dir: before });
  });
  afterAll(async () => {
    await db?.drop();
    fs.rmSync(before, { recursive: true, force: true });
  });

  it("keeps each hotel's own pairings, undoes those of another hotel's lock (or one no hotel owns, or a second room of one lock), and reports them in the audit log", async () => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const one = async (sql: string, values: unknown[] = []) => (await client.query(sql, values)).rows[0] as Record<string, unknown>;
      const hotel = async (name: string) => (await one('INSERT INTO "Hotel" (name, "updatedAt") VALUES ($1, now()) RETURNING id', [name])).id as number;
      const room = async (hotelId: number, name: string, lockId: string | null) =>
        (await one('INSERT INTO "Room" ("hotelId", name, "lockId", "updatedAt") VALUES ($1, $2, $3, now()) RETURNING id', [hotelId, name, lockId]))
          .id as number;
      const a = await hotel('Hotel A');
      const b = await hotel('Hotel B');
      // A's lock 1001 (the status job made its row for A); B typed the same id.
      await client.query('INSERT INTO "Lock" ("hotelId", provider, "providerLockId", "updatedAt") VALUES ($1, \'ttlock\', \'1001\', now())', [a]);
      const a1 = await room(a, 'A1', '1001');
      const a2 = await room(a, 'A2', ' 1001 ');
      const b1 = await room(b, 'B1', '1001');
      // 2002: typed by A alone, never asked about: A's. 3003: typed by both, owned by none: undone for both.
      const a3 = await room(a, 'A3', '2002');
      const a4 = await room(a, 'A4', '3003');
      const b2 = await room(b, 'B2', '3003');
      const a5 = await room(a, 'A5', null);

      await applyMigrations(db.url);
      const rooms = new Map(
        (await client.query('SELECT r.id, l."providerLockId", l."hotelId" FROM "Room" r LEFT JOIN "Lock" l ON l.id = r."lockId"')).rows.map(
          (r: { id: number; providerLockId: string | null; hotelId: number | null }) => [r.id, r],
        ),
      );
      expect(rooms.get(a1)).toMatchObject({ providerLockId: '1001', hotelId: a });
      expect(rooms.get(a3)).toMatchObject({ providerLockId: '2002', hotelId: a });
      for (const undone of [a2, b1, a4, b2, a5]) expect(rooms.get(undone)?.providerLockId, String(undone)).toBeNull();
      const audit = (await client.query('SELECT "hotelId", "entityId", action, "actorType", before, after FROM "AuditLog" ORDER BY "entityId"::int')).rows;
      expect(audit).toEqual([
        {
          hotelId: a,
          entityId: String(a2),
          action: 'room.lockUnpaired',
          actorType: 'job',
          before: { lockId: '1001' },
          after: { reason: 'lock_shared_by_rooms' },
        },
        { hotelId: b, entityId: String(b1), action: 'room.lockUnpaired', actorType: 'job', before: { lockId: '1001' }, after: { reason: 'lock_not_in_hotel' } },
        { hotelId: a, entityId: String(a4), action: 'room.lockUnpaired', actorType: 'job', before: { lockId: '3003' }, after: { reason: 'lock_not_in_hotel' } },
        { hotelId: b, entityId: String(b2), action: 'room.lockUnpaired', actorType: 'job', before: { lockId: '3003' }, after: { reason: 'lock_not_in_hotel' } },
      ]);
      // No hint of the other hotel in what B's log says.
      expect(JSON.stringify(audit.filter((r: { hotelId: number }) => r.hotelId === b))).not.toContain('Hotel A');
      // From now on the database refuses a room of B pointing at A's lock.
      const aLock = (await one('SELECT id FROM "Lock" WHERE "providerLockId" = \'1001\'')).id;
      const aSpare = (
        await one('INSERT INTO "Lock" ("hotelId", provider, "providerLockId", "updatedAt") VALUES ($1, \'ttlock\', \'4004\', now()) RETURNING id', [a])
      ).id;
      await expect(client.query('UPDATE "Room" SET "lockId" = $1 WHERE id = $2', [aSpare, b1])).rejects.toThrow(/Room_hotelId_lockId_fkey/);
      // And a second room of A pointing at the lock A1's door already is.
      await expect(client.query('UPDATE "Room" SET "lockId" = $1 WHERE id = $2', [aLock, a2])).rejects.toThrow(/Room_lockId_active_key/);
    } finally {
      await client.end();
    }
  });
});
