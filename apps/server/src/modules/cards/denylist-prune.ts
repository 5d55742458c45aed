import type { Deps } from '../../context';
import { LockProviderError } from '../../infra/locks/provider';
import { withGatewayMutex } from '../credentials/delivery';
import { providerForLock } from '../lock-cloud/account-provider';
import { LOCK_REF_SELECT, ROOM_LOCK_SELECT } from '../base/lock-ref';

/**
 * A lock's card denylist holds a limited number of entries (TTLock hotel locks: about a thousand;
 * a full one answers "storage full" and the next lost card could not be refused). A data card
 * taken off its lock is denylisted by the card id written on it; once the validity written on the
 * card is over, the lock refuses it anyway, so its entry comes off the denylist. A day's margin
 * covers a lock whose clock runs behind.
 */
export const DENYLIST_PRUNE_MARGIN_MS = 24 * 3_600_000;
/** Entries taken off per run (the rest on the next run: a gateway carries one command at a time). */
const BATCH = 200;

export interface PruneResult {
  pruned: number;
  /** Entries the lock could not be asked about now (busy, offline): tried again next time. */
  deferred: number;
}

/** Takes the denylist entries of expired data cards off their locks (run with the reconciliation). */
export async function pruneCardDenylists(deps: Deps, now = new Date()): Promise<PruneResult> {
  const result: PruneResult = { pruned: 0, deferred: 0 };
  if (!deps.locks) return result;
  const cutoff = new Date(now.getTime() - DENYLIST_PRUNE_MARGIN_MS);
  const rows = await deps.prisma.cardGrant.findMany({
    where: {
      medium: 'data',
      deliveryState: 'removed',
      denylistPrunedAt: null,
      validUntil: { lt: cutoff },
      issueId: { not: null },
      // What is written on the card: its end too must be over.
      issue: { validUntil: { lt: cutoff } },
    },
    select: { id: true, hotelId: true, issueId: true, room: { select: ROOM_LOCK_SELECT }, doorLockId: true, doorLock: { select: LOCK_REF_SELECT } },
    orderBy: { id: 'asc' },
    take: BATCH,
  });
  const done = async (id: number) => {
    await deps.prisma.cardGrant.update({ where: { id }, data: { denylistPrunedAt: now } });
    result.pruned += 1;
  };
  for (const row of rows) {
    // A grant on a shared door was denylisted on the door's lock.
    const lock = row.doorLockId !== null ? row.doorLock : (row.room?.lock ?? null);
    // The room's lock was unpaired: its card settings and denylist are cleared when it is paired again.
    if (!lock) {
      await done(row.id);
      continue;
    }
    try {
      const provider = await providerForLock(deps, lock);
      const answered = await withGatewayMutex(deps, lock.id, async () => {
        try {
          await provider.undenylistCard(lock.providerLockId, { cardId: row.issueId! });
        } catch (error) {
          // Not there (the lock was reset) or a lock without a denylist: nothing to take off.
          if (!(error instanceof LockProviderError) || (error.code !== 'credential_not_found' && error.code !== 'not_supported')) throw error;
        }
        return true;
      });
      if (answered) await done(row.id);
      else result.deferred += 1;
    } catch (error) {
      result.deferred += 1;
      deps.log.warn({ err: error, grantId: row.id, lockId: lock.providerLockId }, 'card denylist prune deferred');
    }
  }
  return result;
}
