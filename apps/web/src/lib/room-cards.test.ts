import { describe, expect, it } from 'vitest';
import { currentRoomCardRequest, finishRoomCardRequest, lastCheckInCardCount, requestRoomCards } from './room-cards';

describe('room cards asked for at the desk', () => {
  it('keeps one request at a time, each with a key of its own and 1 to 10 cards, until the dialog is done with it', () => {
    const base = { stayId: 7, roomId: 3, roomName: '101', holderName: 'Ruth', mode: 'new' as const };
    expect(currentRoomCardRequest()).toBeNull();
    requestRoomCards({ ...base, count: 2 });
    const first = currentRoomCardRequest();
    expect(first).toMatchObject({ ...base, count: 2 });
    requestRoomCards({ ...base, count: 25 });
    expect(currentRoomCardRequest()).toMatchObject({ count: 10 });
    expect(currentRoomCardRequest()!.key).not.toBe(first!.key);
    requestRoomCards({ ...base, count: 0 });
    expect(currentRoomCardRequest()).toMatchObject({ count: 1 });
    finishRoomCardRequest();
    expect(currentRoomCardRequest()).toBeNull();
  });

  it('starts a check-in with no cards when this computer never asked for any (or cannot say)', () => {
    expect(lastCheckInCardCount()).toBe(0);
  });
});
