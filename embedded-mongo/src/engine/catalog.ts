// Databases and their collections, and the change log every mutation appends to.
import type { Document, UUID } from 'bson';
import type { ChangeOp } from './change-op.js';
import { CollectionStore } from './collection-store.js';
import { CommandError } from './command-error.js';

export class Catalog {
  private readonly databases = new Map<string, Map<string, CollectionStore>>();
  private changes: ChangeOp[] = [];
  private recording = true;
  private readonly record = (change: ChangeOp): void => {
    if (this.recording) this.changes.push(change);
  };

  /** The changes since the last call; commands run synchronously, so these are exactly one command's. */
  drainChanges(): ChangeOp[] {
    const drained = this.changes;
    this.changes = [];
    return drained;
  }

  databaseNames(): string[] {
    return [...this.databases.keys()];
  }

  collections(dbName: string): CollectionStore[] {
    return [...(this.databases.get(dbName)?.values() ?? [])];
  }

  collection(dbName: string, name: string): CollectionStore | undefined {
    return this.databases.get(dbName)?.get(name);
  }

  /** Writes and index builds create their collection implicitly, as in MongoDB. */
  ensureCollection(dbName: string, name: string): { collection: CollectionStore; created: boolean } {
    const existing = this.collection(dbName, name);
    if (existing) return { collection: existing, created: false };
    return { collection: this.createCollection(dbName, name, {}), created: true };
  }

  createCollection(dbName: string, name: string, options: Document, uuid?: UUID): CollectionStore {
    validateNamespace(dbName, name);
    if (this.collection(dbName, name)) throw new CommandError('NamespaceExists', `Collection ${dbName}.${name} already exists.`);
    let database = this.databases.get(dbName);
    if (!database) {
      database = new Map();
      this.databases.set(dbName, database);
    }
    const collection = new CollectionStore(dbName, name, options, this.record, uuid);
    database.set(name, collection);
    this.record({ op: 'createCollection', db: dbName, coll: name, options, uuid: collection.uuid });
    return collection;
  }

  dropCollection(dbName: string, name: string): boolean {
    const database = this.databases.get(dbName);
    if (!database?.delete(name)) return false;
    if (database.size === 0) this.databases.delete(dbName);
    this.record({ op: 'dropCollection', db: dbName, coll: name });
    return true;
  }

  dropDatabase(dbName: string): void {
    if (!this.databases.delete(dbName)) return;
    this.record({ op: 'dropDatabase', db: dbName });
  }

  /** Re-applies a journaled change during recovery, without recording it again. */
  replay(change: ChangeOp): void {
    this.recording = false;
    try {
      this.applyChange(change);
    } finally {
      this.recording = true;
    }
  }

  private applyChange(change: ChangeOp): void {
    switch (change.op) {
      case 'put': {
        const { collection } = this.ensureCollection(change.db, change.coll);
        const previous = collection.findById(change.doc._id);
        if (previous) collection.replace(previous, change.doc);
        else collection.insert(change.doc);
        return;
      }
      case 'delete': {
        const collection = this.collection(change.db, change.coll);
        const document = collection?.findById(change.id);
        if (collection && document) collection.remove(document);
        return;
      }
      case 'createCollection':
        if (!this.collection(change.db, change.coll)) this.createCollection(change.db, change.coll, change.options, change.uuid);
        return;
      case 'dropCollection':
        this.dropCollection(change.db, change.coll);
        return;
      case 'dropDatabase':
        this.dropDatabase(change.db);
        return;
      case 'createIndex': {
        const { collection } = this.ensureCollection(change.db, change.coll);
        if (!collection.hasIndex(change.spec.name)) collection.createIndex(change.spec);
        return;
      }
      case 'dropIndex':
        if (this.collection(change.db, change.coll)?.hasIndex(change.name)) this.collection(change.db, change.coll)?.dropIndex(change.name);
        return;
    }
  }
}

function validateNamespace(dbName: string, name: string): void {
  if (!dbName || /[/\\. "$\0]/.test(dbName)) throw new CommandError('InvalidNamespace', `Invalid database name: '${dbName}'`);
  if (!name || name.includes('\0') || name.startsWith('.') || name.includes('$')) {
    throw new CommandError('InvalidNamespace', `Invalid collection name: '${name}'`);
  }
}
