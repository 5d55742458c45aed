import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Ban, BookOpen, KeyRound, Plus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { LIMITS, type TApiKeyState } from '@console/shared';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormError } from '@/components/form-error';
import { IconAction } from '@/components/icon-action';
import { ListPage } from '@/components/list-page';
import { ActionsHead, ListTable, RowActions } from '@/components/list-table';
import { RefreshButton } from '@/components/refresh-button';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { EmptyState } from '@/components/ui/empty-state';
import { Label } from '@/components/ui/label';
import { TableCell, TableHead, TableRow } from '@/components/ui/table';
import { formatDateTime } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';
import { FIRST_API_KEYS, apiKeyQueries, invalidateApiKeys } from './api';
import { ApiKeyCreatedDialog } from './api-key-created-dialog';
import { accessByArea } from './api-key-permissions';
import { NewApiKeyDialog, type CreatedApiKey } from './new-api-key-dialog';

type ApiKey = RouterOutputs['apiKey']['list']['items'][number];

const STATE_VARIANT: Record<TApiKeyState, 'success' | 'secondary' | 'destructive'> = { active: 'success', expired: 'secondary', revoked: 'destructive' };

/**
 * `/thirdPartyAuthorization/thirdPartyAuthorization` (spec §2, issue 9 §2): the hotel's API keys for
 * third-party systems. The keys in use (revoked and expired ones too on request) with what each may
 * do, its expiry, who made it and when, and its last use; a new key is shown once; a key is
 * revoked after a confirmation. For owners whose membership has apiKeyAuth (the menu shows it only then).
 */
export function ApiKeysPage() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const { timeZone } = useHotelSettings();
  const [page, setPage] = useState(FIRST_API_KEYS.page);
  const [pageSize, setPageSize] = useState(FIRST_API_KEYS.pageSize);
  const [showAll, setShowAll] = useState(FIRST_API_KEYS.all);
  const [isCreating, setIsCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  const list = useQuery(apiKeyQueries.list({ page, pageSize, all: showAll }));
  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;

  // A page left empty (its last key revoked): the last page there is.
  const lastPage = Math.max(1, Math.ceil(total / pageSize));
  const isPastEnd = list.data !== undefined && !list.isPlaceholderData && page > lastPage;
  if (isPastEnd) setPage(lastPage);

  const revoke = useMutation(
    trpc.apiKey.revoke.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (key) => {
        toast.success(t('apiKeys.revoke.succeeded', { name: key.name }));
        setRevoking(null);
        void invalidateApiKeys(queryClient);
      },
    }),
  );

  const newKeyButton = (testId: string) => (
    <Button onClick={() => setIsCreating(true)} data-testid={testId}>
      <Plus aria-hidden />
      {t('apiKeys.new')}
    </Button>
  );

  return (
    <>
      <ListPage
        title={t('apiKeys.title')}
        actions={newKeyButton('api-key-new')}
        beforeList={
          <div className="max-w-3xl space-y-1 text-sm">
            <p className="text-muted-foreground">{t('apiKeys.intro')}</p>
            {/* The reference is served by the server itself (not a page of this app): a whole navigation, in a tab of its own. */}
            <a
              href={`/api/v1/docs?lang=${encodeURIComponent(i18n.resolvedLanguage ?? i18n.language)}`}
              target="_blank"
              rel="noopener"
              className="text-primary inline-flex items-center gap-1 underline-offset-4 hover:underline"
              data-testid="api-keys-reference"
            >
              <BookOpen className="size-4" aria-hidden />
              {t('apiKeys.reference')}
            </a>
          </div>
        }
        query={list}
        what={t('apiKeys.listWhat')}
        search={
          <div className="flex items-center gap-2">
            <Checkbox
              id="api-keys-show-all"
              checked={showAll}
              onCheckedChange={(checked) => {
                setShowAll(checked === true);
                setPage(1);
              }}
              data-testid="api-keys-show-all"
            />
            <Label htmlFor="api-keys-show-all" className="font-normal">
              {t('apiKeys.showAll')}
            </Label>
          </div>
        }
        toolbarEnd={<RefreshButton onRefresh={list.refetch} fetching={list.isFetching} />}
        isEmpty={items.length === 0}
        empty={
          <EmptyState
            icon={KeyRound}
            title={showAll ? t('apiKeys.emptyAllTitle') : t('apiKeys.emptyTitle')}
            description={t('apiKeys.emptyText')}
            action={newKeyButton('api-key-new-empty')}
            data-testid="api-keys-empty"
          />
        }
        pagination={{
          page,
          pageSize,
          total,
          pageSizeOptions: LIMITS.pageSizeOptions,
          onPageChange: setPage,
          onPageSizeChange: (size) => {
            setPageSize(size);
            setPage(1);
          },
        }}
        data-testid="api-keys-page"
      >
        <ListTable
          aria-label={t('apiKeys.listWhat')}
          data-testid="api-keys-table"
          head={
            <>
              <TableHead>{t('apiKeys.columns.name')}</TableHead>
              <TableHead>{t('apiKeys.columns.permissions')}</TableHead>
              <TableHead>{t('apiKeys.columns.expiresAt')}</TableHead>
              <TableHead>{t('apiKeys.columns.created')}</TableHead>
              <TableHead>{t('apiKeys.columns.lastUsedAt')}</TableHead>
              <TableHead>{t('apiKeys.columns.state')}</TableHead>
              <ActionsHead />
            </>
          }
        >
          {items.map((key) => (
            <TableRow key={key.id} data-testid={`api-key-row-${key.id}`} data-state={key.state}>
              <TableCell>
                <div className="font-medium" dir="auto">
                  {key.name}
                </div>
                <code className="text-muted-foreground text-xs" dir="ltr" data-testid="api-key-prefix">
                  {key.prefix}…
                </code>
              </TableCell>
              <TableCell>
                <ul className="flex max-w-72 flex-wrap gap-1" aria-label={t('apiKeys.columns.permissions')} data-testid="api-key-permissions">
                  {accessByArea(key.permissions).map(({ area, access }) => (
                    <li key={area}>
                      <Badge variant={access === 'manage' ? 'default' : 'outline'} data-access={access} data-area={area}>
                        {`${t(`apiKeys.areas.${area}`)} · ${t(`apiKeys.access.${access}`)}`}{' '}
                        <code className="font-normal opacity-80" dir="ltr">
                          {key.permissions.filter((p) => p.startsWith(`${area}.`)).join(' ')}
                        </code>
                      </Badge>
                    </li>
                  ))}
                </ul>
              </TableCell>
              <TableCell className="whitespace-nowrap tabular-nums">
                {key.expiresAt ? <time dateTime={key.expiresAt}>{formatDateTime(key.expiresAt, timeZone)}</time> : t('apiKeys.never')}
              </TableCell>
              <TableCell className="whitespace-nowrap">
                <div dir="auto">{key.createdBy?.nickname ?? '—'}</div>
                <time className="text-muted-foreground text-xs tabular-nums" dateTime={key.createdAt}>
                  {formatDateTime(key.createdAt, timeZone)}
                </time>
              </TableCell>
              <TableCell className="whitespace-nowrap tabular-nums" data-testid="api-key-last-used">
                {key.lastUsedAt ? (
                  <time dateTime={key.lastUsedAt}>{formatDateTime(key.lastUsedAt, timeZone)}</time>
                ) : (
                  <span className="text-muted-foreground">{t('apiKeys.neverUsed')}</span>
                )}
              </TableCell>
              <TableCell>
                <Badge variant={STATE_VARIANT[key.state]} data-testid="api-key-state">
                  {t(`apiKeys.states.${key.state}`)}
                </Badge>
                {key.state === 'revoked' && key.revokedAt && (
                  <time className="text-muted-foreground block text-xs tabular-nums" dateTime={key.revokedAt}>
                    {formatDateTime(key.revokedAt, timeZone)}
                  </time>
                )}
              </TableCell>
              <RowActions>
                {key.state !== 'revoked' && (
                  <IconAction
                    label={t('apiKeys.revoke.action', { name: key.name })}
                    onClick={() => setRevoking(key)}
                    testId={`api-key-revoke-${key.id}`}
                    destructive
                  >
                    <Ban aria-hidden />
                  </IconAction>
                )}
              </RowActions>
            </TableRow>
          ))}
        </ListTable>
      </ListPage>

      <NewApiKeyDialog
        open={isCreating}
        onOpenChange={setIsCreating}
        timeZone={timeZone}
        onCreated={(result) => {
          setIsCreating(false);
          setCreated(result);
        }}
      />
      <ApiKeyCreatedDialog created={created} onClose={() => setCreated(null)} />
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => {
          if (!open) {
            setRevoking(null);
            revoke.reset();
          }
        }}
        title={t('apiKeys.revoke.title', { name: revoking?.name ?? '' })}
        description={t('apiKeys.revoke.description')}
        confirmLabel={t('apiKeys.revoke.confirm')}
        destructive
        pending={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate({ id: revoking.id })}
        data-testid="api-key-revoke-dialog"
        confirmTestId="api-key-revoke-confirm"
      >
        <FormError error={revoke.error} safeToRetry />
      </ConfirmDialog>
    </>
  );
}
