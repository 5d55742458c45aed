import { createHash } from 'node:crypto';
import { isTooSimple } from '@console/shared/code-policy';

/**
 * What the cloud takes as a custom code is the console's own code policy (packages/shared
 * code-policy.ts): the same rules refuse a code here as in the console, and the console checks them
 * before it promises a code.
 */
export { hasValidLength, isTooSimple } from '@console/shared/code-policy';

/**
 * A "random" passcode as the cloud would make it from the key data it shares with the lock:
 * deterministic for the same lock, id and validity (so a run can be reproduced), 6 to 9 digits,
 * never too simple and never one of `taken`.
 */
export function generatePasscode(seed: string, taken: ReadonlySet<string>): string {
  for (let attempt = 0; ; attempt += 1) {
    const hash = createHash('sha256').update(`${seed}:${attempt}`).digest();
    const length = 6 + (hash[0]! % 4);
    let code = '';
    for (let i = 1; code.length < length; i += 1) code += String(hash[i]! % 10);
    if (!isTooSimple(code) && !taken.has(code)) return code;
  }
}

const HOUR = 3_600_000;

/**
 * Whole hours of a lock: generated passcodes start and end on the lock's own hours, so in a
 * half-hour zone (UTC+5:30) an hour begins at :30 UTC. `offsetMs` is the lock's timezoneRawOffset.
 */
export function floorToLocalHour(ms: number, offsetMs: number): number {
  return Math.floor((ms + offsetMs) / HOUR) * HOUR - offsetMs;
}

export function ceilToLocalHour(ms: number, offsetMs: number): number {
  return Math.ceil((ms + offsetMs) / HOUR) * HOUR - offsetMs;
}
