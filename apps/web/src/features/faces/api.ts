import { keepPreviousData, type QueryClient } from '@tanstack/react-query';
import type { SectionInput } from '@/components/credential-section';
import { FACE_PHOTO_REFRESH_MS, IN_FLIGHT_REFETCH_MS, isInFlight } from '@/lib/credentials';
import { trpc } from '@/lib/trpc';
import type { SearchOf } from '@/lib/url-search';
import type { facesSearchSchema } from './faces-search';

/**
 * The faces' api (issue 19 §5): the queries of the face database and of a room's faces, and what a
 * change of a face or of an authorisation makes stale. Mutations are the tRPC ones (`trpc.face.*`).
 * The route's loader asks for the URL's page of faces as the route starts (`ensureQueryData`, not
 * awaited: the page shows its skeleton and its own load error as before).
 */
export const faceQueries = {
  /** A page of the hotel's faces, searched by note or face id; asked again while photos are being checked. */
  list: (page: number, pageSize: number, search: string) =>
    trpc.face.list.queryOptions(
      { page, pageSize, search: search || undefined },
      { placeholderData: keepPreviousData, refetchInterval: FACE_PHOTO_REFRESH_MS, meta: { showsErrors: true } },
    ),
  /** The page of faces `/faces`' URL names. */
  page: (search: SearchOf<typeof facesSearchSchema>) => faceQueries.list(search.page, search.pageSize, search.search),
  /** A room's face authorisations (a section's scope and page); asked again quickly while one is being sent or taken off. */
  authorizations: (roomId: number, input: SectionInput) =>
    trpc.face.authorizations.queryOptions(
      { roomId, ...input },
      {
        placeholderData: keepPreviousData,
        refetchInterval: (query) => (query.state.data?.items.some((a) => isInFlight(a.deliveryState)) ? IN_FLIGHT_REFETCH_MS : FACE_PHOTO_REFRESH_MS),
        meta: { showsErrors: true },
      },
    ),
};

/** The key every face query is under (what a revoke or a retry of an authorisation makes stale). */
export const facesKey = () => trpc.face.pathKey();

/** A face or an authorisation added, changed or deleted: every face query is asked again. */
export const invalidateFaces = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: facesKey() });
