// The logical changes the engine makes; the journal stores them and recovery replays them.
import type { Document, UUID } from 'bson';
import type { IndexSpec } from './index-spec.js';

export type ChangeOp =
  | { op: 'put'; db: string; coll: string; doc: Document }
  | { op: 'delete'; db: string; coll: string; id: unknown }
  | { op: 'createCollection'; db: string; coll: string; options: Document; uuid?: UUID }
  | { op: 'dropCollection'; db: string; coll: string }
  | { op: 'dropDatabase'; db: string }
  | { op: 'createIndex'; db: string; coll: string; spec: IndexSpec }
  | { op: 'dropIndex'; db: string; coll: string; name: string };

export type ChangeSink = (change: ChangeOp) => void;
