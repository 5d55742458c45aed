import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';

/**
 * Housekeeping's api (issue 28 §2, docs/housekeeping.md): the supervisor's day, the attendant's
 * rooms, and the out-of-order ranges. Every change anywhere (this tab, an attendant's phone, a job)
 * makes `trpc.housekeeping` stale through the live feed (lib/live-events.ts).
 */
export type HousekeepingDay = RouterOutputs['housekeeping']['day'];
export type HousekeepingTask = HousekeepingDay['tasks'][number];
export type Attendant = HousekeepingDay['attendants'][number];
export type AttendantCard = HousekeepingDay['cards'][number];
export type OutOfOrderRange = RouterOutputs['housekeeping']['outOfOrderList'][number];

/** Every housekeeping query (the day, my rooms, the ranges): what a change here makes stale. */
export const housekeepingKey = () => trpc.housekeeping.pathKey();

export const housekeepingQueries = {
  day: (day?: string) => trpc.housekeeping.day.queryOptions(day ? { day } : {}, { meta: { showsErrors: true } }),
  myRooms: () => trpc.housekeeping.myRooms.queryOptions({}, { meta: { showsErrors: true } }),
  outOfOrder: (roomId?: number) => trpc.housekeeping.outOfOrderList.queryOptions(roomId ? { roomId } : {}, { meta: { showsErrors: true } }),
};

/** Sends a maintenance photo to the uploads module; the answer is its path, or the server's message. */
export async function uploadHousekeepingPhoto(file: File, language: string): Promise<{ url: string } | { error: string }> {
  const formData = new FormData();
  formData.append('file', file);
  const response = await fetch('/api/uploads?purpose=housekeeping', { method: 'POST', body: formData, credentials: 'same-origin', headers: { language } });
  const body = (await response.json().catch(() => null)) as { url?: string; error?: { message?: string } } | null;
  if (response.ok && body?.url) return { url: body.url };
  return { error: body?.error?.message ?? '' };
}
