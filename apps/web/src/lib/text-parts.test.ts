import { describe, expect, it } from 'vitest';
import en from '../../../../locales/en.json';
import { LATER_TEXT_GROUPS, textPart } from './text-parts';

describe('the two parts of a language', () => {
  it('name groups that exist, and together hold every text once', () => {
    const all = en as Record<string, unknown>;
    for (const group of LATER_TEXT_GROUPS) expect(Object.keys(all), group).toContain(group);
    const first = textPart(all, 'first');
    const later = textPart(all, 'later');
    expect(Object.keys(later).sort()).toEqual([...LATER_TEXT_GROUPS].sort());
    expect(Object.keys(first).filter((k) => k in later)).toEqual([]);
    expect({ ...first, ...later }).toEqual(all);
  });
});
