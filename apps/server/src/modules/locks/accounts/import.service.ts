import { ZLockAccountIdInput } from '@console/shared';
import type { z } from 'zod';
import type { Actor, AuthedContext, ServiceContext } from '../../../context';
import { transaction } from '../../../db/transaction';
import { AppError } from '../../../errors';
import { LockProviderError, type DoorSensor, type LockSummary } from '../../../infra/locks/provider';
import { requirePermission, requireSession } from '../../../permissions';
import { recordAudit } from '../../audit/audit.service';
import { markLocksGone } from '../lock-status';
import { usableProvider } from '../../lock-cloud/account-provider';
import { ACCOUNT_ROW_SELECT, type AccountRow } from '../../base/lock-ref';
import { recordEvent } from '../../../db/events';
import { lockFailed } from '../../base/lock-failure';

/**
 * "Get locks" (docs/ttlock-account.md, docs/seam.md): the account's locks (TTLock lock/list, paged;
 * lock/listByHotel for a TTHotel account; Seam's locks/list), its gateways and which locks each hears, and the door sensors of the
 * locks that have one, into the hotel's Lock rows: name, alias, MAC, battery, gateway, keypad (and
 * which codes it takes), card reader, face module. A lock another hotel of this install already has is not taken (a lock
 * belongs to one hotel); locks gone from the account are marked and their rooms warned. Locks are
 * then paired with rooms (pairing.service.ts).
 */

export interface ImportResult {
  /** Locks the account holds. */
  total: number;
  added: number;
  updated: number;
  /** Locks of the hotel from this account that the account no longer holds. */
  gone: number;
  /** Locks the account holds that belong to another hotel of this install: not taken. */
  elsewhere: number;
}

/** TTLock's link of a gateway to a lock lasts 30 minutes after it last heard the lock. */
const LINK_FRESH_MS = 30 * 60_000;

export async function importLocks(ctx: AuthedContext, raw: z.input<typeof ZLockAccountIdInput>): Promise<ImportResult> {
  requireSession(ctx.actor);
  requirePermission(ctx.actor, 'lock.accounts');
  const { accountId } = ZLockAccountIdInput.parse(raw);
  const account = await ctx.deps.prisma.lockAccount.findFirst({ where: { id: accountId, hotelId: ctx.actor.hotelId }, select: ACCOUNT_ROW_SELECT });
  if (!account) throw new AppError('NOT_FOUND', { messageKey: 'lockAccounts.errors.notFound' });
  return importAccountLocks(ctx, account);
}

/** The import of one account of a hotel, for a person (importLocks) or the demo's start. */
export async function importAccountLocks(ctx: ServiceContext & { actor?: Actor }, account: AccountRow): Promise<ImportResult> {
  const hotelId = account.hotelId;
  if (!ctx.deps.locks) throw new AppError('LOCK_FAILED', { messageKey: 'credentials.errors.no_provider' });
  const now = new Date();

  let locks: LockSummary[];
  // The account's platform (`ttlock`, `seam`) names its locks' ids; simulated once its first call answered.
  let platform: { name: string; simulated: boolean };
  const best = new Map<string, { gatewayId: string; name: string; online: boolean; rssi: number; seenAt: Date | null }>();
  const sensors = new Map<string, DoorSensor>();
  try {
    const provider = usableProvider(ctx.deps, account);
    locks = await provider.listLocks();
    platform = { name: provider.name, simulated: provider.simulated };
    for (const g of await provider.listGateways()) {
      for (const link of await provider.gatewayLocks(g.gatewayId)) {
        const candidate = { gatewayId: g.gatewayId, name: g.name, online: g.online, rssi: link.rssi ?? -999, seenAt: link.seenAt };
        const known = best.get(link.lockId);
        if (!known || (candidate.online && !known.online) || (candidate.online === known.online && candidate.rssi > known.rssi))
          best.set(link.lockId, candidate);
      }
    }
    for (const lock of locks.filter((l) => l.capabilities.doorSensor)) {
      const sensor = await provider.doorSensor(lock.lockId);
      if (sensor) sensors.set(lock.lockId, sensor);
    }
  } catch (error) {
    if (!(error instanceof LockProviderError)) throw error;
    throw lockFailed(error, 'lockAccounts.errors.importFailed');
  }

  const result = await transaction(ctx.deps, async (tx) => {
    // One import of an account at a time (two "get locks" at once queue here).
    await tx.$queryRaw`SELECT "id" FROM "LockAccount" WHERE "id" = ${account.id} FOR UPDATE`;
    const ids = locks.map((l) => l.lockId);
    const known = await tx.lock.findMany({
      where: { provider: platform.name, providerLockId: { in: ids } },
      select: { id: true, hotelId: true, providerLockId: true },
    });
    const byId = new Map(known.map((k) => [k.providerLockId, k]));
    const r: ImportResult = { total: locks.length, added: 0, updated: 0, gone: 0, elsewhere: 0 };
    for (const lock of locks) {
      const link = best.get(lock.lockId);
      const linked = link && (!link.seenAt || now.getTime() - link.seenAt.getTime() < LINK_FRESH_MS) ? link : undefined;
      const data = {
        accountId: account.id,
        name: lock.name,
        alias: lock.alias,
        mac: lock.mac,
        simulated: platform.simulated,
        battery: lock.battery,
        hasKeypad: lock.capabilities.keypad,
        hasCardReader: lock.capabilities.cardReader,
        hasFaceModule: lock.capabilities.faceModule,
        onlinePasscodes: lock.capabilities.onlinePasscodes,
        offlinePasscodes: lock.capabilities.offlinePasscodes,
        keypadWithoutZero: lock.capabilities.keypadWithoutZero,
        backupCodePool: lock.capabilities.backupCodePool,
        offlineFirstUse: lock.capabilities.offlineFirstUse,
        encodedCards: lock.capabilities.encodedCards,
        remoteUnlock: lock.capabilities.remoteUnlock,
        building: lock.building,
        floor: lock.floor,
        doorSensorId: sensors.get(lock.lockId)?.doorSensorId ?? null,
        gatewayId: linked?.gatewayId ?? null,
        gatewayName: linked?.name ?? null,
        gatewayOnline: linked ? linked.online : null,
        online: linked ? linked.online : null,
        ...(linked?.seenAt ? { lastSeenAt: linked.seenAt } : {}),
        statusCheckedAt: now,
        statusError: null,
        goneAt: null,
        importedAt: now,
      };
      const existing = byId.get(lock.lockId);
      if (existing && existing.hotelId !== hotelId) {
        r.elsewhere += 1;
        continue;
      }
      if (existing) {
        await tx.lock.update({ where: { id: existing.id }, data });
        r.updated += 1;
        continue;
      }
      // Another hotel importing the same lock at this moment: whichever commits first has it.
      const created = await tx.lock.createManyAndReturn({
        data: [{ hotelId, provider: platform.name, providerLockId: lock.lockId, ...data }],
        skipDuplicates: true,
        select: { id: true },
      });
      if (created.length) r.added += 1;
      else r.elsewhere += 1;
    }
    const goneLocks = await tx.lock.findMany({
      where: { hotelId, accountId: account.id, goneAt: null, providerLockId: { notIn: ids } },
      select: { id: true, hotelId: true },
    });
    r.gone = goneLocks.length;
    await tx.lockAccount.update({ where: { id: account.id }, data: { importedAt: now, linksReadAt: now, locksReadAt: now } });
    await recordAudit(tx, ctx, { action: 'lockAccount.import', hotelId, entityType: 'LockAccount', entityId: account.id, after: { ...r } });
    await recordEvent(tx, { hotelId, kind: 'lock.changed' });
    return { r, goneLocks };
  });
  // Marked gone after the import's transaction, their rooms told: the lock is no longer in the account (another lock is needed).
  await markLocksGone(ctx.deps, result.goneLocks, now);
  return result.r;
}
