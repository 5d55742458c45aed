import { Suspense, lazy, useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { Lock, LockOpen, Pencil, Plus, UserCog } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { DeleteDialog } from '@/components/delete-dialog';
import { FormError } from '@/components/form-error';
import { IconAction } from '@/components/icon-action';
import { ListPage, urlPagination } from '@/components/list-page';
import { ListSearchInput } from '@/components/list-search';
import { ActionsHead, DeleteAction, ListTable, RowActions } from '@/components/list-table';
import { RefreshButton } from '@/components/refresh-button';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { TableCell, TableHead, TableRow } from '@/components/ui/table';
import { formatNumber } from '@/lib/format';
import { useMountedOnce } from '@/lib/lazy';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import type { SearchOf } from '@/lib/url-search';
import { useSearchBox } from '@/lib/use-search-box';
import { invalidateStaff, staffQueries } from './api';
import type { StaffMember } from './staff-types';
import type { staffSearchSchema } from './staff-search';

type StaffSearch = SearchOf<typeof staffSearchSchema>;
const route = getRouteApi('/_auth/staff');

/** The add and edit forms (with zod) load on first use. */
const loadDialogs = () => import('./staff-dialogs');
const AddStaffDialog = lazy(() => loadDialogs().then((m) => ({ default: m.AddStaffDialog })));
const EditStaffDialog = lazy(() => loadDialogs().then((m) => ({ default: m.EditStaffDialog })));

/** How many room names a row shows before "+n". */
const ROOMS_SHOWN = 3;

const ROLE_VARIANT = { owner: 'default', admin: 'secondary', staff: 'outline', housekeeping: 'outline', housekeeping_supervisor: 'secondary' } as const;

/**
 * `/staff`: the hotel's administrators and staff (spec §3 administrator, §6; issue 9 §1), searched
 * by name, mobile or e-mail: each one's role, the rooms they manage (all, or a list), whether they
 * have third-party authorisation (apiKeyAuth), and whether they are frozen. A member is added (an
 * existing account, or a new one whose first password comes by SMS), edited (role, rooms,
 * apiKeyAuth), frozen or unfrozen and removed after a confirmation; the server's refusals (the
 * last owner, an owner touched by an administrator) are shown translated in the prompt.
 */
export function StaffPage() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const queryClient = useQueryClient();
  const [isAddOpen, setIsAddOpen] = useState(false);
  const [editing, setEditing] = useState<StaffMember | null>(null);
  const [freezing, setFreezing] = useState<StaffMember | null>(null);
  const [toRemove, setToRemove] = useState<StaffMember | null>(null);
  const isDialogMounted = useMountedOnce(isAddOpen || editing !== null);

  const setSearch = (patch: Partial<StaffSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true });
  const { ref: searchBox, text: searchText, setText: setSearchText } = useSearchBox(search.search, (text) => setSearch({ search: text, page: 1 }));
  const list = useQuery(staffQueries.list(search));
  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;

  // A page left empty (its last member removed): the last page there is.
  const lastPage = Math.max(1, Math.ceil(total / search.pageSize));
  const isPastEnd = list.data !== undefined && !list.isPlaceholderData && search.page > lastPage;
  useEffect(() => {
    if (isPastEnd) void navigate({ search: (prev) => ({ ...prev, page: lastPage }), replace: true });
  }, [isPastEnd, lastPage, navigate]);

  const afterChange = () => invalidateStaff(queryClient);
  const setFrozen = useMutation(
    trpc.staff.setFrozen.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (member) => {
        toast.success(member.frozen ? t('staff.freeze.succeeded', { name: member.name }) : t('staff.unfreeze.succeeded', { name: member.name }));
        setFreezing(null);
      },
      onSettled: () => void afterChange(),
    }),
  );
  const remove = useMutation(
    trpc.staff.remove.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: () => {
        toast.success(t('staff.remove.succeeded', { name: toRemove?.name ?? '' }));
        setToRemove(null);
      },
      onSettled: () => void afterChange(),
    }),
  );

  const addButton = (testId: string) => (
    <Button onClick={() => setIsAddOpen(true)} data-testid={testId}>
      <Plus aria-hidden />
      {t('staff.add')}
    </Button>
  );

  return (
    <>
      <ListPage
        title={t('staff.title')}
        actions={addButton('staff-add')}
        query={list}
        what={t('staff.listWhat')}
        search={
          <ListSearchInput
            ref={searchBox}
            text={searchText}
            onTextChange={setSearchText}
            placeholder={t('staff.searchPlaceholder')}
            data-testid="staff-search"
          />
        }
        toolbarEnd={<RefreshButton onRefresh={list.refetch} fetching={list.isFetching} />}
        isEmpty={total === 0 || items.length === 0}
        empty={
          <EmptyState
            icon={UserCog}
            title={search.search ? t('staff.emptySearchTitle') : t('staff.emptyTitle')}
            description={search.search ? t('staff.emptySearchText') : t('staff.emptyText')}
            action={search.search ? undefined : addButton('staff-add-empty')}
            data-testid="staff-empty"
          />
        }
        pagination={urlPagination(search, setSearch, total)}
        data-testid="staff-page"
      >
        <ListTable
          aria-label={t('staff.listWhat')}
          data-testid="staff-table"
          head={
            <>
              <TableHead>{t('staff.columns.name')}</TableHead>
              <TableHead className="hidden lg:table-cell">{t('staff.columns.profile')}</TableHead>
              <TableHead>{t('staff.columns.contact')}</TableHead>
              <TableHead>{t('staff.columns.role')}</TableHead>
              <TableHead>{t('staff.columns.rooms')}</TableHead>
              <TableHead className="hidden md:table-cell">{t('staff.columns.apiKeyAuth')}</TableHead>
              <TableHead>{t('staff.columns.state')}</TableHead>
              <ActionsHead />
            </>
          }
        >
          {items.map((member) => (
            <TableRow
              key={member.id}
              data-testid={`staff-row-${member.id}`}
              data-account={member.mobile ?? member.email ?? ''}
              data-frozen={member.frozen}
              data-role={member.role}
            >
              <TableCell>
                <div className="font-medium" dir="auto" data-testid="staff-name">
                  {member.name}
                </div>
                {member.isSelf && <div className="text-muted-foreground text-xs">{t('staff.you')}</div>}
                {member.isLastOwner && (
                  <div className="text-muted-foreground text-xs" data-testid="staff-last-owner">
                    {t('staff.lastOwner.note')}
                  </div>
                )}
              </TableCell>
              <TableCell className="hidden text-sm lg:table-cell" data-testid="staff-profile">
                <div>{t(`frontDesk.stay.genders.${member.gender}`)}</div>
                {member.nationality && (
                  <div className="text-muted-foreground" dir="auto">
                    {member.nationality}
                  </div>
                )}
                {member.birthDate && (
                  <time className="text-muted-foreground block tabular-nums" dateTime={member.birthDate}>
                    {member.birthDate}
                  </time>
                )}
              </TableCell>
              <TableCell className="text-sm" data-testid="staff-contact">
                {member.mobile && (
                  <div className="tabular-nums" dir="ltr">
                    {member.mobile}
                  </div>
                )}
                {member.email && (
                  <div className="text-muted-foreground" dir="ltr">
                    {member.email}
                  </div>
                )}
              </TableCell>
              <TableCell>
                <Badge variant={ROLE_VARIANT[member.role]} data-testid="staff-role">
                  {t(`staff.roles.${member.role}`)}
                </Badge>
              </TableCell>
              <TableCell className="text-sm" data-testid="staff-rooms" data-rooms={member.allRooms ? 'all' : member.rooms.map((r) => r.name).join(',')}>
                {member.allRooms ? (
                  <Badge variant="secondary">{t('staff.allRooms')}</Badge>
                ) : member.rooms.length === 0 ? (
                  <span className="text-muted-foreground">{t('staff.noRooms')}</span>
                ) : (
                  <div className="max-w-56">
                    <div>{t('staff.roomCount', { n: formatNumber(member.rooms.length) })}</div>
                    <div className="text-muted-foreground truncate text-xs" title={member.rooms.map((r) => r.name).join(', ')} dir="auto">
                      {member.rooms
                        .slice(0, ROOMS_SHOWN)
                        .map((r) => r.name)
                        .join(', ')}
                      {member.rooms.length > ROOMS_SHOWN && ` +${formatNumber(member.rooms.length - ROOMS_SHOWN)}`}
                    </div>
                  </div>
                )}
              </TableCell>
              <TableCell className="hidden md:table-cell" data-testid="staff-api-key-auth">
                {member.apiKeyAuth ? <Badge variant="default">{t('staff.yes')}</Badge> : <span className="text-muted-foreground text-sm">{t('staff.no')}</span>}
              </TableCell>
              <TableCell>
                {member.frozen ? (
                  <Badge variant="destructive" data-testid="staff-state">
                    {t('staff.states.frozen')}
                  </Badge>
                ) : (
                  <Badge variant="success" data-testid="staff-state">
                    {t('staff.states.active')}
                  </Badge>
                )}
              </TableCell>
              <RowActions>
                {member.manageable && (
                  <IconAction label={t('staff.edit.action', { name: member.name })} onClick={() => setEditing(member)} testId={`staff-edit-${member.id}`}>
                    <Pencil aria-hidden />
                  </IconAction>
                )}
                {member.manageable && !member.isSelf && !member.isLastOwner && (
                  <IconAction
                    label={member.frozen ? t('staff.unfreeze.action', { name: member.name }) : t('staff.freeze.action', { name: member.name })}
                    onClick={() => {
                      setFrozen.reset();
                      setFreezing(member);
                    }}
                    testId={`staff-${member.frozen ? 'unfreeze' : 'freeze'}-${member.id}`}
                  >
                    {member.frozen ? <LockOpen aria-hidden /> : <Lock aria-hidden />}
                  </IconAction>
                )}
                {/* The hotel's only owner cannot be removed (the server refuses it): not offered, and said why. */}
                {member.manageable && !member.isLastOwner && (
                  <DeleteAction
                    onClick={() => {
                      remove.reset();
                      setToRemove(member);
                    }}
                    testId={`staff-remove-${member.id}`}
                  />
                )}
              </RowActions>
            </TableRow>
          ))}
        </ListTable>
      </ListPage>

      <ConfirmDialog
        open={freezing !== null}
        onOpenChange={(open) => {
          if (!open) {
            setFreezing(null);
            setFrozen.reset();
          }
        }}
        title={freezing?.frozen ? t('staff.unfreeze.title', { name: freezing.name }) : t('staff.freeze.title', { name: freezing?.name ?? '' })}
        description={freezing?.frozen ? t('staff.unfreeze.description') : t('staff.freeze.description')}
        confirmLabel={freezing?.frozen ? t('staff.unfreeze.confirm') : t('staff.freeze.confirm')}
        destructive={!freezing?.frozen}
        pending={setFrozen.isPending}
        onConfirm={() => freezing && setFrozen.mutate({ id: freezing.id, frozen: !freezing.frozen })}
        data-testid="staff-freeze-dialog"
        confirmTestId="staff-freeze-confirm"
      >
        <FormError error={setFrozen.error} />
      </ConfirmDialog>
      <DeleteDialog
        open={toRemove !== null}
        onClose={() => {
          setToRemove(null);
          remove.reset();
        }}
        title={t('staff.remove.title', { name: toRemove?.name ?? '' })}
        description={toRemove?.isSelf ? t('staff.remove.descriptionSelf') : t('staff.remove.description')}
        pending={remove.isPending}
        error={remove.error}
        onConfirm={() => toRemove && remove.mutate({ id: toRemove.id })}
        data-testid="staff-remove-dialog"
        confirmTestId="staff-remove-confirm"
      />
      {isDialogMounted && (
        <Suspense fallback={null}>
          <AddStaffDialog open={isAddOpen} onOpenChange={setIsAddOpen} />
          <EditStaffDialog member={editing} onClose={() => setEditing(null)} />
        </Suspense>
      )}
    </>
  );
}
