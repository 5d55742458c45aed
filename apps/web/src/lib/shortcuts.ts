import { useEffect, useRef, useSyncExternalStore } from 'react';

/**
 * The desk's keyboard (issue 28 §3, docs/decisions/045-search.md): the search box (Ctrl+K or ⌘K,
 * or `/`), the list of shortcuts (`?`), and single keys for the frequent actions. A shortcut never
 * fires while the member types in a field (an input, a text area, a select, anything editable) or
 * while a dialog or a menu is open: those keys are the field's, the dialog's.
 *
 * This module is small and in the first download (the listener must be there from the first key);
 * the search box and the help dialog are a chunk of their own (features/search).
 */

export type ShortcutId = 'search' | 'help' | 'checkIn' | 'newReservation' | 'recordPayment' | 'goBoard' | 'goToday' | 'goStays' | 'goTimeline';

/** A key of a shortcut: `mod` is Ctrl (⌘ on a Mac); a letter matches its key on any layout (by its place on a Latin one). */
export interface Shortcut {
  id: ShortcutId;
  /** The keys as pressed one after the other (`['g', 'b']`), each `mod+k` or one key. */
  keys: string[];
  /** What the help says it does, when not its id's text (`shortcuts.actions.<label>`). */
  label?: string;
  /** The permission the shortcut needs: a member without it is neither offered it nor does a key do it. */
  permission?: string;
}

/** What the search box needs (the server's `search.query` asks for it): an attendant has it not (issue 39 §8). */
export const SEARCH_PERMISSION = 'room.read';

/** Every shortcut, in the order the help dialog lists them. */
export const SHORTCUTS: readonly Shortcut[] = [
  { id: 'search', keys: ['mod+k'], permission: SEARCH_PERMISSION },
  // On a list, `/` is its own search box's (lib/use-search-box.ts), as it was before the search box.
  { id: 'search', keys: ['/'], label: 'searchSlash', permission: SEARCH_PERMISSION },
  { id: 'help', keys: ['?'] },
  { id: 'checkIn', keys: ['c'] },
  { id: 'newReservation', keys: ['n'] },
  { id: 'recordPayment', keys: ['p'] },
  { id: 'goBoard', keys: ['g', 'b'] },
  { id: 'goToday', keys: ['g', 't'] },
  { id: 'goStays', keys: ['g', 's'] },
  { id: 'goTimeline', keys: ['g', 'l'] },
];

/** The shortcuts a member of these permissions is offered (none of those it may not use). */
export function allowedShortcuts(permissions: readonly string[] | undefined): Shortcut[] {
  return SHORTCUTS.filter((s) => !s.permission || Boolean(permissions?.includes(s.permission)));
}

/** How long the second key of a pair (`g` then `b`) may wait for. */
export const SEQUENCE_TIMEOUT_MS = 1500;

const TEXT_INPUT_TYPES = new Set(['button', 'checkbox', 'radio', 'submit', 'reset', 'image', 'range', 'color', 'file']);

/** Whether keys pressed in `target` are typing: a text field, a select, or something editable. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!target || !(target instanceof Element)) return false;
  if (target instanceof HTMLInputElement) return !TEXT_INPUT_TYPES.has(target.type);
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLElement && target.isContentEditable) return true;
  // `isContentEditable` is not computed everywhere (jsdom): the attribute on it or an ancestor.
  if (target.closest('[contenteditable]:not([contenteditable="false"])')) return true;
  const role = target.getAttribute('role');
  return role === 'textbox' || role === 'combobox' || role === 'searchbox' || role === 'spinbutton';
}

/** Whether a dialog (modal or not), an alert or an open menu holds the page: the keys are its own. */
export function isOverlayOpen(doc: Document = document): boolean {
  return doc.querySelector('[role="dialog"], [role="alertdialog"], [role="menu"], [role="listbox"]') !== null;
}

/** The key an event names, as the shortcuts write it: a Latin letter lower-cased (by its place when the layout is not Latin), else the key itself. */
function keyName(event: KeyboardEvent): string {
  const key = event.key;
  if (/^[a-z]$/i.test(key)) return key.toLowerCase();
  if (key.length === 1 && /^Key[A-Z]$/.test(event.code) && !/[!-~]/.test(key)) return event.code.slice(3).toLowerCase();
  return key;
}

/** Whether `event` is the one key `key` (`mod+k`, `?`, `c`). */
export function matchesKey(key: string, event: KeyboardEvent, isMac: boolean): boolean {
  if (key.startsWith('mod+')) {
    const mod = isMac ? event.metaKey && !event.ctrlKey : event.ctrlKey && !event.metaKey;
    return mod && !event.altKey && !event.shiftKey && keyName(event) === key.slice(4);
  }
  if (event.ctrlKey || event.metaKey || event.altKey) return false;
  // `?` and `/` are whatever the layout makes them (Shift included); a letter is pressed without Shift.
  if (/^[a-z]$/.test(key) && event.shiftKey) return false;
  return keyName(event) === key;
}

/** Whether this computer is a Mac (or an iPad with a keyboard): ⌘ instead of Ctrl. */
export function isMacPlatform(): boolean {
  const nav = typeof navigator === 'undefined' ? undefined : navigator;
  const platform = (nav as (Navigator & { userAgentData?: { platform?: string } }) | undefined)?.userAgentData?.platform ?? nav?.platform ?? '';
  return /mac|iphone|ipad|ipod/i.test(platform);
}

/**
 * What a key press does, given the key pressed before (`pending`, for pairs): the shortcut it
 * completes, or `pending` when it begins a pair, or nothing. Typing in a field and open dialogs are
 * the caller's to check (`shouldIgnore`).
 */
export function resolveShortcut(
  event: KeyboardEvent,
  pending: string | null,
  isMac: boolean,
  shortcuts: readonly Shortcut[] = SHORTCUTS,
): { id: ShortcutId } | { pending: string } | null {
  if (pending !== null) {
    const pair = shortcuts.find((s) => s.keys.length === 2 && s.keys[0] === pending && matchesKey(s.keys[1]!, event, isMac));
    if (pair) return { id: pair.id };
  }
  const single = shortcuts.find((s) => s.keys.length === 1 && matchesKey(s.keys[0]!, event, isMac));
  if (single) return { id: single.id };
  const first = shortcuts.find((s) => s.keys.length === 2 && matchesKey(s.keys[0]!, event, isMac));
  return first ? { pending: first.keys[0]! } : null;
}

/**
 * Whether a key press is not a shortcut's: already handled, part of a composition (an input
 * method), typed in a field, or pressed while a dialog or a menu is open. Ctrl+K (⌘K) opens the
 * search box from a field too (it types nothing), but not over another dialog.
 */
export function shouldIgnore(event: KeyboardEvent, isMac: boolean, doc: Document = document): boolean {
  if (event.defaultPrevented || event.isComposing || event.repeat) return true;
  if (isOverlayOpen(doc)) return true;
  if (matchesKey('mod+k', event, isMac)) return false;
  return isTypingTarget(event.target);
}

/**
 * Calls `onShortcut` for each shortcut of `shortcuts` pressed anywhere in the page (one listener on
 * the document), unless `shouldIgnore` says the keys are a field's or a dialog's. A key of no
 * shortcut of the list is left to the page.
 */
export function useShortcuts(onShortcut: (id: ShortcutId) => void, shortcuts: readonly Shortcut[] = SHORTCUTS): void {
  const handler = useRef(onShortcut);
  const list = useRef(shortcuts);
  useEffect(() => {
    handler.current = onShortcut;
    list.current = shortcuts;
  });
  useEffect(() => {
    const isMac = isMacPlatform();
    let pending: { key: string; at: number } | null = null;
    const onKeyDown = (event: KeyboardEvent) => {
      if (shouldIgnore(event, isMac)) {
        pending = null;
        return;
      }
      const live = pending && event.timeStamp - pending.at <= SEQUENCE_TIMEOUT_MS ? pending.key : null;
      const found = resolveShortcut(event, live, isMac, list.current);
      pending = null;
      if (!found) return;
      if ('pending' in found) {
        pending = { key: found.pending, at: event.timeStamp };
        return;
      }
      event.preventDefault();
      handler.current(found.id);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}

// ---------------------------------------------------------------------------------------------
// Which of the two dialogs is open: the search box or the list of shortcuts.

export type Palette = 'search' | 'help' | null;
let palette: Palette = null;
const listeners = new Set<() => void>();

/** Opens the search box or the list of shortcuts (or closes them: `null`). */
export function openPalette(next: Palette): void {
  if (palette === next) return;
  palette = next;
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The dialog open now (the layout hosts it). */
export function usePalette(): Palette {
  return useSyncExternalStore(subscribe, () => palette);
}

/**
 * The page's own button for an action, when the page shows one (`data-shortcut="check-in"` on the
 * room page's check-in, the bill's "record payment"...): the shortcut presses it, so the page's
 * own dialog opens with what it knows (its room, its stay). Not one that is disabled or hidden.
 */
export function pageActionButton(name: string, doc: Document = document): HTMLElement | null {
  for (const element of doc.querySelectorAll<HTMLElement>(`[data-shortcut="${name}"]`)) {
    if (element.matches(':disabled, [aria-disabled="true"]') || element.closest('[hidden], [inert]')) continue;
    return element;
  }
  return null;
}
