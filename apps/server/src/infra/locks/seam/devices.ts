import { LockProviderError, type LockCapabilities, type LockStatus, type LockSummary } from '../provider';
import { readActionAttempt, readDevice, type SeamDevice } from './answers';
import { SEAM_API_ERRORS } from './errors';
import type { SeamSession } from './session';

/**
 * Devices: the workspace's locks, one lock's detail and status, what it can take, and the remote
 * unlock. Seam calls a lock a device (`device_id`); what it can do is in flags on the device
 * (`can_*`, Seam's published device schema) and in `properties` (docs/seam.md, "Mapping").
 */

/**
 * Whether the lock has a keypad to enter a code on: built in, or an accessory keypad connected.
 * Seam reports these facts for some brands only (`properties.model.has_built_in_keypad`,
 * `properties.accessory_keypad.is_connected`); when neither is reported, a device Seam can program
 * codes on is taken to have one (the fake reports neither).
 */
function hasKeypad(d: SeamDevice): boolean {
  if (d.hasBuiltInKeypad === true || d.accessoryKeypadConnected === true) return true;
  // An accessory keypad that can be connected counts once Seam says it is connected.
  return d.hasBuiltInKeypad === undefined && d.accessoryKeypadConnected === undefined;
}

/**
 * What a Seam device can take. `can_program_online_access_codes`: a chosen code set through Seam's
 * cloud; `can_program_offline_access_codes`: a code Seam computes for the lock (igloohome algoPIN,
 * dormakaba Oracode), no connection needed; both need a keypad. `can_remotely_unlock`: the unlock.
 * Cards, fingerprints and faces are not Seam lock features (cards live in Seam's `acs` API for
 * access-control systems, a different model): false. The door sensor: none as its own object, but a
 * lock that reports `properties.door_open` has one (the status cycle reads it, lock-status.ts).
 */
export function capabilitiesOf(d: SeamDevice): LockCapabilities {
  const keypad = hasKeypad(d);
  const onlinePasscodes = keypad && d.canProgramOnlineAccessCodes === true;
  const offlinePasscodes = keypad && d.canProgramOfflineAccessCodes === true;
  return {
    keypad: onlinePasscodes || offlinePasscodes,
    cardReader: false,
    fingerprint: false,
    faceModule: false,
    remoteUnlock: d.canRemotelyUnlock === true,
    // A lock that reports its door (`properties.door_open`) has a sensor for it.
    doorSensor: d.doorOpen !== undefined,
    onlinePasscodes,
    offlinePasscodes,
    // The Nuki Keypad has the keys 1 to 9 and none for 0 (research/seam.md: "no zeros in PINs").
    keypadWithoutZero: d.deviceType === 'nuki_lock',
    // Backup codes stand in for time-bound chosen codes only (access-codes.ts, pullBackupPasscode).
    backupCodePool: onlinePasscodes && d.backupCodePool === true,
    // igloohome's algoPIN: a code longer than 24 hours must be used within its first 24 hours
    // (research/seam.md, Seam's offline access codes guide); Oracode's and Lockly's need no first use.
    offlineFirstUse: offlinePasscodes && d.deviceType.startsWith('igloohome'),
    // A card system's doors are listed by acs.ts.
    encodedCards: false,
  };
}

/** Seam's battery level (0 to 1) as our 0-100; none reported: null. */
export function batteryOf(d: SeamDevice): number | null {
  return d.batteryLevel === undefined ? null : Math.round(d.batteryLevel * 100);
}

/** A device error that means Seam cannot reach the lock now (device_offline, hub_disconnected, ...). */
export function offlineError(d: SeamDevice): { code: string; message: string } | null {
  return d.errors.find((e) => SEAM_API_ERRORS.get(e.code) === 'lock_offline') ?? null;
}

/** Online: Seam says so (`properties.online`) and reports no device error that says otherwise. */
export function isOnline(d: SeamDevice): boolean {
  return d.online === true && offlineError(d) === null;
}

function summaryOf(d: SeamDevice): LockSummary {
  return {
    lockId: d.deviceId,
    name: d.name,
    // display_name: the nickname given through Seam, else the name in the provider's app.
    alias: d.displayName === d.name ? '' : d.displayName,
    // Seam gives no MAC address.
    mac: '',
    battery: batteryOf(d),
    // Seam hides gateways and bridges behind the device (a TTLock through Seam still needs its G2/G3).
    hasGateway: false,
    capabilities: capabilitiesOf(d),
    building: '',
    floor: '',
  };
}

/** locks/list: Seam's own filter of the workspace's devices to locks, every page. */
async function listDevices(s: SeamSession): Promise<SeamDevice[]> {
  const devices = await s.all('locks/list', 'lock', (seam) => seam.locks.list({}));
  return devices.map(readDevice).filter((d) => d.deviceId !== '');
}

export async function listLocks(s: SeamSession): Promise<LockSummary[]> {
  return (await listDevices(s)).map(summaryOf);
}

/** A device's status: online, battery, the door when it reports one; Seam exposes no gateway and no last-seen time. */
function statusOf(d: SeamDevice): LockStatus {
  return {
    lockId: d.deviceId,
    name: d.displayName || d.name,
    mac: '',
    battery: batteryOf(d),
    online: isOnline(d),
    gateway: null,
    lastSeenAt: null,
    ...(d.doorOpen === undefined ? {} : { doorOpen: d.doorOpen }),
  };
}

/** Every lock's status from one listing (locks/list, every page): what the status cycle reads. */
export async function lockStatuses(s: SeamSession): Promise<LockStatus[]> {
  return (await listDevices(s)).map(statusOf);
}

/** devices/get; an unknown device is `lock_not_found` (`device_not_found`, 404). */
export async function getDevice(s: SeamSession, lockId: string): Promise<SeamDevice> {
  const device = readDevice(await s.call('devices/get', 'lock', (seam) => seam.devices.get({ device_id: lockId })));
  if (device.deviceId !== lockId) throw new LockProviderError('lock_not_found', 'device_not_found', `devices/get answered ${device.deviceId || 'no device'}`);
  return device;
}

export async function lockDetail(s: SeamSession, lockId: string): Promise<LockSummary> {
  return summaryOf(await getDevice(s, lockId));
}

/** One lock's status: online, battery; Seam exposes no gateway and no last-seen time. */
export async function lockStatus(s: SeamSession, lockId: string): Promise<LockStatus> {
  return statusOf(await getDevice(s, lockId));
}

/**
 * locks/unlock_door, then its action attempt waited for (session.ts). Refused before any unlock is
 * sent: a device that cannot unlock remotely (`not_supported`; the fake would unlock it anyway) and
 * one Seam reports offline (`lock_offline`, its device error kept): an unlock is counted against
 * Seam's 15 a minute per device even when it cannot reach the lock.
 */
export async function unlock(s: SeamSession, lockId: string): Promise<void> {
  const d = await getDevice(s, lockId);
  if (d.canRemotelyUnlock !== true) throw new LockProviderError('not_supported', 'can_remotely_unlock', 'Seam says this device cannot be unlocked remotely');
  const offline = offlineError(d);
  if (offline || d.online === false)
    throw new LockProviderError('lock_offline', offline?.code ?? 'offline', offline?.message ?? 'Seam says this device is offline');
  const attempt = readActionAttempt(await s.call('locks/unlock_door', 'lock', (seam) => seam.locks.unlockDoor({ device_id: lockId })));
  await s.waitForActionAttempt(attempt);
}

/**
 * workspaces/get: the workspace the API key opens, the call that checks a key before a lock account
 * keeps it (a wrong key: 401, `auth_failed`). `is_sandbox`: Seam's sandbox, whose devices are not real.
 */
export async function workspace(s: SeamSession): Promise<{ workspaceId: string; name: string; sandbox: boolean }> {
  const w = (await s.call('workspaces/get', 'lock', (seam) => seam.workspaces.get())) as Record<string, unknown> | null;
  const workspaceId = typeof w?.workspace_id === 'string' ? w.workspace_id : '';
  if (workspaceId === '') throw new LockProviderError('provider_error', undefined, 'workspaces/get answered no workspace');
  return { workspaceId, name: typeof w?.name === 'string' ? w.name : '', sandbox: w?.is_sandbox === true };
}
