import { describe, expect, it } from 'vitest';
import { auditDiff, changedFirst, sameJson, showJson } from './audit-diff';

describe('the before/after view of an audit entry', () => {
  it('has a row per field of either side, marked added, removed, changed or the same', () => {
    expect(auditDiff({ name: 'Old', sort: 1, note: 'x' }, { name: 'New', sort: 1, group: 3 })).toEqual([
      { field: 'name', before: 'Old', after: 'New', change: 'changed' },
      { field: 'sort', before: 1, after: 1, change: 'same' },
      { field: 'note', before: 'x', after: undefined, change: 'removed' },
      { field: 'group', before: undefined, after: 3, change: 'added' },
    ]);
  });

  it('shows an entry with only an after (a creation) or only a before (a deletion) as added or removed fields', () => {
    expect(auditDiff(null, { name: 'A' })).toEqual([{ field: 'name', before: undefined, after: 'A', change: 'added' }]);
    expect(auditDiff({ name: 'A' }, undefined)).toEqual([{ field: 'name', before: 'A', after: undefined, change: 'removed' }]);
    expect(auditDiff(null, null)).toEqual([]);
  });

  it('compares nested values as JSON, whatever the order of their keys', () => {
    expect(sameJson({ a: [1, { b: 2, c: 3 }] }, { a: [1, { c: 3, b: 2 }] })).toBe(true);
    expect(sameJson({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(sameJson(null, 0)).toBe(false);
    expect(auditDiff({ target: { cleanStatus: 'dirty' } }, { target: { cleanStatus: 'dirty' } })[0]!.change).toBe('same');
  });

  it('keeps a before or after that is not an object as one row', () => {
    expect(auditDiff([1, 2], [1, 2, 3])).toEqual([{ field: null, before: [1, 2], after: [1, 2, 3], change: 'changed' }]);
    expect(auditDiff('a', undefined)).toEqual([{ field: null, before: 'a', after: undefined, change: 'removed' }]);
  });

  it('puts the fields that changed first, the unchanged ones apart', () => {
    const { changed, same } = changedFirst(auditDiff({ a: 1, b: 2, c: 3 }, { a: 1, b: 3, d: 4 }));
    expect(changed.map((r) => [r.field, r.change])).toEqual([
      ['b', 'changed'],
      ['c', 'removed'],
      ['d', 'added'],
    ]);
    expect(same.map((r) => r.field)).toEqual(['a']);
  });

  it('writes text as it is, empty text as "", and anything else as compact JSON', () => {
    expect(showJson('Room 101')).toBe('Room 101');
    expect(showJson('')).toBe('""');
    expect(showJson({ a: 1, b: [true, null] })).toBe('{"a":1,"b":[true,null]}');
    expect(showJson(undefined)).toBe('');
  });
});
