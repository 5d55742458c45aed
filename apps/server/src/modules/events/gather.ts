/**
 * Gathers what arrives one piece at a time into arrays handed on together (decision 043): a piece
 * arriving when the last array was handed on at least `everyMs` ago leaves on the next turn of the
 * event loop with whatever arrives in the same turn; one arriving sooner waits until `everyMs`
 * after it. So the receiver is called at most once per `everyMs`, and a piece after a quiet spell
 * is not held back.
 */
export function gatherer<T>(everyMs: number, hand: (items: T[]) => void): (items: readonly T[]) => void {
  let gathered: T[] = [];
  let scheduled = false;
  let handedAt = -Infinity;
  const flush = () => {
    // A timer may fire a little before its delay by this clock (libuv counts whole milliseconds from
    // the loop's cached time): then it waits out the rest, so the receiver is never called sooner.
    const early = handedAt + everyMs - performance.now();
    if (early > 0) {
      setTimeout(flush, Math.ceil(early));
      return;
    }
    scheduled = false;
    handedAt = performance.now();
    const items = gathered;
    gathered = [];
    hand(items);
  };
  return (items) => {
    gathered.push(...items);
    if (scheduled) return;
    scheduled = true;
    const wait = handedAt + everyMs - performance.now();
    if (wait > 0) setTimeout(flush, Math.ceil(wait));
    else setImmediate(flush);
  };
}
