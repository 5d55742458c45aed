import type { CardDump } from '@console/card-format';
import type { FastifyReply } from 'fastify';
import type { LockCloud } from './cloud';
import type { CardNumberOrder, InjectedFailure, SimAccount, SimAccountKind, SimDoorState, SimLock, SimRegion } from './state';

/**
 * What a request of the control API (control.ts) says, read and checked: its body's fields (a wrong
 * one is a 400 naming it), the things it names (lookupsOf), and the answer's form (handle).
 */

export class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export type Body = Record<string, unknown>;

export function body(value: unknown): Body {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Body) : {};
}

export function optional<T>(b: Body, key: string, check: (v: unknown) => v is T, what: string): T | undefined {
  const value = b[key];
  if (value === undefined) return undefined;
  if (!check(value)) throw new ControlError(400, `${key}: ${what}`);
  return value;
}

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
export const isInt = (v: unknown): v is number => Number.isInteger(v);
export const isBool = (v: unknown): v is boolean => typeof v === 'boolean';
export const isString = (v: unknown): v is string => typeof v === 'string';
export const isNullableInt = (v: unknown): v is number | null => v === null || Number.isInteger(v);
export const isLatency = (v: unknown): v is number | [number, number] => isNumber(v) || (Array.isArray(v) && v.length === 2 && v.every(isNumber));
export const isIntArray = (v: unknown): v is number[] => Array.isArray(v) && v.every(isInt);
export const isKind = (v: unknown): v is 'passcode' | 'card' | 'face' => v === 'passcode' || v === 'card' || v === 'face';
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);
export const isRegion = (v: unknown): v is SimRegion => v === 'eu' || v === 'cn';
export const isAccountKind = (v: unknown): v is SimAccountKind => v === 'ttlock' || v === 'tthotel';
export const isNullableCount = (v: unknown): v is number | null => v === null || (Number.isInteger(v) && (v as number) >= 0);
const isOrder = (v: unknown): v is CardNumberOrder => v === 'big' || v === 'little';
export const isDoorState = (v: unknown): v is SimDoorState => v === 'closed' || v === 'open' || v === 'left_open' || v === 'left_open_long';
/** A time zone as TTLock gives it: ms from UTC, -12 h to +14 h. */
const isTimezone = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= -12 * 3_600_000 && (v as number) <= 14 * 3_600_000;
const isPlace = (v: unknown): v is { name: string; number: number } => {
  const b = body(v);
  return v === b && typeof b.name === 'string' && Number.isInteger(b.number);
};

/** What a lock is (its capabilities and where it is), as POST and PATCH /sim/locks take them. */
export function lockFeaturesOf(b: Body) {
  const features = {
    keypad: optional(b, 'keypad', isBool, 'true or false'),
    cardReader: optional(b, 'cardReader', isBool, 'true or false'),
    faceModule: optional(b, 'faceModule', isBool, 'true or false'),
    doorSensor: optional(b, 'doorSensor', isBool, 'true or false'),
    wifi: optional(b, 'wifi', isBool, 'true or false'),
    networkName: optional(b, 'networkName', isString, 'text'),
    timezoneRawOffset: optional(b, 'timezoneRawOffset', isTimezone, 'ms from UTC, -43200000 to 50400000'),
    cardNumberOrder: optional(b, 'cardNumberOrder', isOrder, "'big' or 'little'"),
    building: optional(b, 'building', isPlace, '{ name, number }'),
    floor: optional(b, 'floor', isPlace, '{ name, number }'),
  };
  return Object.fromEntries(Object.entries(features).filter(([, v]) => v !== undefined)) as Partial<typeof features>;
}

export function capacityOf(b: Body): Partial<SimLock['capacity']> | undefined {
  const c = b.capacity;
  if (c === undefined) return undefined;
  const cap = body(c);
  const out: Partial<SimLock['capacity']> = {};
  for (const key of ['passcodes', 'cards', 'faces'] as const) {
    const v = optional(cap, key, isInt, 'a whole number');
    if (v !== undefined) out[key] = v;
  }
  return out;
}

export function failureOf(b: Body): InjectedFailure {
  const code = optional(b, 'code', isInt, 'a TTLock errcode');
  if (code === undefined) throw new ControlError(400, 'code: a TTLock errcode is required');
  return { code, message: optional(b, 'message', isString, 'text'), ops: optional(b, 'ops', isStringArray, 'TTLock paths such as "keyboardPwd/add"') };
}

/**
 * A room card as a desk reader reads it (`card` of `/use`): `uid`, `sector`, `keyA` (the key A its
 * trailer has) and the sector's data blocks, either as `{ block, data }` with absolute block
 * numbers or as three strings (blocks 0 to 2 of the sector); `trailer` instead of `keyA` also
 * does (its first 12 hex). Hex in any case.
 */
export function cardDumpOf(value: unknown): CardDump {
  const c = body(value);
  const uid = c.uid;
  if (typeof uid !== 'string' || !/^([0-9A-Fa-f]{8}|[0-9A-Fa-f]{14})$/.test(uid)) throw new ControlError(400, 'card.uid: 8 or 14 hexadecimal characters');
  const sector = c.sector;
  if (!isInt(sector) || sector < 0 || sector > 15) throw new ControlError(400, 'card.sector: 0 to 15');
  const keyA = typeof c.keyA === 'string' ? c.keyA : typeof c.trailer === 'string' ? c.trailer.slice(0, 12) : undefined;
  if (keyA === undefined || !/^[0-9A-Fa-f]{12}$/.test(keyA))
    throw new ControlError(400, 'card.keyA: the 12 hexadecimal characters of the key A in the sector trailer');
  const raw = c.blocks;
  if (!Array.isArray(raw)) throw new ControlError(400, 'card.blocks: the sector data blocks, as { block, data } or three strings of 32 hexadecimal characters');
  const blocks = raw.map((item: unknown, i) => (typeof item === 'string' ? { block: sector * 4 + i, data: item } : body(item)));
  for (const block of blocks) {
    if (!isInt(block.block) || typeof block.data !== 'string' || !/^[0-9A-Fa-f]{32}$/.test(block.data))
      throw new ControlError(400, 'card.blocks: each { block, data } with 32 hexadecimal characters');
  }
  for (let i = 0; i < 3; i += 1)
    if (!blocks.some((block) => block.block === sector * 4 + i)) throw new ControlError(400, `card.blocks: block ${sector * 4 + i} is missing`);
  return { uid, sector, keyA, blocks: blocks as { block: number; data: string }[] };
}

export async function handle(reply: FastifyReply, run: () => unknown | Promise<unknown>) {
  try {
    const result = await run();
    return reply.send({ simulated: true, ...(result as object) });
  } catch (error) {
    const status = error instanceof ControlError ? error.status : 400;
    return reply.status(status).send({ simulated: true, error: error instanceof Error ? error.message : String(error) });
  }
}

/** The simulated things a request names: 404 when there is none (400 for an account named in a body). */
export function lookupsOf(cloud: LockCloud) {
  const lockOf = (id: string): SimLock => {
    const lock = cloud.state.locks[id];
    if (!lock) throw new ControlError(404, `no simulated lock ${id}`);
    return lock;
  };
  const gatewayOf = (id: string) => {
    const gateway = cloud.state.gateways[id];
    if (!gateway) throw new ControlError(404, `no simulated gateway ${id}`);
    return gateway;
  };
  const accountOf = (username: string, status = 404): SimAccount => {
    const account = cloud.state.accounts[username];
    if (!account) throw new ControlError(status, `no simulated account ${username}`);
    return account;
  };
  /** `account` of a body (a username; default: the default account), 400 when there is no such account. */
  const ownerIn = (b: Body): string | undefined => {
    const account = optional(b, 'account', isString, 'a username');
    if (account !== undefined) accountOf(account, 400);
    return account;
  };
  /** Pairing a gateway of another account is refused (400). */
  const checkPairing = (owner: string, gatewayId: number) => {
    gatewayOf(String(gatewayId));
    try {
      cloud.checkPairing(owner, gatewayId);
    } catch (error) {
      throw new ControlError(400, error instanceof Error ? error.message : String(error));
    }
  };

  return { lockOf, gatewayOf, accountOf, ownerIn, checkPairing };
}

export type Lookups = ReturnType<typeof lookupsOf>;
