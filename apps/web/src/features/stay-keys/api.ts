import type { QueryClient } from '@tanstack/react-query';
import type { TDeliveryState } from '@console/shared';
import { IN_FLIGHT_REFETCH_MS, isInFlight } from '@/lib/credentials';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';

type StayKeys = RouterOutputs['stay']['keys'];
type Card = StayKeys['cards'][number];

/**
 * The guest keys' api (issue 19 §5): the keys of a stay the guest keys dialog shows, and what a
 * code issued there makes stale. Mutations are the tRPC ones (`trpc.password.*`, `trpc.card.*`).
 */
export const guestKeyQueries = {
  /** A stay's passwords, faces and cards (and those of the room it left); asked again while one is under way. */
  keys: (stayId: number) =>
    trpc.stay.keys.queryOptions(
      { stayId },
      { staleTime: 0, refetchInterval: (query) => (statesOf(query.state.data).some(isInFlight) ? IN_FLIGHT_REFETCH_MS : false), meta: { showsErrors: true } },
    ),
};

/** Every delivery state the view shows: it asks again while one of them is still under way, never otherwise. */
function statesOf(keys: StayKeys | undefined): TDeliveryState[] {
  if (!keys) return [];
  const cards = (cards: Card[]) => cards.flatMap((c) => c.grants.map((g) => g.deliveryState));
  const old = keys.movedFrom;
  return [
    ...keys.passwords.map((p) => p.deliveryState),
    ...keys.faces.map((f) => f.deliveryState),
    ...cards(keys.cards),
    ...(old ? [...old.passwords.map((p) => p.deliveryState), ...old.faces.map((f) => f.deliveryState), ...cards(old.cards)] : []),
  ];
}

/** A code issued or retried from the dialog: every password query (the room's passwords tab) is asked again. */
export const invalidatePasswords = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: trpc.password.pathKey() });
