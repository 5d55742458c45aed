import { useState } from 'react';
import { useMutation, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { Tags } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { toast } from '@/lib/toast';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormError } from '@/components/form-error';
import { LoadError, failedQuery } from '@/components/load-error';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { formatMoney } from '@/lib/money';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';
import { invalidateRoomPrices } from './api';

type PriceTemplate = RouterOutputs['price']['templates'][number];

/** Applies one of the hotel's price templates to the room, asked first. */
export function ApplyTemplateCard({
  roomId,
  templates: query,
  currency,
}: {
  roomId: number;
  templates: UseQueryResult<PriceTemplate[], unknown>;
  currency: string;
}) {
  const templates = query.data;
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [templateId, setTemplateId] = useState<string>('');
  const [isConfirming, setIsConfirming] = useState(false);
  const chosen = templates?.find((tpl) => String(tpl.id) === templateId);
  const apply = useMutation(
    trpc.price.applyTemplate.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: () => {
        toast.success(t('frontDesk.detail.templateApplied'));
        setIsConfirming(false);
        setTemplateId('');
        invalidateRoomPrices(queryClient);
      },
    }),
  );
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Tags className="size-4" aria-hidden />
          {t('frontDesk.detail.applyTemplate')}
        </CardTitle>
        <CardDescription>{t('frontDesk.detail.applyTemplateText')}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap items-center gap-2">
        {query.isError && !templates ? (
          <LoadError query={failedQuery(query)} what={t('frontDesk.detail.loadWhat.templates')} className="w-full py-4" />
        ) : query.isLoading ? (
          <Skeleton className="h-9 w-56" />
        ) : templates && templates.length > 0 ? (
          <>
            <Select value={templateId} onValueChange={setTemplateId}>
              <SelectTrigger className="w-64" aria-label={t('frontDesk.detail.chooseTemplate')} data-testid="price-template-select">
                <SelectValue placeholder={t('frontDesk.detail.chooseTemplate')} />
              </SelectTrigger>
              <SelectContent>
                {templates.map((tpl) => (
                  <SelectItem key={tpl.id} value={String(tpl.id)}>
                    {tpl.name} · {formatMoney(tpl.usualPrice, currency)}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            <Button variant="outline" disabled={!chosen || apply.isPending} onClick={() => setIsConfirming(true)} data-testid="apply-price-template">
              {apply.isPending && <Spinner />}
              {t('frontDesk.detail.apply')}
            </Button>
          </>
        ) : (
          <p className="text-muted-foreground text-sm">{t('frontDesk.detail.noTemplates')}</p>
        )}
      </CardContent>
      <ConfirmDialog
        open={isConfirming}
        onOpenChange={(open) => {
          setIsConfirming(open);
          if (!open) apply.reset();
        }}
        title={t('frontDesk.detail.applyTemplateTitle', { name: chosen?.name ?? '' })}
        description={t('frontDesk.detail.applyTemplateConfirm')}
        confirmLabel={t('frontDesk.detail.apply')}
        pending={apply.isPending}
        onConfirm={() => chosen && apply.mutate({ templateId: chosen.id, roomIds: [roomId] })}
        data-testid="apply-template-confirm"
        confirmTestId="confirm-apply-template"
      >
        <FormError error={apply.error} />
      </ConfirmDialog>
    </Card>
  );
}
