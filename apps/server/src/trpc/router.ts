import { authRouter } from './auth.router';
import { cardRouter } from './card.router';
import { passwordRouter } from './credential.router';
import { customerRouter } from './customer.router';
import { dispenserRouter } from './dispenser.router';
import { faceRouter } from './face.router';
import { router } from './init';
import { lockRouter } from './lock.router';
import { priceRouter } from './price.router';
import { readerRouter } from './reader.router';
import { roomGroupRouter, roomRouter } from './room.router';
import { stayRouter } from './stay.router';

export const appRouter = router({
  auth: authRouter,
  customer: customerRouter,
  room: roomRouter,
  roomGroup: roomGroupRouter,
  price: priceRouter,
  stay: stayRouter,
  password: passwordRouter,
  face: faceRouter,
  reader: readerRouter,
  dispenser: dispenserRouter,
  lock: lockRouter,
  card: cardRouter,
});

export type AppRouter = typeof appRouter;
