import { describe, expect, it } from 'vitest';
import { lockNameFits, nameTokens, proposePairs } from './lock-names';

describe("a lock's name proposing its room", () => {
  it('reads names as runs of letters and of digits, in any script and width', () => {
    expect(nameTokens('SIM Room 101')).toEqual(['sim', 'room', '101']);
    expect(nameTokens('A-203室')).toEqual(['a', '203', '室']);
    expect(nameTokens('ＲＯＯＭ１０２')).toEqual(['room', '102']);
    expect(nameTokens('  ')).toEqual([]);
  });

  it('fits a room whose name is whole tokens of the lock name, in a row', () => {
    expect(lockNameFits('SIM Room 101', '101')).toBe(true);
    expect(lockNameFits('101室', '101')).toBe(true);
    expect(lockNameFits('Suite A 3', 'A 3')).toBe(true);
    expect(lockNameFits('Room 1101', '101')).toBe(false);
    expect(lockNameFits('Room 101', '10')).toBe(false);
    expect(lockNameFits('Lobby', '')).toBe(false);
    expect(lockNameFits('A 3 Suite', 'Suite A')).toBe(false);
    // A number alone is the lock name's last number.
    expect(lockNameFits('Floor 1 Room 9', '9')).toBe(true);
    expect(lockNameFits('Floor 1 Room 9', '1')).toBe(false);
    expect(lockNameFits('101 (2F)', '101')).toBe(false);
  });

  it('proposes a pair only where the lock fits one room and the room one lock', () => {
    const rooms = [
      { id: 1, name: '101' },
      { id: 2, name: '102' },
      { id: 3, name: '9' },
    ];
    const locks = [
      { id: 10, name: 'YS_ab12', alias: 'Room 101' },
      { id: 11, name: 'Room 102', alias: '' },
      { id: 12, name: 'x', alias: '102 back door' },
      { id: 13, name: 'x', alias: 'Floor 1 Room 9' },
      { id: 14, name: 'x', alias: 'Lobby' },
    ];
    // 101 fits lock 10 alone; 102 fits locks 11 and 12 (neither proposed); room 9 fits lock 13 alone.
    expect(proposePairs(locks, rooms)).toEqual(
      new Map([
        [10, 1],
        [13, 3],
      ]),
    );
  });
});
