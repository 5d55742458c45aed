import type { Deps } from '../../context';
import type { TtlockNotification } from '../../infra/locks/ttlock';
import { lockMessages } from './lock-status';
import { ingestLockRecords } from './records';

/**
 * What the lock cloud's notifications change (http/lock-callback.ts): records are stored; a
 * gateway or a WiFi lock going online or offline changes the status of the locks it concerns
 * (with a lock message when that is news); a door sensor's open, closed and left-open become lock
 * messages of the room whose lock it is paired with (open and closed are notes, already read; left
 * open is an alarm). Each is attributed through the Lock row of the id it names, the one hotel
 * that imported that lock; a notification about a lock, gateway or sensor no hotel has changes
 * nothing.
 */
export async function handleLockNotification(deps: Deps, n: TtlockNotification): Promise<Record<string, number | string>> {
  const provider = deps.locks?.name ?? 'ttlock';
  switch (n.type) {
    case 'records': {
      const result = await ingestLockRecords(deps, n.records, { callback: true });
      return { ...result, refused: n.refused };
    }
    case 'gateway': {
      const locks = await deps.prisma.lock.findMany({
        where: { provider, gatewayId: n.gatewayId, goneAt: null, isWifi: false },
        select: { id: true, hotelId: true, online: true },
      });
      for (const lock of locks) {
        await deps.prisma.lock.update({ where: { id: lock.id }, data: { gatewayOnline: n.online, online: n.online, statusCheckedAt: new Date() } });
        if (lock.online !== n.online) await lockMessages(deps, lock, [{ kind: n.online ? 'lock_online' : 'lock_offline', content: '' }]);
      }
      return { locks: locks.length };
    }
    case 'wifi_lock': {
      const lock = await deps.prisma.lock.findUnique({
        where: { provider_providerLockId: { provider, providerLockId: n.lockId } },
        select: { id: true, hotelId: true, online: true },
      });
      if (!lock) return { locks: 0 };
      await deps.prisma.lock.update({
        where: { id: lock.id },
        data: { online: n.online, isWifi: true, statusCheckedAt: new Date(), ...(n.online ? { lastSeenAt: new Date() } : {}) },
      });
      if (lock.online !== n.online) await lockMessages(deps, lock, [{ kind: n.online ? 'lock_online' : 'lock_offline', content: '' }]);
      return { locks: 1 };
    }
    case 'door_sensor': {
      const locks = await deps.prisma.lock.findMany({ where: { provider, doorSensorId: n.doorSensorId, goneAt: null }, select: { id: true, hotelId: true } });
      const kind = n.state === 'left_open' ? 'door_left_open' : n.state === 'open' ? 'door_open' : 'door_closed';
      for (const lock of locks) await lockMessages(deps, lock, [{ kind, content: '', read: n.state !== 'left_open' }]);
      return { locks: locks.length };
    }
    case 'async_failure':
      deps.log.warn({ lockId: n.lockId, errcode: n.errcode }, 'the lock cloud says a WiFi lock request failed');
      return { locks: 0 };
    default:
      return { ignored: n.notifyType };
  }
}
