import type { SearchGroup, SearchHit } from './hits';

/**
 * The results a member opened last (issue 28 §3), newest first, shown when the search box is empty.
 * Kept in this browser's localStorage under a key of the member's account and hotel, so another
 * member of this computer, or the same one in another hotel, never sees them. What is read back is
 * checked: a result whose page is not a path of the console is dropped.
 */
export const RECENT_MAX = 8;
const GROUPS: readonly SearchGroup[] = ['rooms', 'guests', 'reservations', 'cards', 'locks', 'staff'];

export function recentKey(accountId: number, hotelId: number): string {
  return `search.recent.${accountId}.${hotelId}`;
}

function isHit(value: unknown): value is SearchHit {
  if (typeof value !== 'object' || value === null) return false;
  const hit = value as Record<string, unknown>;
  return (
    typeof hit.key === 'string' &&
    typeof hit.title === 'string' &&
    typeof hit.detail === 'string' &&
    typeof hit.href === 'string' &&
    // A path of this console, never another site (`//host`, `https:`, `javascript:`).
    /^\/(?![/\\])/.test(hit.href) &&
    GROUPS.includes(hit.group as SearchGroup)
  );
}

/** The recent results stored under `key` (none when storage is unavailable or holds something else). */
export function readRecent(storage: Storage | undefined, key: string): SearchHit[] {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(key) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isHit).slice(0, RECENT_MAX) : [];
  } catch {
    return [];
  }
}

/** Puts `hit` first among the recent results (once), keeping RECENT_MAX; returns the new list. */
export function rememberRecent(storage: Storage | undefined, key: string, hit: SearchHit): SearchHit[] {
  const { key: id, group, title, detail, href } = hit;
  const next = [{ key: id, group, title, detail, href }, ...readRecent(storage, key).filter((h) => h.key !== id)].slice(0, RECENT_MAX);
  try {
    storage?.setItem(key, JSON.stringify(next));
  } catch {
    // A full or forbidden storage: the result opens all the same, only not remembered.
  }
  return next;
}
