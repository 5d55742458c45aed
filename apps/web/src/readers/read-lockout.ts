import { CARD_READ_LOCKOUT_MS } from './constants';

/**
 * The card-read rules of spec §4 and §5, as a small state machine with an injectable clock:
 * - a click while a read is in progress is refused (`busy`: "do not click frequently while reading");
 * - a read within 2 s of the last accepted one is ignored: the same card with the warning
 *   `sameCard` ("do not read the same card repeatedly"), another card silently (`ignored`);
 * - anything else is `accept`ed, and the 2 s start again.
 *
 * A screen calls `begin()` when the user asks for a read, then `end(uid)` with the card number
 * read (or `end(null)` when the read failed: that is never a card read).
 */
export type ReadStart = 'ok' | 'busy';
export type ReadOutcome = 'accept' | 'sameCard' | 'ignored' | 'failed';

export class ReadLockout {
  private reading = false;
  private last: { uid: string; at: number } | null = null;
  private readonly now: () => number;
  private readonly lockoutMs: number;

  constructor(options: { now?: () => number; lockoutMs?: number } = {}) {
    this.now = options.now ?? (() => Date.now());
    this.lockoutMs = options.lockoutMs ?? CARD_READ_LOCKOUT_MS;
  }

  get isReading(): boolean {
    return this.reading;
  }

  begin(): ReadStart {
    if (this.reading) return 'busy';
    this.reading = true;
    return 'ok';
  }

  end(uid: string | null): ReadOutcome {
    this.reading = false;
    if (uid === null) return 'failed';
    const at = this.now();
    const card = uid.toUpperCase();
    if (this.last && at - this.last.at < this.lockoutMs) return this.last.uid === card ? 'sameCard' : 'ignored';
    this.last = { uid: card, at };
    return 'accept';
  }

  /** Forgets the last card (a new page, another guest). */
  reset(): void {
    this.reading = false;
    this.last = null;
  }
}
