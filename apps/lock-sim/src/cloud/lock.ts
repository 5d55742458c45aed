import type { SimAccount, SimGateway, SimLock } from '../state';
import { DEFAULT_TIMEZONE_RAW_OFFSET, featureValueOf, int, page, type Params } from './core';
import { ReachabilityCloud } from './reachability';

/** Locks and gateways as the API shows them (a layer of LockCloud: see core.ts). */
export class LockListCloud extends ReachabilityCloud {
  lockSummary(lock: SimLock) {
    return {
      lockId: lock.lockId,
      lockName: lock.lockName,
      lockAlias: lock.lockAlias,
      lockMac: lock.lockMac,
      electricQuantity: lock.battery,
      featureValue: featureValueOf(lock),
      hasGateway: this.gatewaysInRange(lock).length > 0 ? 1 : 0,
      lockData: `SIMULATED-LOCK-DATA-${lock.lockId}`,
      groupId: 0,
      groupName: '',
      date: lock.createdAt,
    };
  }

  private accountLocks(account: SimAccount, params: Params): SimLock[] {
    const alias = params.lockAlias;
    return Object.values(this.state.locks)
      .filter((l) => this.ownerOf(l) === account.username && (!alias || l.lockAlias.includes(alias)))
      .sort((a, b) => a.lockId - b.lockId);
  }

  /** lock/list: the locks of a 'ttlock' account (a 'tthotel' account's are listed by lock/listByHotel only). */
  listLocks(params: Params, account: SimAccount) {
    const locks = account.kind === 'ttlock' ? this.accountLocks(account, params) : [];
    const result = page(locks, params, 1000);
    return { ...result, list: result.list.map((l) => this.lockSummary(l)) };
  }

  /**
   * lock/listByHotel (TTHotel): the locks of a 'tthotel' account, paged as lock/list, with the
   * hotel's fields; an empty page for a 'ttlock' account, and for `type` 2 (elevator) or 3 (power
   * saver), which the simulator has none of.
   */
  listLocksByHotel(params: Params, account: SimAccount) {
    const type = int(params.type) ?? 1;
    const locks = account.kind === 'tthotel' && type === 1 ? this.accountLocks(account, params) : [];
    const result = page(locks, params, 1000);
    return {
      ...result,
      list: result.list.map((l) => {
        const { building, floor } = this.placeOf(l);
        return {
          ...this.lockSummary(l),
          sector: this.sectorOf(l),
          electricQuantityUpdateDate: l.batteryUpdatedAt ?? l.createdAt,
          buildingName: building.name,
          buildingNumber: building.number,
          floorName: floor.name,
          floorNumber: floor.number,
        };
      }),
    };
  }

  /** The card sectors the lock reads (those of its room-card key sets, comma-separated), '' when it has none. */
  private sectorOf(lock: SimLock): string {
    return [...new Set((lock.hotelCard?.keys ?? []).map((k) => k.keys.sector))].sort((a, b) => a - b).join(',');
  }

  /** Building and floor of a lock; without them, building 1 and the floor of the room number in its name (Room 305: floor 3). */
  placeOf(lock: Pick<SimLock, 'lockName' | 'building' | 'floor'>): { building: { name: string; number: number }; floor: { name: string; number: number } } {
    const room = /(\d+)/.exec(lock.lockName);
    const floorNumber = room && Number(room[1]) >= 100 ? Math.floor(Number(room[1]) / 100) : 1;
    return { building: lock.building ?? { name: 'SIM Building 1', number: 1 }, floor: lock.floor ?? { name: `Floor ${floorNumber}`, number: floorNumber } };
  }

  lockDetail(lock: SimLock) {
    return {
      ...this.lockSummary(lock),
      noKeyPwd: '',
      timezoneRawOffset: this.timezoneOf(lock),
      modelNum: 'SIM-LOCK',
      hardwareRevision: 'sim',
      firmwareRevision: 'sim',
      autoLockTime: 5,
      lockSound: 1,
      privacyLock: 2,
      tamperAlert: 1,
      resetButton: 1,
      openDirection: 0,
      passageMode: 2,
      remoteUnlockSwitch: lock.remoteUnlock ? 1 : 2,
    };
  }

  gatewaysOfLock(lock: SimLock) {
    const seen = this.seenAt(lock);
    return {
      list: this.gatewaysInRange(lock).map((g, i) => ({
        gatewayId: g.gatewayId,
        gatewayMac: g.gatewayMac,
        gatewayName: g.gatewayName,
        rssi: -60 - i * 8,
        rssiUpdateDate: seen,
      })),
    };
  }

  timezoneOf(lock: SimLock): number {
    return lock.timezoneRawOffset ?? DEFAULT_TIMEZONE_RAW_OFFSET;
  }

  /** Locks the gateway is linked with: paired, of the same owner, heard within 30 minutes. */
  private locksOfGateway(g: SimGateway): SimLock[] {
    return Object.values(this.state.locks)
      .filter((l) => this.gatewaysInRange(l).includes(g))
      .sort((a, b) => a.lockId - b.lockId);
  }

  gatewaySummary(g: SimGateway) {
    return {
      gatewayId: g.gatewayId,
      gatewayMac: g.gatewayMac,
      gatewayName: g.gatewayName,
      gatewayVersion: 2,
      networkName: g.networkName,
      networkMac: '',
      lockNum: this.locksOfGateway(g).length,
      isOnline: g.online ? 1 : 0,
    };
  }

  /** gateway/list: the account's gateways. */
  listGateways(params: Params, account: SimAccount) {
    const gateways = Object.values(this.state.gateways)
      .filter((g) => this.ownerOf(g) === account.username)
      .sort((a, b) => a.gatewayId - b.gatewayId);
    const result = page(gateways, params, 200);
    return { ...result, list: result.list.map((g) => this.gatewaySummary(g)) };
  }

  /** gateway/listLock: the locks linked with the gateway (same owner, heard within 30 minutes). */
  locksOfGatewayList(gateway: SimGateway) {
    return {
      list: this.locksOfGateway(gateway).map((l) => {
        const rank = this.gatewaysInRange(l).indexOf(gateway);
        return { lockId: l.lockId, lockMac: l.lockMac, lockName: l.lockName, lockAlias: l.lockAlias, rssi: -60 - rank * 8, updateDate: this.seenAt(l) };
      }),
    };
  }
}
