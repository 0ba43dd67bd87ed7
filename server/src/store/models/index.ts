// All models of the accounts and CMS stores on one connection, with their indexes built.
import type { Connection } from 'mongoose';
import { type AccessEpochModel, createAccessEpochModel } from './access-epoch.model.js';
import { type CmsCollectionModel, createCmsCollectionModel } from './cms-collection.model.js';
import { type CmsItemModel, createCmsItemModel } from './cms-item.model.js';
import { createIdempotencyRecordModel, type IdempotencyRecordModel } from './idempotency-record.model.js';
import { createItemRevisionModel, type ItemRevisionModel } from './item-revision.model.js';
import { createMembershipModel, type MembershipModel } from './membership.model.js';
import { createSessionModel, type SessionModel } from './session.model.js';
import { createSiteModel, type SiteModel } from './site.model.js';
import { createTrashEntryModel, type TrashEntryModel } from './trash-entry.model.js';
import { createUserModel, type UserModel } from './user.model.js';

export interface Models {
  sites: SiteModel;
  users: UserModel;
  memberships: MembershipModel;
  sessions: SessionModel;
  collections: CmsCollectionModel;
  items: CmsItemModel;
  idempotency: IdempotencyRecordModel;
  itemRevisions: ItemRevisionModel;
  trash: TrashEntryModel;
  accessEpochs: AccessEpochModel;
}

/**
 * Builds the models and waits for their indexes: uniqueness (emails, collection names, one
 * membership per user and site) is enforced by the indexes, so nothing may write before they exist.
 */
export async function createModels(connection: Connection): Promise<Models> {
  const models: Models = {
    sites: createSiteModel(connection),
    users: createUserModel(connection),
    memberships: createMembershipModel(connection),
    sessions: createSessionModel(connection),
    collections: createCmsCollectionModel(connection),
    items: createCmsItemModel(connection),
    idempotency: createIdempotencyRecordModel(connection),
    itemRevisions: createItemRevisionModel(connection),
    trash: createTrashEntryModel(connection),
    accessEpochs: createAccessEpochModel(connection),
  };
  for (const model of Object.values(models)) await model.createIndexes();
  return models;
}
