import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from '@/lib/toast';
import { z } from 'zod';
import { ZApplyPriceTemplateInput, ZId } from '@console/shared';
import { FormDialog } from '@/components/form-dialog';
import { RoomPicker, type PickedRoom } from '@/components/room-picker';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { fieldMessage } from '@/lib/field-message';
import { formatNumber } from '@/lib/format';
import { sharedQueries } from '@/lib/queries';
import { trpc } from '@/lib/trpc';
import { useAppForm } from '@/lib/use-app-form';
import type { PriceTemplate } from './price-template-form';

type Target = 'group' | 'rooms';

/**
 * The dialog's values: the tab chosen, and the group and rooms picked on each. What is sent is the
 * chosen tab's target, checked by the shared rule (rooms or a group must be chosen).
 */
const schema = z
  .object({ target: z.enum(['group', 'rooms']), templateId: ZId, groupId: ZId.optional(), roomIds: z.array(ZId) })
  .transform(({ target, templateId, groupId, roomIds }): z.input<typeof ZApplyPriceTemplateInput> =>
    target === 'group' ? { templateId, groupId } : { templateId, roomIds },
  )
  .pipe(ZApplyPriceTemplateInput);

/**
 * Gives the template's prices to every room of a group, or to rooms chosen in a searchable, paged
 * picker (a hotel of any size: room 101 and room 10,001 alike).
 */
export function ApplyTemplateDialog({ template, onClose, onApplied }: { template: PriceTemplate; onClose(): void; onApplied(): void }) {
  const { t } = useTranslation();
  const form = useAppForm(schema, { target: 'group' as Target, templateId: template.id, groupId: undefined, roomIds: [] });
  // The picked rooms with their names, for the picker; the form holds their ids.
  const [rooms, setRooms] = useState<PickedRoom[]>([]);
  const target = form.watch('target');
  const groupId = form.watch('groupId');
  const error = fieldMessage(t, form.formState.errors.roomIds?.message);

  const groups = useQuery(sharedQueries.roomGroups());

  const apply = useMutation(
    trpc.price.applyTemplate.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (result) => {
        toast.success(t('roomSetup.templateApplied', { name: template.name, number: formatNumber(result.rooms) }));
        onApplied();
        onClose();
      },
    }),
  );

  const submit = form.handleSubmit((input) => apply.mutate(input));

  const selectedGroup = groups.data?.find((g) => g.id === groupId);
  const errorId = 'apply-error';

  return (
    <FormDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('roomSetup.applyTitle', { name: template.name })}
      description={t('roomSetup.applyText')}
      isDirty={groupId !== undefined || rooms.length > 0}
      isSaving={apply.isPending}
      error={apply.error}
      onSubmit={(event) => void submit(event)}
      submitLabel={t('roomSetup.apply')}
      submitTestId="apply-submit"
      data-testid="apply-dialog"
    >
      <Tabs
        value={target}
        onValueChange={(value) => {
          form.setValue('target', value as Target);
          form.clearErrors();
        }}
      >
        <TabsList>
          <TabsTrigger value="group" data-testid="apply-to-group">
            {t('roomSetup.applyToGroup')}
          </TabsTrigger>
          <TabsTrigger value="rooms" data-testid="apply-to-rooms">
            {t('roomSetup.applyToRooms')}
          </TabsTrigger>
        </TabsList>

        <TabsContent value="group" className="grid gap-2">
          <Label htmlFor="apply-group">{t('roomSetup.group')}</Label>
          <Select
            value={groupId === undefined ? '' : String(groupId)}
            onValueChange={(value) => {
              form.setValue('groupId', Number(value));
              form.clearErrors();
            }}
          >
            <SelectTrigger
              id="apply-group"
              className="w-full"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
              data-testid="apply-group"
            >
              <SelectValue placeholder={groups.isLoading ? t('common.loading') : t('roomSetup.chooseGroup')} />
            </SelectTrigger>
            <SelectContent>
              {(groups.data ?? []).map((g) => (
                <SelectItem key={g.id} value={String(g.id)}>
                  {t('roomSetup.groupWithRooms', { name: g.name, number: formatNumber(g.roomCount) })}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          {groups.isSuccess && groups.data.length === 0 && <p className="text-muted-foreground text-sm">{t('roomSetup.noGroups')}</p>}
          {selectedGroup && (
            <p className="text-muted-foreground text-sm">{t('roomSetup.applyGroupRooms', { number: formatNumber(selectedGroup.roomCount) })}</p>
          )}
        </TabsContent>

        <TabsContent value="rooms" className="grid gap-2">
          <Label htmlFor="apply-rooms">{t('roomSetup.chooseRooms')}</Label>
          <RoomPicker
            id="apply-rooms"
            multiple
            value={rooms}
            onChange={(next) => {
              setRooms(next);
              form.setValue(
                'roomIds',
                next.map((r) => r.id),
              );
              form.clearErrors();
            }}
            placeholder={t('roomSetup.chooseRooms')}
            invalid={Boolean(error)}
            describedBy={error ? errorId : undefined}
            data-testid="apply-rooms"
          />
        </TabsContent>
      </Tabs>

      {error && (
        <p id={errorId} role="alert" className="text-destructive text-sm" data-testid="apply-error">
          {error}
        </p>
      )}
    </FormDialog>
  );
}
