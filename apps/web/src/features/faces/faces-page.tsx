import { Suspense, lazy, useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { Pencil, Plus, ScanFace } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { DeleteDialog } from '@/components/delete-dialog';
import { IconAction } from '@/components/icon-action';
import { ListPage, urlPagination } from '@/components/list-page';
import { ListSearchInput } from '@/components/list-search';
import { ActionsHead, DeleteAction, ListTable, RowActions } from '@/components/list-table';
import { RefreshButton } from '@/components/refresh-button';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { TableCell, TableHead, TableRow } from '@/components/ui/table';
import { formatDateTime, formatNumber } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { useMountedOnce } from '@/lib/lazy';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import type { SearchOf } from '@/lib/url-search';
import { hasPermission, useUserInfo } from '@/lib/user-info';
import { useSearchBox } from '@/lib/use-search-box';
import { faceQueries, invalidateFaces } from './api';
import type { Face } from './face-dialogs';
import type { facesSearchSchema } from './faces-search';

type FacesSearch = SearchOf<typeof facesSearchSchema>;
const route = getRouteApi('/_auth/faces');

/** The add and edit forms (with zod) load on first use. */
const loadDialogs = () => import('./face-dialogs');
const AddFaceDialog = lazy(() => loadDialogs().then((m) => ({ default: m.AddFaceDialog })));
const EditFaceNoteDialog = lazy(() => loadDialogs().then((m) => ({ default: m.EditFaceNoteDialog })));

/**
 * `/faces`: the hotel's face database (spec §3 Face: face id, note, photo), newest first, searched
 * literally by face id or note. A face is added with a photo uploaded first, its note edited, and
 * deleted after a confirmation; the server refuses while the face is on a lock, naming the rooms.
 */
export function FacesPage() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const queryClient = useQueryClient();
  const { timeZone } = useHotelSettings();
  const canManage = hasPermission(useUserInfo(), 'credential.manage');
  const [isAddOpen, setIsAddOpen] = useState(false);
  const [editing, setEditing] = useState<Face | null>(null);
  const [toDelete, setToDelete] = useState<Face | null>(null);
  const isDialogMounted = useMountedOnce(isAddOpen || editing !== null);

  const setSearch = (patch: Partial<FacesSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true });
  const { ref: searchBox, text: searchText, setText: setSearchText } = useSearchBox(search.search, (text) => setSearch({ search: text, page: 1 }));
  const list = useQuery(faceQueries.page(search));
  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;

  const lastPage = Math.max(1, Math.ceil(total / search.pageSize));
  const isPastEnd = list.data !== undefined && !list.isPlaceholderData && search.page > lastPage;
  useEffect(() => {
    if (isPastEnd) void navigate({ search: (prev) => ({ ...prev, page: lastPage }), replace: true });
  }, [isPastEnd, lastPage, navigate]);

  const remove = useMutation(
    trpc.face.delete.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: () => {
        toast.success(t('common.deleted'));
        setToDelete(null);
      },
      onSettled: () => void invalidateFaces(queryClient),
    }),
  );

  const addButton = canManage && (
    <Button onClick={() => setIsAddOpen(true)} data-testid="add-face">
      <Plus aria-hidden />
      {t('faces.add')}
    </Button>
  );

  return (
    <>
      <ListPage
        title={t('route.faces')}
        actions={addButton}
        query={list}
        what={t('faces.listWhat')}
        search={
          <ListSearchInput
            ref={searchBox}
            text={searchText}
            onTextChange={setSearchText}
            placeholder={t('faces.searchPlaceholder')}
            data-testid="faces-search"
          />
        }
        toolbarEnd={<RefreshButton onRefresh={list.refetch} fetching={list.isFetching} />}
        isEmpty={total === 0 || items.length === 0}
        empty={
          <EmptyState
            icon={ScanFace}
            title={search.search ? t('faces.emptySearchTitle') : t('faces.emptyTitle')}
            description={search.search ? t('faces.emptySearchText') : t('faces.emptyText')}
            action={search.search ? undefined : addButton}
            data-testid="faces-empty"
          />
        }
        pagination={urlPagination(search, setSearch, total)}
        data-testid="faces"
      >
        <ListTable
          data-testid="faces-table"
          head={
            <>
              <TableHead className="w-16">{t('faces.photo')}</TableHead>
              <TableHead>{t('faces.faceId')}</TableHead>
              <TableHead>{t('faces.note')}</TableHead>
              <TableHead className="hidden md:table-cell">{t('faces.onLocks')}</TableHead>
              <TableHead className="hidden sm:table-cell">{t('faces.addedAt')}</TableHead>
              {canManage && <ActionsHead />}
            </>
          }
        >
          {items.map((face) => (
            <TableRow key={face.id} data-testid={`face-row-${face.faceId}`}>
              <TableCell>
                <img src={face.imageUrl} alt="" className="bg-muted size-10 rounded-md border object-cover" loading="lazy" />
              </TableCell>
              <TableCell className="font-medium" dir="auto">
                {face.faceId}
              </TableCell>
              <TableCell className="max-w-64 truncate" title={face.note} dir="auto">
                {face.note}
              </TableCell>
              <TableCell className="hidden tabular-nums md:table-cell">{formatNumber(face.activeAuthorizations)}</TableCell>
              <TableCell className="text-muted-foreground hidden whitespace-nowrap tabular-nums sm:table-cell">
                <time dateTime={face.createdAt}>{formatDateTime(face.createdAt, timeZone)}</time>
              </TableCell>
              {canManage && (
                <RowActions>
                  <IconAction label={t('faces.editNote')} onClick={() => setEditing(face)} testId={`face-edit-${face.faceId}`}>
                    <Pencil aria-hidden />
                  </IconAction>
                  <DeleteAction
                    onClick={() => {
                      remove.reset();
                      setToDelete(face);
                    }}
                    testId={`face-delete-${face.faceId}`}
                  />
                </RowActions>
              )}
            </TableRow>
          ))}
        </ListTable>
      </ListPage>

      <DeleteDialog
        open={toDelete !== null}
        onClose={() => {
          setToDelete(null);
          remove.reset();
        }}
        title={t('faces.deleteTitle')}
        description={toDelete ? t('faces.deleteText', { face: toDelete.faceId, note: toDelete.note }) : ''}
        pending={remove.isPending}
        error={remove.error}
        onConfirm={() => toDelete && remove.mutate({ id: toDelete.id })}
        data-testid="face-delete-dialog"
        confirmTestId="face-delete-confirm"
      />
      {isDialogMounted && (
        <Suspense fallback={null}>
          <AddFaceDialog open={isAddOpen} onOpenChange={setIsAddOpen} />
          <EditFaceNoteDialog face={editing} onClose={() => setEditing(null)} />
        </Suspense>
      )}
    </>
  );
}
