// `ai_embedding_backlog`: embeddings jobs that could not be queued (Redis down) wait here, in MongoDB, until the
// workers' drain queues them. A content write never fails, nor loses its embedding, because Redis is away.
import { randomUUID } from 'node:crypto';
import { EmbeddingJob, embeddingJobKey } from '@lumibase/shared';
import { type Connection, type Model, Schema, type Types } from 'mongoose';

interface BacklogDocument {
  _id: Types.ObjectId;
  key: string;
  job: string;
  /** Changed by every record: a drain removes an entry only if nobody recorded it again meanwhile. */
  token: string;
  createdAt: Date;
}

const backlogSchema = new Schema(
  {
    key: { type: String, required: true },
    job: { type: String, required: true },
    token: { type: String, required: true },
    createdAt: { type: Date, required: true },
  },
  { collection: 'ai_embedding_backlog', autoIndex: false, versionKey: false },
);
backlogSchema.index({ key: 1 }, { unique: true });

/** Across sites on purpose, like the outbox relay: each entry names its site in its job. */
export class EmbeddingBacklog {
  private constructor(private readonly model: Model<BacklogDocument>) {}

  static async open(connection: Connection): Promise<EmbeddingBacklog> {
    const model = (connection.models['AiEmbeddingBacklog'] ??
      connection.model('AiEmbeddingBacklog', backlogSchema)) as unknown as Model<BacklogDocument>;
    await model.createIndexes();
    return new EmbeddingBacklog(model);
  }

  /** One entry per target: recording it again only refreshes it. */
  async record(job: EmbeddingJob): Promise<void> {
    await this.model.updateOne(
      { key: embeddingJobKey(job) },
      { $set: { job: JSON.stringify(job), token: randomUUID() }, $setOnInsert: { createdAt: new Date() } },
      { upsert: true },
    );
  }

  /** Queues the oldest entries with `add`, removing each once queued; stops at the first failure. Returns how many. */
  async drain(add: (job: EmbeddingJob) => Promise<void>, limit = 500): Promise<number> {
    const entries = await this.model.find({}).sort({ createdAt: 1 }).limit(limit).lean<BacklogDocument[]>();
    let drained = 0;
    for (const entry of entries) {
      const parsed = EmbeddingJob.safeParse(JSON.parse(entry.job));
      if (parsed.success) await add(parsed.data);
      await this.model.deleteOne({ _id: entry._id, token: entry.token });
      drained++;
    }
    return drained;
  }

  count(): Promise<number> {
    return this.model.countDocuments({});
  }
}
