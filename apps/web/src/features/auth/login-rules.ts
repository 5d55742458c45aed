// The sign-in form's rules, a chunk of their own (with zod): see `useAppFormLoadingSchema`.
export { ZLoginInput } from '@console/shared';
