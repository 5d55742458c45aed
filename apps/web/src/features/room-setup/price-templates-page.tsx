import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ClipboardCheck, Pencil, Plus, Tags, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { toast } from '@/lib/toast';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { RefreshButton } from '@/components/refresh-button';
import { Button } from '@/components/ui/button';
import { ListPage } from '@/components/list-page';
import { EmptyState } from '@/components/ui/empty-state';
import { SkeletonRows } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { formatDate, formatNumber } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import { trpc } from '@/lib/trpc';
import { hasPermission, useUserInfo } from '@/lib/user-info';
import { invalidatePriceTemplates, roomSetupQueries } from './api';
import { ApplyTemplateDialog } from './apply-template-dialog';
import { IconAction } from '@/components/icon-action';
import { PriceTemplateDialog, type PriceTemplate } from './price-template-form';

/** The template being added (null) or edited; undefined while the dialog is closed. */
type Editing = PriceTemplate | null | undefined;

/** `/room/priceTemplate`: price templates, their rates and specific-date prices, applied to rooms or a group. */
export function PriceTemplatesPage() {
  const { t } = useTranslation();
  const user = useUserInfo();
  const canManage = hasPermission(user, 'price.manage');
  const currency = user?.hotel.currency ?? 'CNY';
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Editing>(undefined);
  const [deleting, setDeleting] = useState<PriceTemplate | null>(null);
  const [applying, setApplying] = useState<PriceTemplate | null>(null);

  const list = useQuery(roomSetupQueries.priceTemplates());
  const templates = list.data ?? [];

  const afterChange = () => invalidatePriceTemplates(queryClient);

  const remove = useMutation(
    trpc.price.deleteTemplate.mutationOptions({
      onSuccess: () => {
        toast.success(t('common.deleted'));
        setDeleting(null);
        void afterChange();
      },
    }),
  );

  const money = (minor: number | null) => (minor === null ? <span className="text-muted-foreground">—</span> : formatMoney(minor, currency));

  return (
    <>
      <ListPage
        title={t('route.priceTemplates')}
        actions={
          <>
            <RefreshButton onRefresh={list.refetch} fetching={list.isFetching} />
            {canManage && (
              <Button onClick={() => setEditing(null)} data-testid="add-template">
                <Plus aria-hidden />
                {t('roomSetup.addTemplate')}
              </Button>
            )}
          </>
        }
        query={list}
        what={t('roomSetup.templatesWhat')}
        isEmpty={templates.length === 0}
        empty={
          <EmptyState
            icon={Tags}
            title={t('roomSetup.templatesEmptyTitle')}
            description={t('roomSetup.templatesEmptyText')}
            action={
              canManage ? (
                <Button onClick={() => setEditing(null)}>
                  <Plus aria-hidden />
                  {t('roomSetup.addTemplate')}
                </Button>
              ) : undefined
            }
            data-testid="template-empty"
          />
        }
        skeleton={<SkeletonRows rows={4} label={t('common.loading')} />}
        data-testid="template-list"
      >
        <Table data-testid="template-table">
          <TableHeader>
            <TableRow>
              <TableHead>{t('roomSetup.templateName')}</TableHead>
              <TableHead className="text-end">{t('roomSetup.deposit')}</TableHead>
              <TableHead className="text-end">{t('roomSetup.usualPrice')}</TableHead>
              <TableHead className="text-end">{t('roomSetup.weekendPrice')}</TableHead>
              <TableHead className="text-end">{t('roomSetup.renewalPrice')}</TableHead>
              <TableHead className="text-end">{t('roomSetup.datePriceCount')}</TableHead>
              <TableHead className="text-end">{t('roomSetup.roomsUsing')}</TableHead>
              {canManage && (
                <TableHead>
                  <span className="sr-only">{t('common.actions')}</span>
                </TableHead>
              )}
            </TableRow>
          </TableHeader>
          <TableBody>
            {templates.map((template) => (
              <TableRow key={template.id} data-testid={`template-row-${template.id}`}>
                <TableCell className="font-medium">{template.name}</TableCell>
                <TableCell className="text-end whitespace-nowrap tabular-nums">{money(template.depositAmount)}</TableCell>
                <TableCell className="text-end whitespace-nowrap tabular-nums">{money(template.usualPrice)}</TableCell>
                <TableCell className="text-end whitespace-nowrap tabular-nums">{money(template.weekendPrice)}</TableCell>
                <TableCell className="text-end whitespace-nowrap tabular-nums">{money(template.renewalPrice)}</TableCell>
                <TableCell className="text-end tabular-nums">
                  {template.datePrices.length === 0 ? (
                    formatNumber(0)
                  ) : (
                    <Tooltip>
                      <TooltipTrigger asChild>
                        <button
                          type="button"
                          className="underline decoration-dotted underline-offset-4"
                          aria-label={`${formatNumber(template.datePrices.length)} ${t('roomSetup.datePrices')}`}
                        >
                          {formatNumber(template.datePrices.length)}
                        </button>
                      </TooltipTrigger>
                      <TooltipContent>
                        <ul className="space-y-0.5">
                          {template.datePrices.slice(0, 10).map((d) => (
                            <li key={d.date} className="tabular-nums">{`${formatDate(d.date)}: ${formatMoney(d.price, currency)}`}</li>
                          ))}
                          {template.datePrices.length > 10 && <li>…</li>}
                        </ul>
                      </TooltipContent>
                    </Tooltip>
                  )}
                </TableCell>
                <TableCell className="text-end tabular-nums">{formatNumber(template.roomCount)}</TableCell>
                {canManage && (
                  <TableCell>
                    <div className="flex justify-end gap-1">
                      <IconAction label={t('roomSetup.applyTemplate')} onClick={() => setApplying(template)} testId={`apply-template-${template.id}`}>
                        <ClipboardCheck className="size-4" />
                      </IconAction>
                      <IconAction label={t('roomSetup.editTemplate')} onClick={() => setEditing(template)} testId={`edit-template-${template.id}`}>
                        <Pencil className="size-4" />
                      </IconAction>
                      <IconAction label={t('common.delete')} onClick={() => setDeleting(template)} testId={`delete-template-${template.id}`} destructive>
                        <Trash2 className="size-4" />
                      </IconAction>
                    </div>
                  </TableCell>
                )}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </ListPage>

      {editing !== undefined && (
        <PriceTemplateDialog key={editing?.id ?? 'new'} template={editing} onClose={() => setEditing(undefined)} onSaved={() => void afterChange()} />
      )}
      {applying && <ApplyTemplateDialog key={applying.id} template={applying} onClose={() => setApplying(null)} onApplied={() => void afterChange()} />}

      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t('roomSetup.deleteTemplateTitle')}
        description={
          <>
            {deleting && t('roomSetup.deleteTemplateText', { name: deleting.name })}
            {deleting && deleting.roomCount > 0 && ` ${t('roomSetup.deleteTemplateRooms', { number: formatNumber(deleting.roomCount) })}`}
          </>
        }
        confirmLabel={t('common.delete')}
        destructive
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate({ id: deleting.id })}
        data-testid="template-delete-confirm"
        confirmTestId="confirm-action"
      />
    </>
  );
}
