/** A value of an audit entry's before or after (JSON). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export interface DiffRow {
  /** The field's name (a key of the before or after object), or null for a value that is not an object. */
  field: string | null;
  before: JsonValue | undefined;
  after: JsonValue | undefined;
  /** added: only after; removed: only before; changed: both, different; same: both, equal. */
  change: 'added' | 'removed' | 'changed' | 'same';
}

const isObject = (value: unknown): value is Record<string, JsonValue> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Equal as JSON: the same keys with equal values, whatever their order. */
export function sameJson(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((key) => sameJson(a[key], b[key]));
  }
  return false;
}

/**
 * The rows of an entry's before/after view: one per field of either object, in the order the
 * entry gives them (before's fields first, then those only after has), each marked added,
 * removed, changed or the same. A before or after that is not an object (a list, a text) is one
 * row without a field name.
 */
export function auditDiff(before: JsonValue | undefined, after: JsonValue | undefined): DiffRow[] {
  const hasBefore = before !== undefined && before !== null;
  const hasAfter = after !== undefined && after !== null;
  if (!hasBefore && !hasAfter) return [];
  if ((hasBefore && !isObject(before)) || (hasAfter && !isObject(after))) {
    return [
      {
        field: null,
        before: hasBefore ? before : undefined,
        after: hasAfter ? after : undefined,
        change: changeOf(hasBefore ? before : undefined, hasAfter ? after : undefined),
      },
    ];
  }
  const b = (hasBefore ? before : {}) as Record<string, JsonValue>;
  const a = (hasAfter ? after : {}) as Record<string, JsonValue>;
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return fields.map((field) => {
    const was = field in b ? b[field] : undefined;
    const is = field in a ? a[field] : undefined;
    return { field, before: was, after: is, change: changeOf(was, is) };
  });
}

function changeOf(before: JsonValue | undefined, after: JsonValue | undefined): DiffRow['change'] {
  if (before === undefined) return 'added';
  if (after === undefined) return 'removed';
  return sameJson(before, after) ? 'same' : 'changed';
}

/** A value as the view writes it: text as it is (empty text as ""), anything else as compact JSON. */
export function showJson(value: JsonValue | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value === '' ? '""' : value;
  return JSON.stringify(value);
}

/** The rows that changed (added, removed, changed) first, each side in the entry's order, then the unchanged ones. */
export function changedFirst(rows: DiffRow[]): { changed: DiffRow[]; same: DiffRow[] } {
  return { changed: rows.filter((r) => r.change !== 'same'), same: rows.filter((r) => r.change === 'same') };
}
