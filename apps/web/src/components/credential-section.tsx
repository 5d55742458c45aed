import { useState, type ComponentProps, type ReactNode } from 'react';
import {
  useMutation,
  useQuery,
  useQueryClient,
  type QueryKey,
  type UseMutationOptions,
  type UseQueryOptions,
  type UseQueryResult,
} from '@tanstack/react-query';
import { History, type LucideIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ListPagination } from '@/components/list-pagination';
import { LoadError, failedQuery } from '@/components/load-error';
import { RefreshButton } from '@/components/refresh-button';
import { Card } from '@/components/ui/card';
import { SkeletonRows } from '@/components/ui/skeleton';
import { ToggleGroup, ToggleGroupItem } from '@/components/ui/toggle-group';
import { toast } from '@/lib/toast';

/** A room's credentials in use, or under History the ones that ended. */
export type SectionScope = 'active' | 'history';
export const SECTION_PAGE_SIZE = 10;

/** What a section's list query is asked for. */
export interface SectionInput {
  scope: SectionScope;
  page: number;
  pageSize: number;
}

/** A section's list (a page of `items` of `total`), its scope and its page. */
export interface SectionList<TData extends { total: number }, TError> {
  query: UseQueryResult<TData, TError>;
  scope: SectionScope;
  page: number;
  total: number;
  setPage(page: number): void;
  /** Another scope starts at its first page. */
  setScope(scope: SectionScope): void;
}

/**
 * The list of a credential section of the room page (passwords, faces, cards): 10 a page, active
 * first. When the last row of the last page goes (revoked, expired), the page before is shown, not
 * an empty one. `optionsFor` makes the query's options for a scope and a page.
 */
export function useSectionList<TQueryFnData, TError, TData extends { total: number }, TQueryKey extends QueryKey>(
  optionsFor: (input: SectionInput) => UseQueryOptions<TQueryFnData, TError, TData, TQueryKey>,
): SectionList<TData, TError> {
  const [scope, setScope] = useState<SectionScope>('active');
  const [page, setPage] = useState(1);
  const query = useQuery(optionsFor({ scope, page, pageSize: SECTION_PAGE_SIZE }));
  const total = query.data?.total ?? 0;
  const lastPage = Math.max(1, Math.ceil(total / SECTION_PAGE_SIZE));
  if (query.data && !query.isPlaceholderData && page > lastPage) setPage(lastPage);
  return {
    query,
    scope,
    page,
    total,
    setPage,
    setScope: (next) => {
      setScope(next);
      setPage(1);
    },
  };
}

/**
 * Revoking a section's row, after a confirmation (`revoking`, the row asked about; `revokeDialog`,
 * the confirmation's behaviour, its texts are the caller's), and trying a failed delivery again.
 * After either, the lists under `pathKey` are asked again (after a failed retry too, to show where
 * the row stands). `revokeOptions`, `retryOptions`: the procedures' `mutationOptions`.
 */
export function useRevokeRetry<TRow, TRevokeData, TRevokeVars, TRetryData, TRetryVars, TError>({
  revokeOptions,
  retryOptions,
  revokeInput,
  pathKey,
  revokedMessage,
}: {
  revokeOptions: (opts: { onSuccess(): void }) => UseMutationOptions<TRevokeData, TError, TRevokeVars>;
  retryOptions: (opts: { onSuccess(): void; onError(): void }) => UseMutationOptions<TRetryData, TError, TRetryVars>;
  /** What the revoke of a row sends. */
  revokeInput(row: TRow): TRevokeVars;
  pathKey: QueryKey;
  /** The toast after a revoke. */
  revokedMessage: string;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [revoking, setRevoking] = useState<TRow | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: pathKey });
  const revoke = useMutation(
    revokeOptions({
      onSuccess: () => {
        setRevoking(null);
        toast.success(revokedMessage);
        void refresh();
      },
    }),
  );
  const retry = useMutation(
    retryOptions({
      onSuccess: () => {
        toast.success(t('credentials.retried'));
        void refresh();
      },
      onError: () => void refresh(),
    }),
  );
  const revokeDialog = {
    open: revoking !== null,
    onOpenChange: (open: boolean) => !open && setRevoking(null),
    destructive: true,
    pending: revoke.isPending,
    onConfirm: () => revoking && revoke.mutate(revokeInput(revoking)),
  };
  return { revoking, askRevoke: setRevoking, revokeDialog, retry };
}

interface CredentialSectionProps extends Omit<ComponentProps<typeof Card>, 'title' | 'children'> {
  list: SectionList<{ total: number }, unknown>;
  /** The section's h2: shown with `icon`, or for screen readers only (`titleHidden`). */
  title: ReactNode;
  titleHidden?: boolean;
  /** The h2's id: the section is labelled by it. */
  titleId?: string;
  /** The icon of the title and of the "active" scope. */
  icon: LucideIcon;
  scopeLabel: string;
  /** `<prefix>-scope-active`, `<prefix>-scope-history`: the scope buttons' test ids. */
  scopeTestIdPrefix: string;
  /** The button after the refresh button (issue, authorise, write). */
  action?: ReactNode;
  /** Between the header and the list (a note about the room). */
  beforeList?: ReactNode;
  /** What the list holds, for "Could not load {{what}}". */
  what: string;
  skeletonRows: number;
  /** What an empty list shows, in each scope. */
  empty: Record<SectionScope, ReactNode>;
  /** The list itself (a table). */
  table: ReactNode;
  /** After the pager (the section's dialogs). */
  dialogs?: ReactNode;
}

/**
 * A credential section of the room page: its title, the active/history switch, refresh and its
 * action; the list, or what failed (a slim banner over the rows when a refresh failed), a
 * skeleton while it loads, or what an empty list means; and a pager when there is more than a page.
 */
export function CredentialSection({
  list,
  title,
  titleHidden = false,
  titleId,
  icon: Icon,
  scopeLabel,
  scopeTestIdPrefix,
  action,
  beforeList,
  what,
  skeletonRows,
  empty,
  table,
  dialogs,
  ...cardProps
}: CredentialSectionProps) {
  const { t } = useTranslation();
  const { query, scope, page, total } = list;
  return (
    <Card className="gap-0 p-0" aria-labelledby={titleId} {...cardProps}>
      <div className="flex flex-wrap items-center gap-3 border-b p-3">
        {titleHidden ? (
          <h2 id={titleId} className="sr-only">
            {title}
          </h2>
        ) : (
          <h2 id={titleId} className="flex items-center gap-2 font-semibold">
            <Icon className="size-4" aria-hidden />
            {title}
          </h2>
        )}
        <ToggleGroup
          type="single"
          value={scope}
          onValueChange={(value) => {
            if (!value) return;
            list.setScope(value as SectionScope);
          }}
          aria-label={scopeLabel}
        >
          <ToggleGroupItem value="active" data-testid={`${scopeTestIdPrefix}-scope-active`}>
            <Icon aria-hidden />
            {t('credentials.scopes.active')}
          </ToggleGroupItem>
          <ToggleGroupItem value="history" data-testid={`${scopeTestIdPrefix}-scope-history`}>
            <History aria-hidden />
            {t('credentials.scopes.history')}
          </ToggleGroupItem>
        </ToggleGroup>
        <div className="ms-auto flex items-center gap-2">
          <RefreshButton onRefresh={query.refetch} fetching={query.isFetching} size="icon-sm" />
          {action}
        </div>
      </div>

      {beforeList}

      {query.isError && !query.data ? (
        <LoadError query={failedQuery(query)} what={what} />
      ) : query.isLoading ? (
        <SkeletonRows rows={skeletonRows} label={t('common.loading')} />
      ) : total === 0 ? (
        empty[scope]
      ) : (
        <>
          {query.isError && <LoadError query={failedQuery(query)} what={what} className="m-3" />}
          {table}
        </>
      )}

      {total > SECTION_PAGE_SIZE && (
        <div className="border-t p-3">
          <ListPagination page={page} pageSize={SECTION_PAGE_SIZE} total={total} onPageChange={list.setPage} />
        </div>
      )}
      {dialogs}
    </Card>
  );
}
