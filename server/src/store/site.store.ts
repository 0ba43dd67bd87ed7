// Sites: global records (a site is the tenant itself, so this store is not site-scoped).
import type { SiteView } from '@lumibase/shared';
import type { Types } from 'mongoose';
import type { SiteModel } from './models/site.model.js';
import { type Page, type PageOf, parseObjectId, toId } from './object-id.js';

interface StoredSite {
  _id: Types.ObjectId;
  name: string;
}

function toSite(document: StoredSite): SiteView {
  return { id: toId(document._id), name: document.name };
}

export class SiteStore {
  constructor(
    private readonly sites: SiteModel,
    /** Moves the access epoch (AccessEpochStore): a site renamed or gone changes what its requests resolve to. */
    private readonly accessChanged: () => Promise<void>,
  ) {}

  async create(name: string): Promise<SiteView> {
    const [created] = await this.sites.create([{ name }]);
    return toSite(created!);
  }

  /** The site an id names, or null when it is malformed or unknown. */
  async findById(id: string): Promise<SiteView | null> {
    const objectId = parseObjectId(id);
    if (!objectId) return null;
    const document = await this.sites.findById(objectId).lean<StoredSite>();
    return document ? toSite(document) : null;
  }

  /** The renamed site, or null when there is no such site. */
  async rename(id: string, name: string): Promise<SiteView | null> {
    const objectId = parseObjectId(id);
    if (!objectId) return null;
    const document = await this.sites.findOneAndUpdate({ _id: objectId }, { $set: { name } }, { new: true }).lean<StoredSite>();
    if (!document) return null;
    await this.accessChanged();
    return toSite(document);
  }

  /**
   * Deletes the site and every document that carries its id, in each model registered on the
   * connection with a `siteId` path (CMS, members, events, the Copilot's): a new site-scoped model
   * is covered without being listed here. The site record goes last, so a failure part-way can be retried.
   */
  async deleteWithContents(id: string): Promise<boolean> {
    const objectId = parseObjectId(id);
    if (!objectId) return false;
    for (const model of Object.values(this.sites.db.models)) {
      if (model.schema.path('siteId') === undefined) continue;
      await model.deleteMany({ siteId: { $in: [objectId, objectId.toString()] } });
    }
    const result = await this.sites.deleteOne({ _id: objectId });
    // Its memberships went above even when the site record was gone already (a retry): move the epoch either way.
    await this.accessChanged();
    return result.deletedCount > 0;
  }

  async list(page: Page): Promise<PageOf<SiteView>> {
    const [documents, total] = await Promise.all([
      this.sites.find().sort({ createdAt: 1, _id: 1 }).skip(page.offset).limit(page.limit).lean<StoredSite[]>(),
      this.sites.countDocuments(),
    ]);
    return { records: documents.map(toSite), total };
  }

  /** Every site, for a superadmin's /auth/me. */
  async listAll(): Promise<SiteView[]> {
    const documents = await this.sites.find().sort({ createdAt: 1, _id: 1 }).lean<StoredSite[]>();
    return documents.map(toSite);
  }

  async findByIds(ids: readonly string[]): Promise<SiteView[]> {
    const objectIds = ids.map(parseObjectId).filter((id) => id !== null);
    if (objectIds.length === 0) return [];
    const documents = await this.sites
      .find({ _id: { $in: objectIds } })
      .sort({ createdAt: 1, _id: 1 })
      .lean<StoredSite[]>();
    return documents.map(toSite);
  }

  async count(): Promise<number> {
    return this.sites.countDocuments();
  }
}
