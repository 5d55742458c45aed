import { TT, ttError } from '../errors';
import type { SimLock, SimRecord } from '../state';
import { DAY, int, page, type Params, RECORD } from './core';
import { FaceCloud } from './face';

/** The cloud keeps records for six months; the lock keeps 500. */
const CLOUD_RECORD_RETENTION_MS = 183 * DAY;

const LOCK_RECORD_CAPACITY = 500;

/** Remote unlock and records (a layer of LockCloud: see core.ts). */
export class RecordsCloud extends FaceCloud {
  async unlock(lock: SimLock) {
    if (lock.frozen) throw ttError(TT.LOCK_FROZEN);
    if (!lock.remoteUnlock) throw ttError(TT.NOT_SUPPORTED);
    await this.throughGateway(lock, () => {
      this.addRecord(lock, {
        recordType: RECORD.gatewayUnlock.recordType,
        recordTypeFromLock: RECORD.gatewayUnlock.fromLock,
        success: 1,
        username: this.ownerOf(lock),
        keyboardPwd: '',
      });
    });
  }

  listRecords(lock: SimLock, params: Params) {
    const from = int(params.startDate);
    const to = int(params.endDate);
    const recordType = int(params.recordType);
    const items = this.state.records
      .filter(
        (r) =>
          r.lockId === lock.lockId &&
          (from === undefined || r.lockDate >= from) &&
          (to === undefined || r.lockDate <= to) &&
          (recordType === undefined || r.recordType === recordType),
      )
      .sort((a, b) => b.lockDate - a.lockDate || b.recordId - a.recordId);
    return page(items, params, 200);
  }

  protected addRecord(
    lock: SimLock,
    fields: Pick<SimRecord, 'recordType' | 'recordTypeFromLock' | 'success' | 'username' | 'keyboardPwd' | 'reason'>,
  ): SimRecord {
    const record: SimRecord = {
      recordId: ++this.state.counters.recordId,
      lockId: lock.lockId,
      ...fields,
      lockDate: this.lockNow(lock),
      serverDate: 0,
      electricQuantity: lock.battery,
    };
    if (this.reachable(lock)) {
      this.upload(lock, [record]);
    } else {
      lock.pendingRecords.push(record);
      if (lock.pendingRecords.length > LOCK_RECORD_CAPACITY) lock.pendingRecords.splice(0, lock.pendingRecords.length - LOCK_RECORD_CAPACITY);
    }
    this.changed();
    return record;
  }

  /** A gateway reads records off the lock: the cloud stores them and pushes them to the callback URL. */
  private upload(lock: SimLock, records: SimRecord[]): void {
    if (records.length === 0) return;
    const now = this.now();
    for (const record of records) record.serverDate = now;
    // Records carry the battery level: the cloud's electricQuantityUpdateDate moves with them.
    lock.batteryUpdatedAt = now;
    this.state.records.push(...records);
    const oldest = now - CLOUD_RECORD_RETENTION_MS;
    if (this.state.records[0] && this.state.records[0].serverDate < oldest) this.state.records = this.state.records.filter((r) => r.serverDate >= oldest);
    if (this.state.callbackUrl) this.callbacks.send(this.state.callbackUrl, lock, records);
  }

  /** Call around any change of a lock's or gateway's reachability. */
  updateReachability(change: () => void): void {
    const locks = Object.values(this.state.locks);
    for (const lock of locks) lock.lastSeenAt = this.seenAt(lock);
    change();
    for (const lock of Object.values(this.state.locks)) {
      if (!this.reachable(lock)) continue;
      lock.lastSeenAt = this.now();
      const pending = lock.pendingRecords;
      lock.pendingRecords = [];
      this.upload(lock, pending);
    }
    this.changed();
  }
}
