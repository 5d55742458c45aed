import type { SimLock, SimRecord } from './state';

/** One push of lock records to the callback URL, as the control API reports it. */
export interface CallbackDelivery {
  id: number;
  url: string;
  lockId: number;
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
 * Posts lock records to the callback URL, form-encoded, and tries again after each of
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

  send(url: string, lock: SimLock, records: SimRecord[]): CallbackDelivery {
    const delivery: CallbackDelivery = {
      id: this.nextId++,
      url,
      lockId: lock.lockId,
      recordIds: records.map((r) => r.recordId),
      fields: callbackFields(lock, records),
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
