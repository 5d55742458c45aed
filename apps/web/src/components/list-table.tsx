import type { ComponentProps, ReactNode } from 'react';
import { Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { IconAction } from '@/components/icon-action';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';

/** The table of a list: one row of column heads (`head`, its `TableHead`s), then the rows; on a phone, a card per row. */
export function ListTable({
  head,
  children,
  phoneCards = true,
  ...props
}: Omit<ComponentProps<typeof Table>, 'children'> & { head: ReactNode; children: ReactNode }) {
  return (
    <Table phoneCards={phoneCards} {...props}>
      <TableHeader>
        <TableRow>{head}</TableRow>
      </TableHeader>
      <TableBody>{children}</TableBody>
    </Table>
  );
}

/** The head of a table's last column, the rows' actions. */
export function ActionsHead() {
  const { t } = useTranslation();
  return <TableHead className="text-end">{t('common.actions')}</TableHead>;
}

/** The last cell of a table row: its icon buttons side by side (none when `children` is empty). */
export function RowActions({ children }: { children: ReactNode }) {
  return <TableCell className="text-end whitespace-nowrap">{children ? <div className="inline-flex gap-1">{children}</div> : null}</TableCell>;
}

/** A row's red "Delete" icon button (the deletion is asked first by the caller). */
export function DeleteAction({ onClick, testId }: { onClick(): void; testId: string }) {
  const { t } = useTranslation();
  return (
    <IconAction label={t('common.delete')} onClick={onClick} testId={testId} destructive>
      <Trash2 aria-hidden />
    </IconAction>
  );
}
