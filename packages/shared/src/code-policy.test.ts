import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SEAM_CODE_POLICY, TTLOCK_CODE_POLICY, codePolicyFor, codeProblem, isTooSimple, lockCodePolicy, randomCode } from './code-policy';

describe('the lock code policy (issue 27)', () => {
  it('refuses what TTLock refuses as too simple: one digit repeated, and runs up or down (across 9 to 0 too)', () => {
    for (const code of ['1111', '000000', '5678', '123456', '987654', '3210', '7890', '8901', '210987', '99999999']) expect(isTooSimple(code), code).toBe(true);
    for (const code of ['1212', '1357', '5679', '482193', '112233', '135790', '4821', '6123']) expect(isTooSimple(code), code).toBe(false);
  });

  it('names why a code cannot go on a lock: its length, too simple, or the same digits live on it', () => {
    expect(codeProblem('123')).toBe('code_length');
    expect(codeProblem('1234567890')).toBe('code_length');
    expect(codeProblem('12a4')).toBe('code_length');
    expect(codeProblem('5678')).toBe('code_too_simple');
    expect(codeProblem('4821', new Set(['4821']))).toBe('duplicate_code');
    expect(codeProblem('4821', new Set(['4822']))).toBeNull();
    expect(codePolicyFor('ttlock')).toBe(TTLOCK_CODE_POLICY);
    expect(codePolicyFor(null).customCapacity).toBe(250);
  });

  it('draws random codes the policy takes, never one live on the lock', () => {
    fc.assert(
      fc.property(fc.integer({ min: 4, max: 9 }), fc.array(fc.integer({ min: 0, max: 2 ** 31 }), { minLength: 1, maxLength: 50 }), (length, seeds) => {
        let i = 0;
        const taken = new Set(['123456', '482193']);
        // Any source of numbers, stepping on so that a draw the policy refuses is followed by another.
        const code = randomCode(length, taken, (n) => (seeds[i % seeds.length]! + i++ * 7919) % n);
        return code.length === length && codeProblem(code, taken) === null;
      }),
    );
  });

  it('gives a keypad without a 0 key (a Nuki Keypad) no code with a 0, and names a chosen one that has one', () => {
    const nuki = lockCodePolicy({ provider: 'seam', keypadWithoutZero: true });
    expect(nuki).toMatchObject({ ...SEAM_CODE_POLICY, withoutZero: true });
    expect(lockCodePolicy({ provider: 'seam', keypadWithoutZero: false })).toBe(SEAM_CODE_POLICY);
    expect(lockCodePolicy(null)).toBe(TTLOCK_CODE_POLICY);
    expect(codeProblem('583906', new Set(), nuki)).toBe('no_zero_key');
    expect(codeProblem('583916', new Set(), nuki)).toBeNull();
    expect(codeProblem('583906', new Set(), SEAM_CODE_POLICY)).toBeNull();
    // Too simple is still said first (1234 has no 0, 0000 is too simple either way).
    expect(codeProblem('0000', new Set(), nuki)).toBe('code_too_simple');
    // A thousand draws: not one 0 (by chance, a 6-digit code has one about every second draw).
    const random = (n: number) => Math.floor(Math.random() * n);
    const codes = Array.from({ length: 1_000 }, () => randomCode(6, new Set(), random, nuki));
    expect(codes.filter((c) => c.includes('0'))).toEqual([]);
    expect(codes.every((c) => codeProblem(c, new Set(), nuki) === null)).toBe(true);
    expect(new Set(codes.flatMap((c) => [...c]))).toEqual(new Set('123456789'));
  });
});
