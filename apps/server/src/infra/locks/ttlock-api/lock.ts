import { LockProviderError, type DoorSensor, type LockCapabilities, type LockStatus, type LockSummary } from '../provider';
import { list, num, str, PAGE, type Answer } from './http';
import { listGateways } from './gateway';
import type { TtlockSession } from './oauth';

/** Locks: the account's, one lock's detail, status and door sensor, and a remote unlock. */

/**
 * Bit `bit` of a TTLock feature value: a hexadecimal string whose bits, counted from the right
 * (TTLock's rule: bytes from the right, each byte's bits reversed), say what the lock supports.
 */
export function featureBit(featureValue: string, bit: number): boolean {
  if (!/^[0-9A-Fa-f]{1,64}$/.test(featureValue)) return false;
  return ((BigInt(`0x${featureValue}`) >> BigInt(bit)) & 1n) === 1n;
}

/** What a lock can take by its feature value; no feature value (an old cloud answer): passcodes and cards. */
export function capabilitiesOf(featureValue: string): LockCapabilities {
  // A keypad takes both kinds of passcode: a chosen one through the gateway (keyboardPwd/add) and
  // one the cloud computes without reaching the lock (keyboardPwd/get).
  if (!/^[0-9A-Fa-f]{1,64}$/.test(featureValue))
    return {
      keypad: true,
      cardReader: true,
      fingerprint: false,
      faceModule: false,
      remoteUnlock: true,
      doorSensor: false,
      onlinePasscodes: true,
      offlinePasscodes: true,
      keypadWithoutZero: false,
      backupCodePool: false,
      offlineFirstUse: true,
      encodedCards: false,
    };
  const bit = (n: number) => featureBit(featureValue, n);
  return {
    keypad: bit(0),
    cardReader: bit(1),
    fingerprint: bit(2),
    remoteUnlock: bit(10),
    doorSensor: bit(13),
    faceModule: bit(69) || bit(110),
    onlinePasscodes: bit(0),
    offlinePasscodes: bit(0),
    keypadWithoutZero: false,
    backupCodePool: false,
    offlineFirstUse: true,
    encodedCards: false,
  };
}

function summaryOf(item: Answer): LockSummary {
  const battery = num(item.electricQuantity);
  return {
    lockId: str(item.lockId),
    name: str(item.lockName),
    alias: str(item.lockAlias),
    mac: str(item.lockMac),
    battery: battery === null || battery < 0 || battery > 100 ? null : battery,
    hasGateway: num(item.hasGateway) === 1,
    capabilities: capabilitiesOf(str(item.featureValue)),
    building: str(item.buildingName),
    floor: str(item.floorName),
  };
}

export async function listLocks(s: TtlockSession): Promise<LockSummary[]> {
  const op = s.kind === 'tthotel' ? 'lock/listByHotel' : 'lock/list';
  const items = await s.all(op, {}, PAGE.locks, (i) => i.lockId);
  return items.map((i) => summaryOf(i)).filter((l) => /^\d{1,18}$/.test(l.lockId));
}

export async function lockDetail(s: TtlockSession, lockId: string): Promise<LockSummary> {
  const summary = summaryOf(await s.call('lock/detail', { lockId }, 'GET'));
  return { ...summary, lockId: summary.lockId || lockId };
}

/**
 * The lock, its best gateway (strongest signal) and whether that gateway is online. TTLock does
 * not say whether the lock itself answers: a lock is online here when a gateway that heard it
 * within TTLock's 30 minutes is online; one that stopped answering shows up on the next write
 * (lock_offline).
 */
export async function lockStatus(s: TtlockSession, lockId: string): Promise<LockStatus> {
  const detail = await s.call('lock/detail', { lockId }, 'GET');
  const linked = list(await s.call('gateway/listByLock', { lockId }, 'GET')).sort((a, b) => (num(b.rssi) ?? -999) - (num(a.rssi) ?? -999));
  const online = new Map<string, boolean>();
  if (linked.length > 0) {
    for (const g of await listGateways(s)) online.set(g.gatewayId, g.online);
  }
  const best = linked[0];
  const seen = linked.map((g) => num(g.rssiUpdateDate)).filter((d): d is number => d !== null && d > 0);
  const summary = summaryOf(detail);
  return {
    lockId: summary.lockId || lockId,
    name: summary.alias || summary.name,
    mac: summary.mac,
    battery: summary.battery,
    online: linked.some((g) => online.get(str(g.gatewayId)) === true),
    gateway: best ? { gatewayId: str(best.gatewayId), name: str(best.gatewayName), online: online.get(str(best.gatewayId)) === true } : null,
    lastSeenAt: seen.length > 0 ? new Date(Math.max(...seen)) : null,
  };
}

/** doorSensor/query, a read TTLock documents as a form POST (not a GET with a query, as its other reads). */
export async function doorSensor(s: TtlockSession, lockId: string): Promise<DoorSensor | null> {
  try {
    const answer = await s.call('doorSensor/query', { lockId }, 'POST');
    const id = str(answer.doorSensorId);
    if (!id) return null;
    const battery = num(answer.electricQuantity);
    return { doorSensorId: id, name: str(answer.name), battery: battery !== null && battery >= 0 && battery <= 100 ? battery : null };
  } catch (error) {
    if (error instanceof LockProviderError && error.code === 'not_supported') return null;
    throw error;
  }
}

export async function unlock(s: TtlockSession, lockId: string): Promise<void> {
  await s.call('lock/unlock', { lockId }, 'POST');
}
