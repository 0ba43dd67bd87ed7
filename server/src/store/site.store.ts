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
  constructor(private readonly sites: SiteModel) {}

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
