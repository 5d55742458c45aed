import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TTLOCK_CODE_POLICY, codePolicyFor, codeProblem, isTooSimple, randomCode } from './code-policy';

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
});
