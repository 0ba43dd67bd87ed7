// A secret every server of one deployment shares, generated once and kept in MongoDB (`deployment_keys`): used where
// a configured secret may be absent (the Idempotency-Key fingerprints' HMAC key when IDEMPOTENCY_KEY is unset).
import { randomBytes } from 'node:crypto';
import type { Connection } from 'mongoose';
import { isDuplicateKeyError } from './duplicate-key.js';

interface DeploymentKeyDocument {
  _id: string;
  key: string;
}

/** The deployment's key named `name`: the first server to ask creates it, every later one (and restart) reads it. */
export async function deploymentKey(connection: Connection, name: string): Promise<Buffer> {
  const keys = connection.db!.collection<DeploymentKeyDocument>('deployment_keys');
  const found = await keys.findOne({ _id: name });
  if (found) return Buffer.from(found.key, 'base64');
  const key = randomBytes(32).toString('base64');
  try {
    await keys.insertOne({ _id: name, key });
    return Buffer.from(key, 'base64');
  } catch (error) {
    // Another server created it first: theirs is the deployment's.
    if (!isDuplicateKeyError(error)) throw error;
    const theirs = await keys.findOne({ _id: name });
    if (!theirs) throw error;
    return Buffer.from(theirs.key, 'base64');
  }
}
