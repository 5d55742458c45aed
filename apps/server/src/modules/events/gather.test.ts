import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { gatherer } from './gather';

describe('gatherer (decision 043)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'setImmediate', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('hands a piece after a quiet spell on the next turn, with what arrived in the same turn', () => {
    const handed: number[][] = [];
    const push = gatherer<number>(50, (items) => handed.push(items));
    push([1]);
    push([2, 3]);
    expect(handed).toEqual([]);
    vi.advanceTimersByTime(0);
    expect(handed).toEqual([[1, 2, 3]]);
  });

  it('hands what arrives sooner than everyMs after the last hand-over at everyMs, all together, in order', () => {
    const handed: { at: number; items: number[] }[] = [];
    const push = gatherer<number>(50, (items) => handed.push({ at: performance.now(), items }));
    push([1]);
    vi.advanceTimersByTime(0);
    for (let i = 2; i <= 20; i += 1) {
      vi.advanceTimersByTime(5);
      push([i]);
    }
    vi.advanceTimersByTime(200);
    expect(handed.flatMap((h) => h.items)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(handed.length).toBe(3);
    for (let i = 1; i < handed.length; i += 1) expect(handed[i]!.at - handed[i - 1]!.at).toBeGreaterThanOrEqual(50);
  });

  it('never hands sooner than everyMs after the last hand-over, even when a timer fires early (libuv counts whole milliseconds)', () => {
    const faked = globalThis.setTimeout;
    // Every timer fires 1.5 ms before its delay, as a real one may by performance.now().
    const early = vi
      .spyOn(globalThis, 'setTimeout')
      .mockImplementation(((fn: () => void, ms?: number) => faked(fn, Math.max(0, (ms ?? 0) - 1.5))) as typeof setTimeout);
    try {
      const handed: number[] = [];
      const push = gatherer<number>(50, () => handed.push(performance.now()));
      push([1]);
      vi.advanceTimersByTime(0);
      for (let i = 0; i < 40; i += 1) {
        vi.advanceTimersByTime(5);
        push([i]);
      }
      vi.advanceTimersByTime(200);
      expect(handed.length).toBeGreaterThan(2);
      for (let i = 1; i < handed.length; i += 1) expect(handed[i]! - handed[i - 1]!).toBeGreaterThanOrEqual(50);
    } finally {
      early.mockRestore();
    }
  });

  it('is prompt again once the hotel is quiet for everyMs', () => {
    const handed: number[][] = [];
    const push = gatherer<number>(50, (items) => handed.push(items));
    push([1]);
    vi.advanceTimersByTime(0);
    vi.advanceTimersByTime(60);
    push([2]);
    vi.advanceTimersByTime(0);
    expect(handed).toEqual([[1], [2]]);
  });
});
