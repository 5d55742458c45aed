import { describe, expect, it } from 'vitest';
import { barSpan, blocksToFetch } from './timeline-geometry';

describe('barSpan', () => {
  it('runs from the middle of the arrival day to the middle of the departure day', () => {
    expect(barSpan('2026-12-01', 7, '2026-12-02', '2026-12-04')).toEqual({ start: 1.5, end: 3.5, cutStart: false, cutEnd: false });
  });
  it('cuts a bar at the window edges and says so', () => {
    expect(barSpan('2026-12-01', 7, '2026-11-20', '2026-12-20')).toEqual({ start: 0, end: 7, cutStart: true, cutEnd: true });
  });
  it('gives a stay of hours half a day, and nothing for a bar outside the window', () => {
    expect(barSpan('2026-12-01', 7, '2026-12-03', '2026-12-03')).toEqual({ start: 2.5, end: 3, cutStart: false, cutEnd: false });
    expect(barSpan('2026-12-01', 7, '2026-12-09', '2026-12-10')).toBeNull();
    expect(barSpan('2026-12-01', 7, '2026-11-25', '2026-11-30')).toBeNull();
  });
});

describe('blocksToFetch', () => {
  it('asks nothing while the first block (in the window answer) is drawn far from the second', () => {
    expect(blocksToFetch(0, 30, 10)).toEqual([]);
    expect(blocksToFetch(-1, -1, 10)).toEqual([]);
  });
  it('asks for the next block ahead, within a quarter of a block of it, and for the blocks drawn', () => {
    expect(blocksToFetch(40, 75, 10)).toEqual([1]);
    expect(blocksToFetch(130, 170, 10)).toEqual([1]);
    expect(blocksToFetch(160, 190, 10)).toEqual([1, 2]);
  });
  it('asks for the previous block when scrolled back near it, and never past the last', () => {
    expect(blocksToFetch(215, 240, 10)).toEqual([1, 2]);
    expect(blocksToFetch(960, 999, 10)).toEqual([9]);
    expect(blocksToFetch(910, 999, 10)).toEqual([8, 9]);
  });
});
