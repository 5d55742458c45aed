import { describe, expect, it } from 'vitest';
import en from '../../../../locales/en.json';
import { FIRST_TEXT_KEYS, LATER_TEXT_GROUPS, LATER_TEXT_SUBGROUPS, textPart } from './text-parts';

type Texts = Record<string, unknown>;

/** The two parts put together as i18next does (addResourceBundle, deep). */
function deepMerge(a: Texts, b: Texts): Texts {
  const out: Texts = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const here = out[key];
    out[key] = here && typeof here === 'object' && value && typeof value === 'object' ? deepMerge(here as Texts, value as Texts) : value;
  }
  return out;
}

describe('the two parts of a language', () => {
  it('name groups that exist, and together hold every text once', () => {
    const all = en as Texts;
    for (const group of LATER_TEXT_GROUPS) expect(Object.keys(all), group).toContain(group);
    for (const path of LATER_TEXT_SUBGROUPS) {
      const [group, sub] = path.split('.') as [string, string];
      expect(Object.keys(all[group] as Texts), path).toContain(sub);
      expect(LATER_TEXT_GROUPS as readonly string[], path).not.toContain(group);
    }
    const first = textPart(all, 'first');
    const later = textPart(all, 'later');
    const subgroupOwners = LATER_TEXT_SUBGROUPS.map((p) => p.split('.')[0]!);
    expect(Object.keys(later).sort()).toEqual([...new Set([...LATER_TEXT_GROUPS, ...subgroupOwners])].sort());
    // A later sub-group is not in the first part; a later group is not there at all.
    for (const path of LATER_TEXT_SUBGROUPS) {
      const [group, sub] = path.split('.') as [string, string];
      expect(Object.keys(first[group] as Texts)).not.toContain(sub);
      expect(Object.keys(later[group] as Texts)).toEqual(LATER_TEXT_SUBGROUPS.filter((p) => p.startsWith(`${group}.`)).map((p) => p.split('.')[1]));
    }
    // A later group is in the first part only by its FIRST_TEXT_KEYS, and those are not in the later part.
    for (const group of Object.keys(first).filter((k) => LATER_TEXT_GROUPS.includes(k as never))) {
      expect(Object.keys(first[group] as Texts).map((key) => `${group}.${key}`)).toEqual(FIRST_TEXT_KEYS.filter((p) => p.startsWith(`${group}.`)));
    }
    for (const path of FIRST_TEXT_KEYS) {
      const [group, key] = path.split('.') as [string, string];
      expect(LATER_TEXT_GROUPS as readonly string[], path).toContain(group);
      expect(Object.keys(all[group] as Texts), path).toContain(key);
      expect(Object.keys(later[group] as Texts)).not.toContain(key);
    }
    expect(deepMerge(first, later)).toEqual(all);
  });
});
