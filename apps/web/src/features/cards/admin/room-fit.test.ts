import { describe, expect, it } from 'vitest';
import { blocksWriting, roomFit } from './room-fit';

describe('roomFit', () => {
  it('says whether the rooms chosen fit on one card (7 anywhere, 96 consecutive, or all)', () => {
    expect(roomFit(0, false)).toBe('none');
    expect(roomFit(1, false)).toBe('fits');
    expect(roomFit(7, false)).toBe('fits');
    expect(roomFit(8, false)).toBe('maybe');
    expect(roomFit(96, false)).toBe('maybe');
    expect(roomFit(97, false)).toBe('tooMany');
    expect(roomFit(0, true)).toBe('all');
    expect(roomFit(500, true)).toBe('all');
    // Between 8 and 96 rooms, the server's answer decides.
    expect(roomFit(8, false, { fits: true })).toBe('near');
    expect(roomFit(8, false, { fits: false })).toBe('far');
    expect(roomFit(5, false, { fits: false })).toBe('fits');
    expect(roomFit(97, false, { fits: true })).toBe('tooMany');
  });

  it('keeps the write button for a choice that cannot be one card', () => {
    expect(blocksWriting('none')).toBe(true);
    expect(blocksWriting('tooMany')).toBe(true);
    expect(blocksWriting('far')).toBe(true);
    expect(blocksWriting('near')).toBe(false);
    expect(blocksWriting('maybe')).toBe(false);
    expect(blocksWriting('fits')).toBe(false);
    expect(blocksWriting('all')).toBe(false);
  });
});
