/**
 * The frames of reader type 2 (the raw command channel behind `/write`), both directions:
 *
 *   command  02 LEN CMD DATA... BCC 03        LEN = 1 + DATA length
 *   answer   02 LEN CMD STATUS DATA... BCC 03 LEN = 2 + DATA length; CMD echoes the command
 *
 * BCC is the XOR of every byte from LEN to the last DATA byte. Bytes travel as hex text in the
 * bridge's `data` parameter and answer. Shared by the simulator and (as a copy in the browser
 * driver, apps/web/src/readers/type2.ts) the console.
 */

export const STX = 0x02;
export const ETX = 0x03;

export const TYPE2_CMD = {
  INFO: 0x01,
  BEEP: 0x02,
  REQUEST: 0x10,
  AUTH: 0x11,
  READ: 0x12,
  WRITE: 0x13,
  HALT: 0x14,
  FINGER_CAPTURE: 0x20,
  DISPENSER_STATUS: 0x30,
  DISPENSE: 0x31,
  CAPTURE: 0x32,
} as const;

export const TYPE2_STATUS = {
  OK: 0x00,
  NO_CARD: 0x01,
  AUTH_FAILED: 0x02,
  NOT_AUTHENTICATED: 0x03,
  ACCESS_DENIED: 0x04,
  READ_FAILED: 0x05,
  WRITE_FAILED: 0x06,
  BAD_ACCESS_BITS: 0x07,
  NO_FINGER: 0x08,
  NO_FINGER_MODULE: 0x09,
  DISPENSER_EMPTY: 0x0a,
  CARD_AT_READER: 0x0b,
  NO_CARD_AT_READER: 0x0c,
  NO_DISPENSER: 0x0d,
  BIN_FULL: 0x0e,
  BAD_FRAME: 0xe0,
  UNKNOWN_COMMAND: 0xe1,
  BAD_PARAMETER: 0xe2,
} as const;

/** Key types in an AUTH command, as MIFARE's own command codes. */
export const KEY_A = 0x60;
export const KEY_B = 0x61;

const xor = (bytes: Uint8Array) => bytes.reduce((a, b) => a ^ b, 0);

export function encodeCommand(cmd: number, data: Uint8Array = new Uint8Array()): Buffer {
  const body = Buffer.from([data.length + 1, cmd, ...data]);
  return Buffer.from([STX, ...body, xor(body), ETX]);
}

export function encodeAnswer(cmd: number, status: number, data: Uint8Array = new Uint8Array()): Buffer {
  const body = Buffer.from([data.length + 2, cmd, status, ...data]);
  return Buffer.from([STX, ...body, xor(body), ETX]);
}

/** A command frame's CMD and DATA, or why it is not one. */
export function decodeCommand(frame: Buffer): { cmd: number; data: Buffer } | { error: string } {
  if (frame.length < 5) return { error: 'frame too short' };
  if (frame[0] !== STX || frame[frame.length - 1] !== ETX) return { error: 'frame must start with 02 and end with 03' };
  const len = frame[1]!;
  if (len < 1 || frame.length !== len + 4) return { error: `LEN ${len} does not match the frame's ${frame.length} bytes` };
  const body = frame.subarray(1, frame.length - 2);
  if (xor(body) !== frame[frame.length - 2]) return { error: 'BCC does not match' };
  return { cmd: frame[2]!, data: Buffer.from(frame.subarray(3, frame.length - 2)) };
}
