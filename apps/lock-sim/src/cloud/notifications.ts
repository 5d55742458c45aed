import { type CallbackDelivery, doorSensorNotifyFields, gatewayNotifyFields, wifiLockNotifyFields } from '../callback';
import { TT, ttError } from '../errors';
import type { SimDoorSensor, SimDoorState, SimGateway, SimLock } from '../state';
import { macFrom } from './core';
import { DoorCloud } from './door';

/** Door sensors and notifications (a layer of LockCloud: see core.ts). */
export class NotificationsCloud extends DoorCloud {
  /** doorSensor/query: the lock's door sensor; -4043 without one. */
  doorSensorQuery(lock: SimLock): SimDoorSensor {
    if (!lock.doorSensor) throw ttError(TT.NOT_SUPPORTED);
    return { ...this.ensureDoorSensor(lock) };
  }

  /** The lock's door sensor, made the first time the lock has one (kept when it is switched off and on). */
  ensureDoorSensor(lock: SimLock): SimDoorSensor {
    if (lock.doorSensorInfo) return lock.doorSensorInfo;
    const doorSensorId = ++this.state.counters.doorSensorId;
    const mac = macFrom('5A:1D:02', doorSensorId);
    lock.doorSensorInfo = {
      doorSensorId,
      name: `SIM Door sensor ${lock.lockId}`,
      electricQuantity: 90,
      version: '1.0.0.sim',
      mac,
      number: `DS2_${mac.slice(-8).replaceAll(':', '').toLowerCase()}`,
      doorNotClosedWarningTime: 0,
    };
    this.changed();
    return lock.doorSensorInfo;
  }

  /** The door sensor reports the door: TTLock's door sensor notify (notifyType 7) to the callback URL. */
  reportDoor(lock: SimLock, state: SimDoorState) {
    if (!lock.doorSensor) throw new Error(`lock ${lock.lockId} has no door sensor`);
    const sensor = this.ensureDoorSensor(lock);
    lock.doorState = state;
    this.changed();
    const fields = doorSensorNotifyFields(sensor, state);
    return { fields, delivery: this.notify(fields, { lockId: lock.lockId }) };
  }

  /** Posts a notification to the callback URL (none set: nothing is sent, null). */
  notify(fields: Record<string, string>, about: { lockId?: number; gatewayId?: number } = {}): CallbackDelivery | null {
    if (!this.state.callbackUrl) return null;
    return this.callbacks.sendFields(this.state.callbackUrl, fields, about);
  }

  /** A gateway goes online or offline: its reachability, and TTLock's gateway notify (notifyType 2) when it changed. */
  setGatewayOnline(gateway: SimGateway, online: boolean): CallbackDelivery | null {
    const before = gateway.online;
    this.updateReachability(() => {
      gateway.online = online;
    });
    return before === online ? null : this.notify(gatewayNotifyFields(gateway), { gatewayId: gateway.gatewayId });
  }

  /** A lock goes online or offline: its reachability, and for a WiFi lock TTLock's WiFi lock notify (notifyType 3) when it changed. */
  setLockOnline(lock: SimLock, online: boolean): CallbackDelivery | null {
    const before = lock.online;
    this.updateReachability(() => {
      lock.online = online;
    });
    return before === online || !lock.wifi ? null : this.notify(wifiLockNotifyFields(lock, this.ownerOf(lock)), { lockId: lock.lockId });
  }
}
