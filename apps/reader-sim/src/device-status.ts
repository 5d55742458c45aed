/**
 * What the simulated desk device (device.ts) says of itself and of its failures, independent of any
 * protocol: each service (type1.ts, type2.ts, type3.ts) turns these statuses into its own codes.
 */

/** Why an operation failed, independent of any protocol. */
export type DeviceStatus =
  | 'no_card'
  | 'auth_failed'
  | 'not_authenticated'
  | 'access_denied'
  | 'read_failed'
  | 'write_failed'
  | 'bad_access_bits'
  | 'no_finger'
  | 'no_finger_module'
  | 'dispenser_empty'
  | 'card_at_reader'
  | 'no_card_at_reader'
  | 'no_dispenser'
  | 'bin_full'
  | 'device_not_connected';

export const STATUS_TEXT: Record<DeviceStatus, string> = {
  no_card: 'no card in the field',
  auth_failed: 'authentication failed: wrong key for this sector',
  not_authenticated: 'the sector of this block is not authenticated',
  access_denied: 'the access bits do not allow this (or the block is read-only)',
  read_failed: 'read failed',
  write_failed: 'write failed',
  bad_access_bits: 'the access bits are inconsistent',
  no_finger: 'no finger on the sensor',
  no_finger_module: 'the device has no fingerprint module',
  dispenser_empty: 'the card dispenser is empty',
  card_at_reader: 'a card is already at the reader',
  no_card_at_reader: 'no card at the reader to capture',
  no_dispenser: 'no card dispenser is attached',
  bin_full: 'the capture bin is full',
  device_not_connected: 'device not connected or not on',
};

export class DeviceError extends Error {
  constructor(
    readonly status: DeviceStatus,
    message: string = STATUS_TEXT[status],
  ) {
    super(message);
  }
}

export const DEVICE = {
  vid: 1047,
  pid: 32800,
  model: 'SIM-MF1 desk encoder (simulated)',
  firmware: 'SIM-1.0',
  manufacturer: 'SIMULATED',
} as const;

export type FailureOp = 'request' | 'auth' | 'read' | 'write';
/** A failure forced on the next matching operation(s): `fail` answers an error; `corrupt` (write only) answers success but stores other data. */
export interface InjectedFailure {
  op: FailureOp;
  effect: 'fail' | 'corrupt';
  times: number;
}

export type DeviceEvent = { type: 'card'; present: boolean; uid: string | null } | { type: 'device'; connected: boolean };

export interface CallLog {
  at: number;
  service: 'type1' | 'type2' | 'type3';
  op: string;
  status: 'ok' | string;
}
