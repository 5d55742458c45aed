import { LockProviderError, type FaceOnLock, type FacePhoto, type Validity } from '../provider';
import { PAGE, required, str, validityOf, type Answer } from './http';
import type { TtlockSession } from './oauth';

/** Faces: feature data made from a photo by the cloud, put on the lock through its gateway. */

/**
 * Errcodes that are not about a face photo (the date window, bad JSON, the cloud itself, the
 * region, the lock's admin): a refusal of face/getFeatureDataByPhoto with any other code the
 * catalogue does not place is the photo's.
 */
const NOT_ABOUT_THE_PHOTO = new Set([80000, 80002, 90000, 30008, 20002, -2018]);
/** TTLock's "Invalid Parameter", which face/delete answers for a face id it does not know. */
const INVALID_PARAMETER = -3;

/**
 * face/getFeatureDataByPhoto: the photo as multipart field `image`, clientId, accessToken, lockId
 * and date in the query; the answer is `{ featureData }`, a hexadecimal string. TTLock publishes
 * no errcode for a photo it cannot use: a refusal that is not about the lock, its face module, the
 * account, the call rate or the cloud itself (-3, 1, codes the catalogue does not place, and not
 * in NOT_ABOUT_THE_PHOTO), and an answer without hexadecimal feature
 * data, are `photo_rejected`.
 */
export async function faceFeatureData(s: TtlockSession, lockId: string, photo: FacePhoto): Promise<string> {
  let answer: Answer;
  try {
    answer = await s.call('face/getFeatureDataByPhoto', { lockId }, 'POST', { field: 'image', ...photo });
  } catch (error) {
    const unplaced =
      error instanceof LockProviderError && (error.code === 'invalid_parameter' || error.code === 'provider_error' || error.code === 'cloud_error');
    if (unplaced && typeof error.vendorCode === 'number' && !NOT_ABOUT_THE_PHOTO.has(error.vendorCode))
      throw new LockProviderError('photo_rejected', error.vendorCode, error.vendorMessage);
    throw error;
  }
  const featureData = str(answer.featureData);
  if (!/^[0-9A-Fa-f]+$/.test(featureData))
    throw new LockProviderError('photo_rejected', undefined, 'face/getFeatureDataByPhoto answered without hexadecimal featureData');
  return featureData;
}

export async function addFace(s: TtlockSession, lockId: string, input: { featureData: string; name: string } & Validity): Promise<{ ref: string }> {
  const answer = await s.call(
    'face/add',
    {
      lockId,
      name: input.name,
      featureData: input.featureData,
      type: 1,
      startDate: input.startAt.getTime(),
      endDate: input.endAt ? input.endAt.getTime() : 0,
      addType: 2,
    },
    'POST',
  );
  return { ref: required(answer, 'faceId', 'face/add') };
}

/** face/delete through the gateway (its parameter is `type`, not `deleteType`). */
export async function deleteFace(s: TtlockSession, lockId: string, ref: string): Promise<void> {
  try {
    await s.call('face/delete', { lockId, faceId: ref, type: 2 }, 'POST');
  } catch (error) {
    // TTLock publishes no "face does not exist" code; an unknown face id is an invalid parameter.
    if (error instanceof LockProviderError && error.vendorCode === INVALID_PARAMETER)
      throw new LockProviderError('credential_not_found', error.vendorCode, error.vendorMessage);
    throw error;
  }
}

export async function listFaces(s: TtlockSession, lockId: string): Promise<FaceOnLock[]> {
  const items = await s.all('face/list', { lockId }, PAGE.faces, (i) => i.faceId);
  return items.map((i) => ({ ref: str(i.faceId), name: str(i.name) || str(i.faceName), ...validityOf(i) }));
}
