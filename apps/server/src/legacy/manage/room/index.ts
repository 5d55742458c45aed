import { roomBreakfastActions } from './breakfast';
import { roomCardActions } from './cards';
import { roomCategoryActions } from './category';
import { roomCustomerActions } from './customers';
import { roomHotelActions } from './hotel';
import { roomPasswordActions } from './password';
import { roomPriceActions } from './prices';
import { roomRecordActions } from './records';
import { roomReservationActions } from './reservation';
import { roomBoardActions } from './rooms';
import { roomStaffActions } from './staff';
import { roomTenantActions } from './tenant';

/** Every `/manage/room/*` action (the legacy protocol's largest folder, one file per topic). */
export const roomActions = [
  ...roomCustomerActions,
  ...roomBoardActions,
  ...roomCategoryActions,
  ...roomPriceActions,
  ...roomTenantActions,
  ...roomReservationActions,
  ...roomPasswordActions,
  ...roomCardActions,
  ...roomRecordActions,
  ...roomBreakfastActions,
  ...roomStaffActions,
  ...roomHotelActions,
];
