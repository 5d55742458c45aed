import { createHash } from 'node:crypto';
import { TT, ttError } from '../errors';
import { FACE_PHOTO_MAX_BYTES, isSimFeatureDataFor, photoType, simFaceFeatureData, type SimUpload } from '../faces';
import type { SimLock } from '../state';
import { int, ordered, page, type Params, required } from './core';
import { RoomCardCloud } from './room-card';

/** Faces (a layer of LockCloud: see core.ts). */
export class FaceCloud extends RoomCardCloud {
  /** Face calls need a face module; a lock without one answers -4043, as TTLock does. */
  private requireFaceModule(lock: SimLock): void {
    if (lock.faceModule === false) throw ttError(TT.NOT_SUPPORTED);
  }

  /**
   * face/getFeatureDataByPhoto: the photo (multipart field `image`) becomes this lock's feature
   * data (`simFaceFeatureData`). Checked: a face module, a photo that is a jpg, png or bmp of at
   * most 2 MB. Not checked: the 300 KB minimum, colour, that there is one clear face. No gateway:
   * the cloud does it.
   */
  faceFeatureData(lock: SimLock, files: Record<string, SimUpload>) {
    this.requireFaceModule(lock);
    const image = files.image;
    if (!image || image.bytes.length === 0) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: image is required (multipart/form-data)');
    if (image.bytes.length > FACE_PHOTO_MAX_BYTES) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: image must be at most 2 MB');
    if (!photoType(image.bytes)) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: image must be a jpg, png or bmp photo');
    return { featureData: simFaceFeatureData(lock.lockId, image.bytes) };
  }

  async addFace(lock: SimLock, params: Params) {
    this.requireFaceModule(lock);
    const featureData = required(params, 'featureData');
    // Only what face/getFeatureDataByPhoto made for this lock: TTLock refuses anything else.
    if (!isSimFeatureDataFor(lock.lockId, featureData))
      throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: featureData was not made by face/getFeatureDataByPhoto for this lock');
    const startDate = int(params.startDate) ?? 0;
    const endDate = int(params.endDate) ?? 0;
    if (endDate !== 0 && endDate <= startDate) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: endDate must be after startDate');
    const addType = int(params.addType) ?? 1;
    if (addType !== 1 && addType !== 2) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: addType is 1 (Bluetooth) or 2 (gateway)');
    if (lock.frozen) throw ttError(TT.LOCK_FROZEN);
    const checkRoom = () => {
      if (addType === 2 && lock.faces.filter((f) => f.onLock).length >= lock.capacity.faces) throw ttError(TT.STORAGE_FULL);
    };
    checkRoom();
    const create = (): { faceId: number; faceNumber: string } => {
      checkRoom();
      const faceId = ++this.state.counters.faceId;
      const faceNumber = String(
        BigInt(`0x${createHash('sha256').update(`${lock.lockId}:${faceId}:${featureData}`).digest('hex').slice(0, 12)}`) % 100_000_000_000_000n,
      ).padStart(14, '0');
      lock.faces.push({
        faceId,
        faceNumber,
        name: params.name ?? '',
        featureData,
        startDate,
        endDate,
        createdAt: this.now(),
        senderUsername: this.ownerOf(lock),
        inCloud: true,
        onLock: addType === 2,
      });
      this.changed();
      return { faceId, faceNumber };
    };
    return addType === 2 ? this.throughGateway(lock, create) : create();
  }

  async deleteFace(lock: SimLock, params: Params) {
    this.requireFaceModule(lock);
    const id = int(required(params, 'faceId'))!;
    // face/delete names its Bluetooth-or-gateway choice `type`, not `deleteType`.
    const type = int(params.type) ?? 1;
    if (type !== 1 && type !== 2) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: type is 1 (Bluetooth) or 2 (gateway)');
    const find = () => {
      const entry = lock.faces.find((f) => f.faceId === id && f.inCloud);
      // TTLock's table has no "face does not exist" code; the simulator answers -3 with a message.
      if (!entry) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: face does not exist');
      return entry;
    };
    find();
    if (type === 1) {
      if (lock.frozen) throw ttError(TT.LOCK_FROZEN);
      find().inCloud = false;
      this.prune(lock);
      this.changed();
      return;
    }
    await this.throughGateway(lock, () => {
      const entry = find();
      lock.faces = lock.faces.filter((f) => f !== entry);
    });
  }

  listFaces(lock: SimLock, params: Params) {
    this.requireFaceModule(lock);
    const items = ordered(
      lock.faces.filter((f) => f.inCloud),
      (f) => f.name,
      (f) => f.faceId,
      int(params.orderBy),
    );
    const result = page(items, params, 200);
    const now = this.lockNow(lock);
    return {
      ...result,
      list: result.list.map((f) => ({
        faceId: f.faceId,
        lockId: lock.lockId,
        name: f.name,
        faceNumber: f.faceNumber,
        type: 1,
        status: f.endDate !== 0 && now >= f.endDate ? 2 : now < f.startDate ? 3 : 1,
        startDate: f.startDate,
        endDate: f.endDate,
        createDate: f.createdAt,
        nickname: f.senderUsername,
      })),
    };
  }
}
