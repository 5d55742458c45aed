import type { TExportFormat, TExportList } from '@console/shared/export';

/** What a list gives its export button (and the dialog it opens). */
export interface ExportButtonProps {
  list: TExportList;
  /** The list's filters as its list procedure takes them (page and page size aside). */
  filters: Record<string, string | number | boolean | string[] | undefined>;
  page: number;
  pageSize: number;
  /** How many rows match the filters (what "everything" would export). */
  total: number;
  /** The list counted only so far (`total` is a floor): shown as "1,000+". */
  totalCapped?: boolean;
  /** The list's name, in the dialog's title ("Export {{what}}"). */
  what: string;
  /** The files it can be written as, the first one chosen (default: .xlsx only). */
  formats?: readonly TExportFormat[];
  /** A report written whole (a trial balance, a general ledger): no page or page size to choose. */
  whole?: boolean;
  /** The button's text, when "Export" alone would not say what (a page with two exports). */
  label?: string;
  /** The button's test id (default `export-open`). */
  testId?: string;
}
