import type { SimDoorSensor, SimDoorState, SimGateway, SimLock, SimRecord } from './state';

/** One notification posted to the callback URL, as the control API reports it. */
export interface CallbackDelivery {
  id: number;
  url: string;
  /** The form's notifyType (1 lock records, 2 gateway online/offline, 3 WiFi lock online/offline, 7 door sensor, or whatever `/sim/notify` sent). */
  notifyType: string;
  /** The lock it is about, or null (a gateway's notification, an arbitrary one). */
  lockId: number | null;
  /** The gateway it is about, or null. */
  gatewayId: number | null;
  /** The records it carries (notifyType 1); empty otherwise. */
  recordIds: number[];
  /** The form fields posted, exactly as sent. */
  fields: Record<string, string>;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastError: string | null;
  deliveredAt: number | null;
}

/**
 * The form TTLock posts to an application's callback URL when a gateway uploads lock records
 * ("lockRecord notify", document-pages/cloud/lockRecord/notify): notifyType=1, lockId, lockMac,
 * and `records`, a JSON array in a string, each with recordType, success, username, keyboardPwd,
 * lockDate, electricQuantity and serverDate.
 */
export function callbackFields(lock: Pick<SimLock, 'lockId' | 'lockMac'>, records: SimRecord[]): Record<string, string> {
  return {
    notifyType: '1',
    lockId: String(lock.lockId),
    lockMac: lock.lockMac,
    records: JSON.stringify(
      records.map((r) => ({
        recordType: r.recordType,
        success: r.success,
        username: r.username,
        keyboardPwd: r.keyboardPwd,
        lockDate: r.lockDate,
        electricQuantity: r.electricQuantity,
        serverDate: r.serverDate,
        // The simulator's own field on room-card records (why a card was refused); TTLock sends none.
        ...(r.reason === undefined ? {} : { reason: r.reason }),
      })),
    ),
  };
}

/**
 * TTLock's gateway online or offline notify (document-pages/cloud/gateway/gatewayNotify):
 * notifyType=2, gatewayId, gatewayName, gatewayMac, gatewayVersion (2: G2), networkName, isOnline.
 */
export function gatewayNotifyFields(gateway: SimGateway): Record<string, string> {
  return {
    notifyType: '2',
    gatewayId: String(gateway.gatewayId),
    gatewayName: gateway.gatewayName,
    gatewayMac: gateway.gatewayMac,
    gatewayVersion: '2',
    networkName: gateway.networkName,
    isOnline: gateway.online ? '1' : '0',
  };
}

/**
 * TTLock's WiFi lock online or offline notify (document-pages/cloud/wifiLock/WiFiLockNotify):
 * notifyType=3, lockId, lockAlias, lockMac, networkName, admin (the lock's administrator account),
 * isOnline.
 */
export function wifiLockNotifyFields(lock: SimLock, admin: string): Record<string, string> {
  return {
    notifyType: '3',
    lockId: String(lock.lockId),
    lockAlias: lock.lockAlias,
    lockMac: lock.lockMac,
    networkName: lock.networkName ?? 'SIM-WIFI',
    admin,
    isOnline: lock.online ? '1' : '0',
  };
}

/** recordType of the door sensor notify: 0 closed, 1 open, 2 door not closed alarm, 3 door not closed for a long time alarm. */
export const DOOR_RECORD_TYPE: Record<SimDoorState, number> = { closed: 0, open: 1, left_open: 2, left_open_long: 3 };

/**
 * TTLock's door sensor notify (document-pages/cloud/doorSensor/standaloneDoorSensor/notify):
 * notifyType=7, doorSensorId, mac, name, recordType.
 */
export function doorSensorNotifyFields(sensor: SimDoorSensor, state: SimDoorState): Record<string, string> {
  return {
    notifyType: '7',
    doorSensorId: String(sensor.doorSensorId),
    mac: sensor.mac,
    name: sensor.name,
    recordType: String(DOOR_RECORD_TYPE[state]),
  };
}

/**
 * Posts notifications to the callback URL, form-encoded, and tries again after each of
 * `retryDelaysMs` when the receiver fails (no answer, or not 2xx). Deliveries live in memory: a
 * restart of the simulator forgets the ones still being retried.
 */
export class CallbackSender {
  readonly deliveries: CallbackDelivery[] = [];
  private nextId = 1;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<AbortController>();
  private closed = false;

  constructor(
    private retryDelaysMs: number[],
    private readonly timeoutMs = 5_000,
  ) {}

  setRetryDelays(delays: number[]): void {
    this.retryDelaysMs = delays;
  }

  /** Lock records (notifyType 1). */
  send(url: string, lock: SimLock, records: SimRecord[]): CallbackDelivery {
    return this.sendFields(url, callbackFields(lock, records), { lockId: lock.lockId, recordIds: records.map((r) => r.recordId) });
  }

  /** Any notification: `fields` are posted exactly as given. */
  sendFields(url: string, fields: Record<string, string>, about: { lockId?: number; gatewayId?: number; recordIds?: number[] } = {}): CallbackDelivery {
    const delivery: CallbackDelivery = {
      id: this.nextId++,
      url,
      notifyType: fields.notifyType ?? '',
      lockId: about.lockId ?? null,
      gatewayId: about.gatewayId ?? null,
      recordIds: about.recordIds ?? [],
      fields,
      status: 'pending',
      attempts: 0,
      lastError: null,
      deliveredAt: null,
    };
    this.deliveries.push(delivery);
    if (this.deliveries.length > 1_000) this.deliveries.splice(0, this.deliveries.length - 1_000);
    void this.attempt(delivery);
    return delivery;
  }

  private async attempt(delivery: CallbackDelivery): Promise<void> {
    if (this.closed) return;
    delivery.attempts += 1;
    const controller = new AbortController();
    this.inFlight.add(controller);
    const timer = setTimeout(() => controller.abort(), this.timeoutMs);
    try {
      const response = await fetch(delivery.url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-simulated': 'true' },
        body: new URLSearchParams(delivery.fields).toString(),
        signal: controller.signal,
      });
      await response.text();
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      delivery.status = 'delivered';
      delivery.deliveredAt = Date.now();
      delivery.lastError = null;
      return;
    } catch (error) {
      delivery.lastError = error instanceof Error ? error.message : String(error);
    } finally {
      clearTimeout(timer);
      this.inFlight.delete(controller);
    }
    const delay = this.retryDelaysMs[delivery.attempts - 1];
    if (delay === undefined || this.closed) {
      delivery.status = 'failed';
      return;
    }
    const retry = setTimeout(() => {
      this.timers.delete(retry);
      void this.attempt(delivery);
    }, delay);
    this.timers.add(retry);
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const controller of this.inFlight) controller.abort();
  }
}
