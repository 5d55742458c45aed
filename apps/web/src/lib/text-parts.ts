/**
 * Each language's texts come in two parts (vite.config.ts makes them from locales/<lang>.json):
 * `first`, downloaded before the first paint, with everything the sign-in page, the layout and the
 * room board (and the dialogs they open) use; and `later`, the groups only other pages use,
 * downloaded when the browser is idle after the first paint and awaited before any page other
 * than those two is shown (routes/__root.tsx). The budget of bench/bundle-size.ts counts `first`.
 */
export const LATER_TEXT_GROUPS = [
  'stays',
  'roomSetup',
  'faces',
  'unlockRecords',
  'find',
  'changePassword',
  'lockManagers',
  'sms',
  'roomGroup',
  'deskReaders',
  'gateway',
  'customer',
  'cardAdmin',
  'cards',
  'today',
  'auditLog',
  'export',
  'orders',
  'staff',
  'apiKeys',
  'settings',
  'guests',
  'lockAccounts',
  'statusChange',
  'device',
  'reservations',
  'locks',
  'guestKeys',
  'feeds',
  'keyPage',
  'shifts',
  'reports',
  'guestMessages',
  'accessRules',
  'search',
  'shortcuts',
  'timeline',
  'housekeeping',
  'housekeepingKeys',
  'webhooks',
  'journal',
  'invoices',
] as const;

/**
 * Texts of later groups that the first pages use all the same, as `group.key`: kept in the first
 * part (the menu's page titles; the board's "fix now" of an arrival without a key, and what it did).
 */
export const FIRST_TEXT_KEYS = [
  // The room board's tile shows today's housekeeping state.
  'housekeeping.board',
  'housekeeping.status',
  // The menu's entries of the housekeeping pages (shown on the board too).
  'housekeeping.title',
  'housekeeping.myRooms',
  'guestMessages.title',
  'accessRules.title',
  'accessRules.fixNow',
  'accessRules.fixed',
  'search.open',
  'timeline.title',
] as const;

/**
 * Sub-groups of first-part groups that only other pages use, as `group.sub` (the room page's
 * texts: the board and its dialogs use none of `frontDesk.detail`; the lock cloud's refusals,
 * `credentials.errors`, are shown on the room page, the lock accounts page and the card pages,
 * never on the board, whose own refusals come translated by the server).
 */
export const LATER_TEXT_SUBGROUPS = [
  'frontDesk.detail',
  'frontDesk.stay',
  'credentials.errors',
  'credentials.drift',
  'credentials.stayCard',
  'credentials.columns',
  'credentials.revokeReasons',
  'lockMessages.kinds',
] as const;

/** The pages shown with the first part alone. */
export const FIRST_PART_PATHS: ReadonlySet<string> = new Set(['/', '/login', '/room']);

type Texts = Record<string, unknown>;

/**
 * One part of a language's texts: the groups of LATER_TEXT_GROUPS (less FIRST_TEXT_KEYS) and the
 * sub-groups of LATER_TEXT_SUBGROUPS, or all the others.
 */
export function textPart(all: Texts, part: 'first' | 'later'): Texts {
  const later = new Set<string>(LATER_TEXT_GROUPS);
  const result: Texts = Object.fromEntries(Object.entries(all).filter(([group]) => later.has(group) === (part === 'later')));
  for (const path of FIRST_TEXT_KEYS) {
    const [group, key] = path.split('.') as [string, string];
    const texts = all[group] as Texts | undefined;
    if (!texts || !(key in texts)) continue;
    if (part === 'first') result[group] = { ...((result[group] as Texts | undefined) ?? {}), [key]: texts[key] };
    else result[group] = Object.fromEntries(Object.entries((result[group] as Texts | undefined) ?? texts).filter(([k]) => k !== key));
  }
  for (const path of LATER_TEXT_SUBGROUPS) {
    const [group, sub] = path.split('.') as [string, string];
    const texts = all[group] as Texts | undefined;
    if (!texts || !(sub in texts)) continue;
    if (part === 'later') result[group] = { ...((result[group] as Texts | undefined) ?? {}), [sub]: texts[sub] };
    else result[group] = Object.fromEntries(Object.entries((result[group] as Texts | undefined) ?? texts).filter(([key]) => key !== sub));
  }
  return result;
}
