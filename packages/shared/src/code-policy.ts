/**
 * What a lock takes as a code (issue 27, docs/credential-delivery.md "Code policy"): one policy per
 * lock model, used by the access rules' engine, the desk's forms and checks, and the lock
 * simulator alike, so a code is checked before it is promised to a guest. No imports: the
 * simulator bundles this file alone.
 *
 * TTLock (and every lock of its cloud): custom codes of 4 to 9 digits, at most 250 custom codes on
 * a lock (-3009 beyond), and "too simple" codes refused (-2032: "do not use consecutive or repeated
 * digits"). TTLock does not publish its exact rule; the one here refuses what the cloud was seen
 * refusing: every digit the same (1111, 000000) and runs of consecutive digits up or down (5678,
 * 123456, 987654).
 */

export interface CodePolicy {
  /** The lock cloud this policy is of (`Lock.provider`). */
  provider: string;
  minLength: number;
  maxLength: number;
  /** Custom codes a lock holds at once. Codes that ended or were withdrawn free their place once off the lock. */
  customCapacity: number;
  /** From how many live custom codes the desk is warned that the lock is filling. */
  warnAt: number;
  /**
   * A chosen (online) code reaches the lock only through a gateway near it, or the lock's own WiFi
   * (TTLock); false: the platform reaches its locks itself, through their own link or bridge (Seam),
   * so a lock that takes chosen codes takes them whenever it is online.
   */
  customNeedsGateway: boolean;
  /** The lock's keypad has no 0 key (a Nuki Keypad, `Lock.keypadWithoutZero`): a code with a 0 cannot be typed on it. */
  withoutZero?: boolean;
}

export const TTLOCK_CODE_POLICY: CodePolicy = { provider: 'ttlock', minLength: 4, maxLength: 9, customCapacity: 250, warnAt: 225, customNeedsGateway: true };
/**
 * Seam (docs/seam.md): its devices' code lengths and capacities differ by brand and are checked by
 * Seam itself (`supported_code_lengths`, refused as `invalid_input`); the console holds them to
 * TTLock's numbers, a safe middle, and Seam reaches its locks itself.
 */
export const SEAM_CODE_POLICY: CodePolicy = { ...TTLOCK_CODE_POLICY, provider: 'seam', customNeedsGateway: false };

const POLICIES: Record<string, CodePolicy> = { ttlock: TTLOCK_CODE_POLICY, seam: SEAM_CODE_POLICY };

/** The policy of a lock's cloud; a lock of no known cloud (a room without a lock) is held to TTLock's. */
export function codePolicyFor(provider: string | null | undefined): CodePolicy {
  return (provider && POLICIES[provider]) || TTLOCK_CODE_POLICY;
}

/** The policy of one lock: its cloud's, and what its own keypad lacks (a 0 key). */
export function lockCodePolicy(lock: { provider?: string | null; keypadWithoutZero?: boolean | null } | null | undefined): CodePolicy {
  const policy = codePolicyFor(lock?.provider);
  return lock?.keypadWithoutZero ? { ...policy, withoutZero: true } : policy;
}

/**
 * Every digit the same, or each digit one more (or one less) than the one before, counting 9 to 0
 * as one more (7890, 8901, 2109): the cloud's exact rule is not published, so the console refuses
 * a little more than it was seen refusing, never less.
 */
export function isTooSimple(code: string): boolean {
  if (code.length < 2) return false;
  const digits = [...code].map(Number);
  const steps = new Set(digits.slice(1).map((d, i) => (d - digits[i]! + 10) % 10));
  return steps.size === 1 && [0, 1, 9].includes([...steps][0]!);
}

export function hasValidLength(code: string, policy: CodePolicy = TTLOCK_CODE_POLICY): boolean {
  return new RegExp(`^\\d{${policy.minLength},${policy.maxLength}}$`).test(code);
}

/** Why a code cannot be put on a lock, or null when it can. */
export type TCodeProblem = 'code_length' | 'code_too_simple' | 'no_zero_key' | 'duplicate_code';

/** Checks a custom code against a lock's policy and the digits live on the lock (`taken`). */
export function codeProblem(code: string, taken: ReadonlySet<string> = new Set(), policy: CodePolicy = TTLOCK_CODE_POLICY): TCodeProblem | null {
  if (!hasValidLength(code, policy)) return 'code_length';
  if (isTooSimple(code)) return 'code_too_simple';
  if (policy.withoutZero && code.includes('0')) return 'no_zero_key';
  if (taken.has(code)) return 'duplicate_code';
  return null;
}

/** A random code of `length` digits that the policy takes and that is not in `taken`; `random(n)` gives an integer in [0, n). */
export function randomCode(length: number, taken: ReadonlySet<string>, random: (n: number) => number, policy: CodePolicy = TTLOCK_CODE_POLICY): string {
  for (;;) {
    // Without a 0 key: each digit drawn from 1 to 9.
    const code = policy.withoutZero ? Array.from({ length }, () => String(1 + random(9))).join('') : String(random(10 ** length)).padStart(length, '0');
    if (codeProblem(code, taken, policy) === null) return code;
  }
}
