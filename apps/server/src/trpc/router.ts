import { authRouter } from './auth.router';
import { customerRouter } from './customer.router';
import { router } from './init';

export const appRouter = router({
  auth: authRouter,
  customer: customerRouter,
});

export type AppRouter = typeof appRouter;
