import { TT, ttError } from '../errors';
import { ceilToLocalHour, floorToLocalHour, generatePasscode, hasValidLength, isTooSimple } from '../passcodes';
import type { RandomPeriod, SimLock, SimPasscode } from '../state';
import { DAY, HOUR, int, ordered, page, type Params, required } from './core';
import { LockListCloud } from './lock';

/** Passcodes (a layer of LockCloud: see core.ts). */
export class PasscodeCloud extends LockListCloud {
  private allCodes(lock: SimLock): Set<string> {
    return new Set(lock.passcodes.map((p) => p.keyboardPwd));
  }

  /** Passcode calls need a keypad (feature bit 0); a lock without one answers -4043. */
  private requireKeypad(lock: SimLock): void {
    if (lock.keypad === false) throw ttError(TT.NOT_SUPPORTED);
  }

  /**
   * keyboardPwd/get: a generated passcode, its start and end floored to the lock's whole hours
   * (its timezoneRawOffset). -1026 when a generated passcode of exactly this type and validity was
   * got on the lock before and then deleted.
   */
  getRandomPasscode(lock: SimLock, params: Params) {
    this.requireKeypad(lock);
    if (lock.frozen) throw ttError(TT.LOCK_FROZEN);
    const type = int(required(params, 'keyboardPwdType'))!;
    if (![1, 2, 3].includes(type))
      throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: the simulator makes keyboardPwdType 1 (one-time), 2 (permanent) and 3 (period) only');
    const zone = this.timezoneOf(lock);
    const start = floorToLocalHour(int(required(params, 'startDate'))!, zone);
    let end = 0;
    if (type === 1) end = start + 6 * HOUR;
    if (type === 3) {
      end = floorToLocalHour(int(required(params, 'endDate'))!, zone);
      if (end <= start) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: endDate must be at least an hour after startDate');
      if (end - start > 366 * DAY) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: a period passcode spans at most one year');
    }
    const period: RandomPeriod = { keyboardPwdType: type, startDate: start, endDate: end };
    if ((lock.deletedRandomPeriods ?? []).some((p) => p.keyboardPwdType === type && p.startDate === start && p.endDate === end))
      throw ttError(TT.PASSCODE_PERIOD_DELETED);
    const keyboardPwdId = ++this.state.counters.keyboardPwdId;
    const code = generatePasscode(`${lock.lockId}:${keyboardPwdId}:${type}:${start}:${end}`, this.allCodes(lock));
    lock.passcodes.push({
      keyboardPwdId,
      keyboardPwd: code,
      keyboardPwdName: params.keyboardPwdName ?? '',
      keyboardPwdType: type,
      isCustom: false,
      startDate: start,
      endDate: end,
      createdAt: this.now(),
      senderUsername: this.ownerOf(lock),
      inCloud: true,
      // The lock computes random passcodes from the key data it shares with the cloud: it knows them without a gateway.
      onLock: true,
      firstUsedAt: null,
      used: false,
      generatedWith: period,
    });
    this.changed();
    return { keyboardPwd: code, keyboardPwdId };
  }

  /** A generated passcode was deleted: its validity cannot be got again on this lock (-1026). */
  private rememberDeleted(lock: SimLock, entry: SimPasscode): void {
    if (entry.isCustom) return;
    const period = entry.generatedWith ?? { keyboardPwdType: entry.keyboardPwdType, startDate: entry.startDate, endDate: entry.endDate };
    const list = (lock.deletedRandomPeriods ??= []);
    if (!list.some((p) => p.keyboardPwdType === period.keyboardPwdType && p.startDate === period.startDate && p.endDate === period.endDate)) list.push(period);
  }

  private checkNewCustomCode(lock: SimLock, code: string, throughGateway: boolean): void {
    if (lock.passcodes.some((p) => p.keyboardPwd === code)) throw ttError(TT.PASSCODE_DUPLICATE);
    if (throughGateway && lock.passcodes.filter((p) => p.isCustom && p.onLock).length >= lock.capacity.passcodes) throw ttError(TT.PASSCODE_STORAGE_FULL);
  }

  async addCustomPasscode(lock: SimLock, params: Params) {
    this.requireKeypad(lock);
    const code = required(params, 'keyboardPwd');
    if (!hasValidLength(code)) throw ttError(TT.PASSCODE_LENGTH);
    if (isTooSimple(code)) throw ttError(TT.PASSCODE_TOO_SIMPLE);
    const type = int(params.keyboardPwdType) ?? 3;
    if (type !== 2 && type !== 3) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: keyboardPwdType is 2 (permanent) or 3 (period)');
    let startDate = int(params.startDate) ?? this.now();
    let endDate = 0;
    if (type === 3) {
      startDate = int(required(params, 'startDate'))!;
      endDate = int(required(params, 'endDate'))!;
      if (endDate <= startDate) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: endDate must be after startDate');
    }
    // addType 1 (the default) only records a code already put on the lock over Bluetooth.
    const addType = int(params.addType) ?? 1;
    if (addType !== 1 && addType !== 2) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: addType is 1 (Bluetooth) or 2 (gateway)');
    if (lock.frozen) throw ttError(TT.LOCK_FROZEN);
    this.checkNewCustomCode(lock, code, addType === 2);
    const create = (): { keyboardPwdId: number } => {
      this.checkNewCustomCode(lock, code, addType === 2);
      const keyboardPwdId = ++this.state.counters.keyboardPwdId;
      lock.passcodes.push({
        keyboardPwdId,
        keyboardPwd: code,
        keyboardPwdName: params.keyboardPwdName ?? '',
        keyboardPwdType: type,
        isCustom: true,
        startDate,
        endDate,
        createdAt: this.now(),
        senderUsername: this.ownerOf(lock),
        inCloud: true,
        onLock: addType === 2,
        firstUsedAt: null,
        used: false,
      });
      this.changed();
      return { keyboardPwdId };
    };
    return addType === 2 ? this.throughGateway(lock, create) : create();
  }

  async deletePasscode(lock: SimLock, params: Params) {
    this.requireKeypad(lock);
    const id = int(required(params, 'keyboardPwdId'))!;
    const deleteType = int(params.deleteType) ?? 1;
    if (deleteType !== 1 && deleteType !== 2) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: deleteType is 1 (Bluetooth) or 2 (gateway)');
    const find = () => {
      const entry = lock.passcodes.find((p) => p.keyboardPwdId === id && p.inCloud);
      if (!entry) throw ttError(TT.PASSCODE_NOT_EXIST);
      return entry;
    };
    find();
    if (deleteType === 1) {
      if (lock.frozen) throw ttError(TT.LOCK_FROZEN);
      // Only the cloud's record goes: the code stays on the lock unless it was removed over Bluetooth first.
      const entry = find();
      entry.inCloud = false;
      this.rememberDeleted(lock, entry);
      this.prune(lock);
      this.changed();
      return;
    }
    await this.throughGateway(lock, () => {
      const entry = find();
      lock.passcodes = lock.passcodes.filter((p) => p !== entry);
      this.rememberDeleted(lock, entry);
    });
  }

  /**
   * keyboardPwd/change: a passcode's name, code or validity. Its period changes only when
   * `startDate` is sent (TTLock: without it the call succeeds and changes nothing), to the lock's
   * whole hours for a generated passcode (start floored, end ceiled) and as sent for a custom one;
   * `endDate` 0 makes it permanent. A generated passcode never used on the lock cannot be changed at
   * all (-3008, whatever changeType); a one-time passcode cannot be changed (-3). changeType 1
   * records a change already made over Bluetooth; 2 makes it through the gateway.
   */
  async changePasscode(lock: SimLock, params: Params) {
    this.requireKeypad(lock);
    const id = int(required(params, 'keyboardPwdId'))!;
    const changeType = int(params.changeType) ?? 1;
    if (changeType !== 1 && changeType !== 2) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: changeType is 1 (Bluetooth) or 2 (gateway)');
    const newCode = params.newKeyboardPwd || undefined;
    if (newCode !== undefined) {
      if (!hasValidLength(newCode)) throw ttError(TT.PASSCODE_LENGTH);
      if (isTooSimple(newCode)) throw ttError(TT.PASSCODE_TOO_SIMPLE);
    }
    let startDate = int(params.startDate);
    let endDate = int(params.endDate) ?? 0;
    const find = () => {
      const entry = lock.passcodes.find((p) => p.keyboardPwdId === id && p.inCloud);
      if (!entry) throw ttError(TT.PASSCODE_NOT_EXIST);
      return entry;
    };
    const first = find();
    if (!first.isCustom && first.firstUsedAt === null) throw ttError(TT.PASSCODE_NEVER_USED);
    if (first.keyboardPwdType === 1 && (startDate !== undefined || newCode !== undefined))
      throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: a one-time passcode cannot be changed');
    if (startDate !== undefined && !first.isCustom) {
      const zone = this.timezoneOf(lock);
      startDate = floorToLocalHour(startDate, zone);
      endDate = endDate === 0 ? 0 : ceilToLocalHour(endDate, zone);
    }
    if (startDate !== undefined && endDate !== 0 && endDate <= startDate)
      throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: endDate must be after startDate');
    if (startDate !== undefined && endDate !== 0 && !first.isCustom && endDate - startDate > 366 * DAY)
      throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: a period passcode spans at most one year');
    const apply = () => {
      const entry = find();
      if (newCode !== undefined && newCode !== entry.keyboardPwd && lock.passcodes.some((p) => p.keyboardPwd === newCode)) throw ttError(TT.PASSCODE_DUPLICATE);
      if (params.keyboardPwdName !== undefined) entry.keyboardPwdName = params.keyboardPwdName;
      if (newCode !== undefined) entry.keyboardPwd = newCode;
      if (startDate !== undefined) {
        entry.startDate = startDate;
        entry.endDate = endDate;
        entry.keyboardPwdType = endDate === 0 ? 2 : 3;
      }
    };
    // A name alone is the cloud's own record: no gateway, no Bluetooth.
    const nameOnly = newCode === undefined && startDate === undefined;
    if (changeType === 2 && !nameOnly) {
      await this.throughGateway(lock, apply);
      return;
    }
    if (lock.frozen) throw ttError(TT.LOCK_FROZEN);
    apply();
    this.changed();
  }

  listPasscodes(lock: SimLock, params: Params) {
    this.requireKeypad(lock);
    const items = ordered(
      lock.passcodes.filter((p) => p.inCloud),
      (p) => p.keyboardPwdName,
      (p) => p.keyboardPwdId,
      int(params.orderBy),
    );
    const result = page(items, params, 200);
    return {
      ...result,
      list: result.list.map((p) => ({
        keyboardPwdId: p.keyboardPwdId,
        lockId: lock.lockId,
        keyboardPwd: p.keyboardPwd,
        keyboardPwdName: p.keyboardPwdName,
        keyboardPwdType: p.keyboardPwdType,
        startDate: p.startDate,
        endDate: p.endDate,
        sendDate: p.createdAt,
        isCustom: p.isCustom ? 1 : 0,
        senderUsername: p.senderUsername,
      })),
    };
  }
}
