import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';

/** A small icon button of a table row, named by its tooltip text. */
export function IconAction({
  label,
  onClick,
  children,
  testId,
  destructive,
}: {
  label: string;
  onClick(): void;
  children: ReactNode;
  testId: string;
  destructive?: boolean;
}) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className={destructive ? 'text-destructive hover:text-destructive size-8' : 'size-8'}
          aria-label={label}
          onClick={onClick}
          data-testid={testId}
        >
          {children}
        </Button>
      </TooltipTrigger>
      <TooltipContent>{label}</TooltipContent>
    </Tooltip>
  );
}
