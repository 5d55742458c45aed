import { describe, expect, it } from 'vitest';
import { searchErrorKey, toHits } from './hits';
import { readRecent, RECENT_MAX, recentKey, rememberRecent } from './recent';

const texts = {
  status: (s: string) => s,
  stayState: (s: string) => s,
  cardKind: (k: string) => k,
  role: (r: string) => r,
  dates: (a: string, b: string) => `${a}-${b}`,
};
const empty = { rooms: [], guests: [], reservations: [], cards: [], locks: [], staff: [] };
const stay = {
  stayStatus: 'in_house',
  checkInAt: '2026-01-01T00:00:00Z',
  visitCheckInAt: '2026-01-01T00:00:00Z',
  expectedCheckOutAt: '2026-01-02T00:00:00Z',
  checkedOutAt: null,
  roomId: 7,
  roomName: '101',
};

describe('the page each result opens', () => {
  it('opens a guest page, a room page, or the list that holds the row', () => {
    const groups = toHits(
      {
        ...empty,
        rooms: [{ id: 7, name: '101', remarkName: '', groupName: null, status: 'vacant' }],
        guests: [{ id: 3, name: 'Ann', mobile: '139', matched: 'mobile', stayId: 9, ...stay }],
        reservations: [
          { stayId: 9, guestId: 3, guestName: 'Ann', channel: 'Airbnb', reference: 'HM1', ...stay },
          { stayId: 10, guestId: null, guestName: null, channel: null, reference: null, ...stay },
        ],
        cards: [
          { id: 1, cardNumber: '123', kind: 'room', holderName: '', state: 'issued', roomId: 7, roomName: '101', guestId: null },
          { id: 2, cardNumber: '0456', kind: 'management', holderName: '', state: 'issued', roomId: null, roomName: null, guestId: null },
        ],
        locks: [
          { id: 4, name: 'L', alias: '', mac: '', providerLockId: '55', roomId: 7, roomName: '101' },
          { id: 5, name: 'L', alias: '', mac: '', providerLockId: '5 6', roomId: null, roomName: null },
        ],
        staff: [{ id: 8, name: '', nickname: 'Bo', mobile: '13900000000', email: null, role: 'staff' }],
      },
      texts,
    );
    expect(groups.map((g) => g.group)).toEqual(['rooms', 'guests', 'reservations', 'cards', 'locks', 'staff']);
    expect(groups.flatMap((g) => g.hits.map((h) => h.href))).toEqual([
      '/room/7',
      '/room/thetouristsDetails?id=3',
      '/room/thetouristsDetails?id=3',
      '/room/7',
      '/room/7?tab=credentials',
      // A text of digits stays text in the list's URL (JSON), and keeps its leading zero.
      `/center/personalCenter/cardList?scope=all&search=${encodeURIComponent('"0456"')}`,
      '/room/7?tab=lock',
      `/lockAccounts?search=${encodeURIComponent('"5 6"')}`,
      `/staff?search=${encodeURIComponent('"13900000000"')}`,
    ]);
  });

  it('says when a stay that ended ended, not when it was expected to (issue 39 §10)', () => {
    const ended = { ...stay, stayStatus: 'checked_out', checkedOutAt: '2026-01-01T20:48:00Z' };
    const [guests, reservations] = toHits(
      {
        ...empty,
        guests: [{ id: 3, name: 'Ann', mobile: null, matched: 'name', stayId: 9, ...ended }],
        reservations: [{ stayId: 9, guestId: 3, guestName: 'Ann', channel: null, reference: null, ...ended }],
      },
      texts,
    );
    expect(guests!.hits[0]!.detail).toContain('2026-01-01T00:00:00Z-2026-01-01T20:48:00Z');
    expect(reservations!.hits[0]!.detail).toContain('2026-01-01T00:00:00Z-2026-01-01T20:48:00Z');
    // One still in house: its expected check-out.
    const [inHouse] = toHits({ ...empty, guests: [{ id: 3, name: 'Ann', mobile: null, matched: 'name', stayId: 9, ...stay }] }, texts);
    expect(inHouse!.hits[0]!.detail).toContain('2026-01-01T00:00:00Z-2026-01-02T00:00:00Z');
  });

  it('leaves out the empty groups', () => {
    expect(toHits(empty, texts)).toEqual([]);
  });
});

describe('recent results', () => {
  const store = () => {
    const data = new Map<string, string>();
    return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), data } as unknown as Storage & {
      data: Map<string, string>;
    };
  };
  const hit = (i: number) => ({ key: `room-${i}`, group: 'rooms' as const, title: `R${i}`, detail: '', href: `/room/${i}` });

  it('keeps the newest first, once each, at most RECENT_MAX, per member and hotel', () => {
    const storage = store();
    const key = recentKey(1, 2);
    for (let i = 0; i < RECENT_MAX + 3; i++) rememberRecent(storage, key, hit(i));
    rememberRecent(storage, key, hit(5));
    const list = readRecent(storage, key);
    expect(list).toHaveLength(RECENT_MAX);
    expect(list[0]!.key).toBe('room-5');
    expect(list.filter((h) => h.key === 'room-5')).toHaveLength(1);
    expect(readRecent(storage, recentKey(1, 3))).toEqual([]);
    expect(readRecent(storage, recentKey(4, 2))).toEqual([]);
  });

  it('drops what is not a result of the console', () => {
    const storage = store();
    storage.setItem(
      'k',
      JSON.stringify([hit(1), { ...hit(2), href: '//evil.example' }, { ...hit(3), href: 'javascript:alert(1)' }, { ...hit(4), group: 'x' }, 'text']),
    );
    expect(readRecent(storage, 'k').map((h) => h.key)).toEqual(['room-1']);
    storage.setItem('k', '{not json');
    expect(readRecent(storage, 'k')).toEqual([]);
    expect(readRecent(undefined, 'k')).toEqual([]);
  });
});

describe('a refused search (issue 39 §8)', () => {
  it('says "not allowed" for a member who may not search, "failed" for anything else', () => {
    expect(searchErrorKey({ code: 'FORBIDDEN', errno: 100004, message: 'no' })).toBe('search.notAllowed');
    expect(searchErrorKey({ code: 'INTERNAL', errno: 100500, message: 'oops' })).toBe('search.failed');
    expect(searchErrorKey(null)).toBe('search.failed');
  });
});
