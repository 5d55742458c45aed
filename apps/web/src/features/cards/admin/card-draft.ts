import { useCallback, useSyncExternalStore } from 'react';
import { toInputValue } from '@/lib/hotel-time';

/**
 * The management or universal card being prepared (`addCard`, `addUniversalCard`) and the rooms
 * chosen for it on `selectRoomList`: one draft per kind, kept in this tab's sessionStorage, so
 * going to choose the rooms and coming back (or a reload) keeps what was typed.
 */

export type AdminCardKind = 'management' | 'universal';

export interface DraftRoom {
  id: number;
  name: string;
}

export interface CardDraft {
  allRooms: boolean;
  rooms: DraftRoom[];
  note: string;
  /** The hotel's wall clock, `YYYY-MM-DDTHH:mm`. */
  validFrom: string;
  validUntil: string;
  /** The card never ends by itself (it is revoked or reported lost). */
  noEnd: boolean;
}

/** How long a new card is valid unless changed. */
export const DEFAULT_VALID_DAYS = 30;

export function newDraft(timeZone: string, now = new Date()): CardDraft {
  return {
    allRooms: false,
    rooms: [],
    note: '',
    validFrom: toInputValue(now, timeZone),
    validUntil: toInputValue(new Date(now.getTime() + DEFAULT_VALID_DAYS * 86_400_000), timeZone),
    noEnd: false,
  };
}

const storageKey = (kind: AdminCardKind) => `cardAdmin.draft.${kind}`;
const listeners = new Set<() => void>();
const cache = new Map<string, { raw: string | null; value: CardDraft | null }>();

function parse(raw: string | null): CardDraft | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<CardDraft>;
    if (!Array.isArray(value.rooms)) return null;
    return {
      allRooms: value.allRooms === true,
      rooms: value.rooms.filter((r): r is DraftRoom => typeof r?.id === 'number' && typeof r?.name === 'string'),
      note: typeof value.note === 'string' ? value.note : '',
      validFrom: typeof value.validFrom === 'string' ? value.validFrom : '',
      validUntil: typeof value.validUntil === 'string' ? value.validUntil : '',
      noEnd: value.noEnd === true,
    };
  } catch {
    return null;
  }
}

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** The stored draft of a kind, or null when none was started in this tab. */
export function readDraft(kind: AdminCardKind): CardDraft | null {
  const raw = storage()?.getItem(storageKey(kind)) ?? null;
  const cached = cache.get(kind);
  if (cached && cached.raw === raw) return cached.value;
  const value = parse(raw);
  cache.set(kind, { raw, value });
  return value;
}

export function writeDraft(kind: AdminCardKind, draft: CardDraft): void {
  storage()?.setItem(storageKey(kind), JSON.stringify(draft));
  listeners.forEach((l) => l());
}

export function clearDraft(kind: AdminCardKind): void {
  storage()?.removeItem(storageKey(kind));
  listeners.forEach((l) => l());
}

/** The draft of a kind (a new one until something is changed) and a setter that keeps it. */
export function useCardDraft(kind: AdminCardKind, timeZone: string): [CardDraft, (patch: Partial<CardDraft>) => void] {
  const stored = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => readDraft(kind),
    () => null,
  );
  const draft = stored ?? fallback(kind, timeZone);
  const update = useCallback((patch: Partial<CardDraft>) => writeDraft(kind, { ...(readDraft(kind) ?? fallback(kind, timeZone)), ...patch }), [kind, timeZone]);
  return [draft, update];
}

/** One new draft per kind and zone until it is stored, so every render shows the same times. */
const fallbacks = new Map<string, CardDraft>();
function fallback(kind: AdminCardKind, timeZone: string): CardDraft {
  const key = `${kind} ${timeZone}`;
  let draft = fallbacks.get(key);
  if (!draft) {
    draft = newDraft(timeZone);
    fallbacks.set(key, draft);
  }
  return draft;
}

/** Forgets the new-draft times kept for a kind (a fresh start takes "now" again). */
export function resetDraft(kind: AdminCardKind): void {
  for (const key of [...fallbacks.keys()]) if (key.startsWith(`${kind} `)) fallbacks.delete(key);
  clearDraft(kind);
}
