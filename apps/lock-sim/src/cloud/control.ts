import { hasValidLength } from '../passcodes';
import type { CardNumberOrder, InjectedFailure, SimAccount, SimCard, SimFace, SimGateway, SimLock, SimPasscode } from '../state';
import { DEFAULT_TIMEZONE_RAW_OFFSET, featureValueOf, macFrom } from './core';
import { NotificationsCloud } from './notifications';

function simName(name: string | undefined, fallback: string): string {
  const base = name?.trim() || fallback;
  return base.startsWith('SIM') ? base : `SIM ${base}`;
}

/**
 * The simulated TTLock cloud with its gateways and locks: the state, the rules each call follows,
 * and what a lock decides when a passcode, card or face is presented at it. This last layer (see
 * core.ts): what the control API does to locks and gateways, and drift.
 */
export class LockCloud extends NotificationsCloud {
  private accountNamed(username: string | undefined): SimAccount {
    const account = username === undefined ? this.defaultAccount : this.state.accounts[username];
    if (!account) throw new Error(`no account ${username}`);
    return account;
  }

  createGateway(input: { name?: string; online?: boolean; networkName?: string; account?: string }): SimGateway {
    const owner = this.accountNamed(input.account).username;
    const gatewayId = ++this.state.counters.gatewayId;
    const gateway: SimGateway = {
      gatewayId,
      owner,
      gatewayName: simName(input.name, `Gateway ${gatewayId}`),
      gatewayMac: macFrom('5A:1D:01', gatewayId),
      networkName: input.networkName ?? 'SIM-WIFI',
      online: input.online ?? true,
      createdAt: this.now(),
    };
    this.updateReachability(() => {
      this.state.gateways[String(gatewayId)] = gateway;
    });
    return gateway;
  }

  /** A gateway links only to locks of its own account (TTLock: the lock and gateway belong to the same administrator account). */
  checkPairing(owner: string, gatewayId: number): void {
    const gateway = this.state.gateways[String(gatewayId)];
    if (!gateway) throw new Error(`no gateway ${gatewayId}`);
    if (this.ownerOf(gateway) !== owner)
      throw new Error(`gateway ${gatewayId} belongs to ${this.ownerOf(gateway)}, the lock to ${owner}: a gateway links only to locks of the same account`);
  }

  createLock(input: {
    account?: string;
    name?: string;
    alias?: string;
    battery?: number;
    online?: boolean;
    remoteUnlock?: boolean;
    faceModule?: boolean;
    keypad?: boolean;
    cardReader?: boolean;
    doorSensor?: boolean;
    wifi?: boolean;
    networkName?: string;
    timezoneRawOffset?: number;
    cardNumberOrder?: CardNumberOrder;
    building?: { name: string; number: number };
    floor?: { name: string; number: number };
    gatewayIds?: number[];
    capacity?: Partial<SimLock['capacity']>;
    latencyMs?: number | null;
    clockOffsetMs?: number;
  }): SimLock {
    const owner = this.accountNamed(input.account).username;
    for (const id of input.gatewayIds ?? []) this.checkPairing(owner, id);
    const lockId = ++this.state.counters.lockId;
    const lockName = simName(input.name, `Lock ${lockId}`);
    const place = this.placeOf({ lockName, building: input.building, floor: input.floor });
    const lock: SimLock = {
      lockId,
      owner,
      lockName,
      lockAlias: input.alias ? simName(input.alias, input.alias) : lockName,
      lockMac: macFrom('5A:1D:00', lockId),
      battery: input.battery ?? 90,
      online: input.online ?? true,
      frozen: false,
      remoteUnlock: input.remoteUnlock ?? true,
      faceModule: input.faceModule ?? true,
      keypad: input.keypad ?? true,
      cardReader: input.cardReader ?? true,
      doorSensor: input.doorSensor ?? false,
      wifi: input.wifi ?? false,
      ...(input.networkName === undefined ? {} : { networkName: input.networkName }),
      timezoneRawOffset: input.timezoneRawOffset ?? DEFAULT_TIMEZONE_RAW_OFFSET,
      cardNumberOrder: input.cardNumberOrder ?? 'big',
      building: place.building,
      floor: place.floor,
      batteryUpdatedAt: this.now(),
      gatewayIds: [...(input.gatewayIds ?? [])],
      capacity: { passcodes: 250, cards: 1000, faces: 100, ...input.capacity },
      latencyMs: input.latencyMs ?? null,
      clockOffsetMs: input.clockOffsetMs ?? 0,
      lastSeenAt: this.now(),
      createdAt: this.now(),
      failures: [],
      passcodes: [],
      cards: [],
      faces: [],
      pendingRecords: [],
    };
    if (lock.doorSensor) this.ensureDoorSensor(lock);
    this.updateReachability(() => {
      this.state.locks[String(lockId)] = lock;
    });
    return lock;
  }

  setFailures(lock: SimLock, failures: InjectedFailure[]): void {
    lock.failures = failures;
    this.changed();
  }

  plantDrift(
    lock: SimLock,
    input: {
      kind: 'passcode' | 'card' | 'face';
      code?: string;
      cardNumber?: string;
      featureData?: string;
      name?: string;
      startDate?: number;
      endDate?: number | null;
      cloud?: boolean;
    },
  ): SimPasscode | SimCard | SimFace {
    const cloud = input.cloud ?? true;
    const startDate = input.startDate ?? this.now();
    const endDate = input.endDate ?? 0;
    const base = { startDate, endDate, createdAt: this.now(), senderUsername: 'keypad', inCloud: cloud, onLock: true };
    let entry: SimPasscode | SimCard | SimFace;
    if (input.kind === 'passcode') {
      if (!input.code || !hasValidLength(input.code)) throw new Error('code: 4 to 9 digits');
      entry = {
        ...base,
        keyboardPwdId: ++this.state.counters.keyboardPwdId,
        keyboardPwd: input.code,
        keyboardPwdName: input.name ?? '',
        keyboardPwdType: endDate ? 3 : 2,
        isCustom: true,
        firstUsedAt: null,
        used: false,
      };
      lock.passcodes.push(entry);
    } else if (input.kind === 'card') {
      if (!input.cardNumber || !/^\d{1,20}$/.test(input.cardNumber)) throw new Error('cardNumber: digits');
      entry = { ...base, cardId: ++this.state.counters.cardId, cardNumber: input.cardNumber, cardName: input.name ?? '' };
      lock.cards.push(entry);
    } else {
      const faceId = ++this.state.counters.faceId;
      entry = { ...base, faceId, faceNumber: String(faceId).padStart(14, '0'), name: input.name ?? '', featureData: input.featureData ?? '00' };
      lock.faces.push(entry);
    }
    this.changed();
    return entry;
  }

  removeDrift(lock: SimLock, input: { kind: 'passcode' | 'card' | 'face'; id?: number; code?: string; cardNumber?: string; cloud?: boolean }): boolean {
    const cloud = input.cloud ?? true;
    let entry: SimPasscode | SimCard | SimFace | undefined;
    if (input.kind === 'passcode')
      entry = lock.passcodes.find((p) => p.onLock && (p.keyboardPwdId === input.id || (input.code !== undefined && p.keyboardPwd === input.code)));
    else if (input.kind === 'card')
      entry = lock.cards.find((c) => c.onLock && (c.cardId === input.id || (input.cardNumber !== undefined && c.cardNumber === input.cardNumber)));
    else entry = lock.faces.find((f) => f.onLock && f.faceId === input.id);
    if (!entry) return false;
    entry.onLock = false;
    if (cloud) entry.inCloud = false;
    this.prune(lock);
    this.changed();
    return true;
  }

  /** A lock's full state for the control API: the cloud's view and the lock's, side by side. */
  lockState(lock: SimLock) {
    return {
      simulated: true,
      ...lock,
      owner: this.ownerOf(lock),
      featureValue: featureValueOf(lock),
      timezoneRawOffset: this.timezoneOf(lock),
      ...this.placeOf(lock),
      hasGateway: this.gatewaysInRange(lock).length > 0,
      reachable: this.reachable(lock),
      lastSeenAt: this.seenAt(lock),
      lockClock: this.lockNow(lock),
      records: this.state.records.filter((r) => r.lockId === lock.lockId).length,
    };
  }
}
