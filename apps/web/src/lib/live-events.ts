import { useEffect } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { TEventKind } from '@console/shared';
import { queryClient as appQueryClient, trpc, trpcClient } from './trpc';

/** The tRPC routers whose queries show what an event's area changes (docs/events.md). */
const ROUTERS = {
  order: trpc.order,
  invoice: trpc.invoice,
  room: trpc.room,
  roomGroup: trpc.roomGroup,
  price: trpc.price,
  stay: trpc.stay,
  today: trpc.today,
  timeline: trpc.timeline,
  customer: trpc.customer,
  sharedDoor: trpc.sharedDoor,
  password: trpc.password,
  face: trpc.face,
  card: trpc.card,
  lock: trpc.lock,
  lockAccount: trpc.lockAccount,
  accessRule: trpc.accessRule,
  guestMessage: trpc.guestMessage,
  feed: trpc.feed,
  staff: trpc.staff,
  housekeeping: trpc.housekeeping,
  hotel: trpc.hotel,
  reader: trpc.reader,
  dispenser: trpc.dispenser,
  webhooks: trpc.webhooks,
  search: trpc.search,
};
type Router = keyof typeof ROUTERS;

// A bill's invoices follow it (an invoice issued or credited in another tab: docs/invoices.md).
const MONEY: Router[] = ['order', 'invoice', 'room', 'stay', 'today', 'timeline', 'customer'];
// The search box's answers too: a guest moved or checked out elsewhere shows as they are now, not as
// the box found them a few seconds before (its answers are kept 15 s).
const STAY: Router[] = [...MONEY, 'sharedDoor', 'password', 'face', 'card', 'guestMessage', 'search'];
// Housekeeping too: an attendant's code of the day reaches the door (her phone shows it once on the lock).
const DOORS: Router[] = ['password', 'face', 'card', 'lock', 'sharedDoor', 'accessRule', 'room', 'stay', 'today', 'timeline', 'housekeeping'];

/** What each kind of event makes stale: the map the console invalidates by (one list, not one per dialog). */
export const STALE_BY_KIND: Record<TEventKind, Router[]> = {
  'stay.checkedIn': STAY,
  'stay.reserved': STAY,
  'stay.arrived': STAY,
  'stay.renewed': STAY,
  'stay.roomChanged': STAY,
  'stay.checkedOut': STAY,
  'stay.cancelled': STAY,
  'stay.changed': STAY,
  'stay.rescheduled': STAY,
  'payment.recorded': MONEY,
  'refund.recorded': MONEY,
  'charge.posted': MONEY,
  'ledger.changed': MONEY,
  'shift.changed': ['order'],
  'day.closed': ['order'],
  'room.changed': ['room', 'roomGroup', 'price', 'today', 'stay', 'timeline'],
  'price.changed': ['price', 'room', 'stay'],
  'housekeeping.changed': ['housekeeping', 'room', 'today'],
  'room.outOfOrder': ['housekeeping', 'room', 'roomGroup', 'today', 'stay', 'timeline'],
  'credential.changed': DOORS,
  'lock.changed': [...DOORS, 'lockAccount'],
  'credential.onLock': DOORS,
  'credential.failed': DOORS,
  'credential.removed': DOORS,
  // An attendant's opening is her task's "Entered 10:02" (docs/housekeeping-keys.md).
  'door.opened': ['room', 'stay', 'timeline', 'housekeeping'],
  'lock.offline': ['lock', 'room', 'today'],
  'lock.batteryLow': ['lock', 'room', 'today'],
  'customer.changed': ['customer', 'order'],
  'feed.changed': ['feed', 'room', 'stay', 'today', 'timeline'],
  'feed.failed': ['feed'],
  'staff.changed': ['staff', 'room', 'timeline'],
  'hotel.changed': ['hotel', 'guestMessage', 'lockAccount', 'today', 'order', 'invoice'],
  'device.changed': ['reader', 'dispenser', 'card'],
  'webhook.changed': ['webhooks'],
};

/** Invalidates, once, the queries of every router the events of `kinds` make stale. */
export function invalidateForEvents(queryClient: QueryClient, kinds: Iterable<string>): Promise<unknown> {
  const routers = new Set<Router>();
  for (const kind of kinds) for (const router of STALE_BY_KIND[kind as TEventKind] ?? []) routers.add(router);
  return Promise.all([...routers].map((router) => queryClient.invalidateQueries({ queryKey: ROUTERS[router].pathKey() })));
}

/** Events arriving together (a check-in posts its charge and its deposit) make one round of reloads. */
const GATHER_MS = 100;

/**
 * The live feed of the signed-in tab (mounted once, in the signed-in layout): each change of the
 * hotel, whoever made it (this tab, another, a job, a legacy client, another server), reloads the
 * queries it makes stale within a second or two. After a dropped connection the feed resumes from
 * the last event received (the server sends what was missed).
 */
export function useLiveEvents(queryClient: QueryClient = appQueryClient): void {
  useEffect(() => {
    const kinds = new Set<string>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const subscription = trpcClient.event.feed.subscribe(
      {},
      {
        onData(envelope) {
          for (const event of envelope.data) kinds.add(event.kind);
          timer ??= setTimeout(() => {
            timer = undefined;
            const batch = [...kinds];
            kinds.clear();
            void invalidateForEvents(queryClient, batch);
          }, GATHER_MS);
        },
        // The link reconnects by itself; a session that ended shows itself on the next query.
        onError() {},
      },
    );
    return () => {
      subscription.unsubscribe();
      if (timer) clearTimeout(timer);
    };
  }, [queryClient]);
}
