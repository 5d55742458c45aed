import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { faceQueries } from '@/features/faces/api';
import { FacesPage } from '@/features/faces/faces-page';
import { facesSearchDefaults, facesSearchSchema } from '@/features/faces/faces-search';

/** The hotel's face database (issue 7 §6): faces that can be authorised on rooms' locks. */
export const Route = createFileRoute('/_auth/faces')({
  validateSearch: facesSearchSchema,
  search: { middlewares: [stripSearchParams(facesSearchDefaults)] },
  staticData: { titleKey: 'route.faces', sectionKey: 'menu.frontDesk' },
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => void context.queryClient.ensureQueryData(faceQueries.page(deps)).catch(() => undefined),
  component: FacesPage,
});
