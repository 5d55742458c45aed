import { keepPreviousData, type QueryClient } from '@tanstack/react-query';
import type { SectionInput } from '@/components/credential-section';
import { refetchWhileInFlight } from '@/lib/credentials';
import { trpc } from '@/lib/trpc';

/**
 * The passwords' api (issue 19 §5): the queries of a room's passwords tab and of the issue dialog,
 * and what issuing, revoking or retrying a password makes stale. Mutations are the tRPC ones
 * (`trpc.password.*`).
 */
export const credentialQueries = {
  /** A room's passwords (a section's scope and page); asked again quickly while one is being sent or removed. */
  list: (roomId: number, input: SectionInput) =>
    trpc.password.list.queryOptions(
      { roomId, ...input },
      { placeholderData: keepPreviousData, refetchInterval: refetchWhileInFlight, meta: { showsErrors: true } },
    ),
  /** The hotel's members a password can be issued to; asked only when the holder is a member. */
  staff: (enabled: boolean) => trpc.password.staff.queryOptions(undefined, { enabled, meta: { showsErrors: true } }),
};

/** The key every password query is under (what a revoke or a retry makes stale). */
export const passwordsKey = () => trpc.password.pathKey();

/** A password issued: every password query is asked again. */
export const invalidatePasswords = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: passwordsKey() });
