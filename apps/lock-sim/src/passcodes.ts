import { createHash } from 'node:crypto';

/**
 * The simulator's rule for "too simple" (TTLock -2032: "do not use consecutive or repeated
 * digits"): every digit the same (111111, 000000), or each digit one more or one less than the one
 * before (123456, 3456, 987654). TTLock does not publish its exact rule; this one refuses the
 * obvious sequences and nothing else.
 */
export function isTooSimple(code: string): boolean {
  if (code.length < 2) return false;
  const digits = [...code].map(Number);
  const steps = new Set(digits.slice(1).map((d, i) => d - digits[i]!));
  return steps.size === 1 && [0, 1, -1].includes([...steps][0]!);
}

/** Digits only, 4 to 9 of them (TTLock -3006 otherwise). */
export function hasValidLength(code: string): boolean {
  return /^\d{4,9}$/.test(code);
}

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
