import os from 'node:os';
import argon2 from 'argon2';

/** argon2id with the OWASP parameters (19 MiB, 2 iterations, parallelism 1), set explicitly. */
export const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

/**
 * Hashing runs on libuv's thread pool. Left alone, a burst of sign-ins keeps every core busy and
 * the event loop (every other request) waits; so at most one hash fewer than the machine has
 * cores runs at a time, and the rest queue here.
 */
const MAX_CONCURRENT_HASHES = Math.max(1, os.availableParallelism() - 1);
let running = 0;
const waiting: (() => void)[] = [];

async function withHashSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT_HASHES) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await work();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

export function hashPassword(password: string): Promise<string> {
  return withHashSlot(() => argon2.hash(password, ARGON2_OPTIONS));
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies a password against a stored hash. With no hash (unknown account) it still does the
 * work of one verification, so response times do not tell which accounts exist.
 */
export async function verifyPassword(hash: string | null | undefined, password: string): Promise<boolean> {
  if (!hash) {
    dummyHash ??= hashPassword('not-a-real-password');
    const dummy = await dummyHash;
    await withHashSlot(() => argon2.verify(dummy, password)).catch(() => false);
    return false;
  }
  try {
    return await withHashSlot(() => argon2.verify(hash, password));
  } catch {
    return false;
  }
}
