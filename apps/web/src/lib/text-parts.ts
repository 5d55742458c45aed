/**
 * Each language's texts come in two parts (vite.config.ts makes them from locales/<lang>.json):
 * `first`, downloaded before the first paint, with everything the sign-in page, the layout and the
 * room board (and the dialogs they open) use; and `later`, the groups only other pages use,
 * downloaded when the browser is idle after the first paint and awaited before any page other
 * than those two is shown (routes/__root.tsx). The budget of bench/bundle-size.ts counts `first`.
 */
export const LATER_TEXT_GROUPS = ['tenants', 'roomSetup', 'faces', 'unlockRecords', 'find', 'changePassword', 'lockManagers', 'sms', 'roomGroup', 'deskReaders', 'gateway', 'customer', 'cardAdmin', 'cards'] as const;

/** The pages shown with the first part alone. */
export const FIRST_PART_PATHS: ReadonlySet<string> = new Set(['/', '/login', '/room']);

type Texts = Record<string, unknown>;

/** One part of a language's texts (the top-level groups of LATER_TEXT_GROUPS, or all the others). */
export function textPart(all: Texts, part: 'first' | 'later'): Texts {
  const later = new Set<string>(LATER_TEXT_GROUPS);
  return Object.fromEntries(Object.entries(all).filter(([group]) => later.has(group) === (part === 'later')));
}
