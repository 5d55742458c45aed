import { HEX_BLOCK, HEX_KEY, isBlockNumber, type KeyType } from './mifare';

/** A parameter a service could not accept (each service answers it in its own way). */
export class ParamError extends Error {}

type Params = Record<string, unknown>;

export function text(p: Params, name: string, required = true): string | undefined {
  const value = p[name];
  if (value === undefined || value === null || value === '') {
    if (required) throw new ParamError(`${name} is required`);
    return undefined;
  }
  if (typeof value !== 'string' && typeof value !== 'number') throw new ParamError(`${name} must be text`);
  return String(value);
}

export function integer(p: Params, name: string, required = true): number | undefined {
  const raw = text(p, name, required);
  if (raw === undefined) return undefined;
  if (!/^-?\d+$/.test(raw.trim())) throw new ParamError(`${name} must be a whole number`);
  return Number(raw);
}

export function block(p: Params, name = 'block'): number {
  const value = integer(p, name)!;
  if (!isBlockNumber(value)) throw new ParamError(`${name} must be a block number from 0 to 63`);
  return value;
}

export function key(p: Params, name = 'key', required = true): Buffer | undefined {
  const value = text(p, name, required);
  if (value === undefined) return undefined;
  if (!HEX_KEY.test(value)) throw new ParamError(`${name} must be 12 hex characters`);
  return Buffer.from(value, 'hex');
}

export function blockData(p: Params, name = 'data'): Buffer {
  const value = text(p, name)!;
  if (!HEX_BLOCK.test(value)) throw new ParamError(`${name} must be 32 hex characters`);
  return Buffer.from(value, 'hex');
}

export function keyType(p: Params, name: string): KeyType {
  const value = (text(p, name, false) ?? 'A').toUpperCase();
  if (value !== 'A' && value !== 'B') throw new ParamError(`${name} must be A or B`);
  return value;
}
