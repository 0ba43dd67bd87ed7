// Safe retries (docs/API.md "Conventions"): a state-changing request with an Idempotency-Key runs once per
// user, site and key; a repeat gets the first response again, the same key with another request a 409.
import { createHmac, randomUUID } from 'node:crypto';
import { ConflictError, ValidationError } from '@lumibase/shared';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { IdempotencyScope, IdempotencyStore, StoredResponse } from '../store/idempotency.store.js';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const MAX_IDEMPOTENCY_KEY_LENGTH = 200;
/** How long a duplicate waits for the first request of its key, in this process, before a 409. */
const WAIT_FOR_FIRST_MS = 15_000;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** This process: a claim it owns that is not in flight here was left behind by a failed run. */
const PROCESS_ID = randomUUID();

export interface IdempotencyState {
  key: string;
  /** The key's record's: the writes that carry it (creates) find their first effect on a take-over. */
  operationId: string;
  /** True when an earlier run of this key never recorded its response and this one takes over. */
  resumed: boolean;
}

declare global {
  namespace Express {
    interface Request {
      idempotency?: IdempotencyState;
    }
  }
}

export interface IdempotencyOptions {
  store: IdempotencyStore;
  /**
   * Requests whose write carries the operation id in the same document (creates): when a first run
   * left its claim without a response (a crash, an outage between the write and the record), a
   * retry runs them again and finds what the first run stored. Anything else then answers 409.
   */
  resumable: (request: Request) => boolean;
  /** A claim another process holds this long without recording a response is taken as crashed. */
  leaseMs: number;
  /** The server key of the stored fingerprints (HMAC-SHA-256): a body carrying a password is not crackable from them. */
  fingerprintKey: string | Buffer;
}

/**
 * What a create carries into its one-document write: the operation id of the request's key, if any, and `firstRun`
 * when the key was claimed just now: its operation id was made for this request, so nothing can carry it yet.
 */
export function writeContextOf(request: Request): { operationId?: string; firstRun?: boolean } {
  const state = request.idempotency;
  return state ? { operationId: state.operationId, ...(state.resumed ? {} : { firstRun: true }) } : {};
}

/** Only a take-over passes the operation id to writes where it also forgives "already there" (fields). */
export function resumedContextOf(request: Request): { operationId?: string } {
  return request.idempotency?.resumed ? writeContextOf(request) : {};
}

function fingerprintOf(request: Request, key: string | Buffer): string {
  return createHmac('sha256', key)
    .update(`${request.method} ${request.originalUrl}\n${JSON.stringify(request.body ?? null)}`)
    .digest('hex');
}

const OBJECT_ID = /^[0-9a-f]{24}$/i;

/**
 * The site a key is scoped to: the one tenancy resolved, else the X-Site-Id as the resolver reads it (trimmed, an id
 * in any case spelling as the same id), '' outside a site. Two spellings of one site are one scope.
 */
function siteScopeOf(request: Request): string {
  if (request.context.site) return request.context.site.id;
  const named = request.get('x-site-id')?.trim() ?? '';
  return OBJECT_ID.test(named) ? named.toLowerCase() : named;
}

function keyReusedConflict(): ConflictError {
  return new ConflictError({ message: 'This Idempotency-Key was already used with a different request' });
}

function replay(response: Response, stored: StoredResponse): void {
  response.setHeader('Idempotent-Replayed', 'true');
  response.status(stored.status);
  if (stored.body === undefined) {
    response.end();
    return;
  }
  response.type('application/json').send(stored.body);
}

/**
 * `response.locals` key: a route sets it to the JSON a replay should answer when the real answer
 * holds something never to be stored (POST /members' one-time password).
 */
export const IDEMPOTENT_REPLAY_BODY = 'idempotentReplayBody';

/**
 * Mounted after authentication, body parsing and (for site-scoped paths) tenancy: a replay is only ever sent to a
 * signed-in member of the site. Keys are scoped to the user and the resolved site.
 */
export function idempotency({ store, resumable, leaseMs, fingerprintKey }: IdempotencyOptions): RequestHandler {
  /** The runs of this process, by record: a duplicate waits for them. */
  const inFlight = new Map<string, Promise<void>>();

  return async (request: Request, response: Response, next: NextFunction) => {
    const key = request.get(IDEMPOTENCY_HEADER);
    const user = request.context.user;
    if (SAFE_METHODS.has(request.method) || key === undefined || !user) return next();
    if (key.length < 1 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
      throw new ValidationError({
        message: `${IDEMPOTENCY_HEADER} must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`,
        details: [{ path: `headers.${IDEMPOTENCY_HEADER}`, message: 'must be 1 to 200 characters' }],
      });
    }
    const id: IdempotencyScope = { userId: user.id, scope: siteScopeOf(request), key };
    const recordKey = JSON.stringify(id);
    const fingerprint = fingerprintOf(request, fingerprintKey);
    // Decided here, where the path is the one the patterns name: by the time a failure is answered (the app's error
    // middleware) Express has put the mount path back, and a create taken for non-resumable would lose its claim and
    // with it the operation id its stored document carries — the retry would then store it a second time.
    const canResume = resumable(request);
    const deadline = Date.now() + WAIT_FOR_FIRST_MS;

    for (;;) {
      const claim = await store.claim(id, { fingerprint, owner: PROCESS_ID });
      if (claim.state === 'new') return run(claim.operationId, false);
      if (claim.fingerprint !== fingerprint) throw keyReusedConflict();
      if (claim.state === 'completed') return replay(response, claim.response);

      const running = inFlight.get(recordKey);
      if (running && Date.now() < deadline) {
        // A concurrent duplicate: wait for the first, then replay what it answered.
        await Promise.race([running, new Promise((resolve) => setTimeout(resolve, deadline - Date.now()))]);
        continue;
      }
      const orphaned = !running && (claim.owner === PROCESS_ID || Date.now() - claim.startedAt.getTime() > leaseMs);
      if (!orphaned) throw new ConflictError({ message: 'A request with this Idempotency-Key is still in progress; retry shortly' });
      if (!canResume) {
        throw new ConflictError({
          message: 'An earlier request with this Idempotency-Key did not finish and its effect is unknown; check, then use a new key',
        });
      }
      if (await store.takeOver(id, { attempt: claim.attempt, owner: PROCESS_ID })) return run(claim.operationId, true);
    }

    function run(operationId: string, resumed: boolean): void {
      let finished: () => void = () => {};
      inFlight.set(
        recordKey,
        new Promise<void>((resolve) => {
          finished = resolve;
        }),
      );
      const done = () => {
        inFlight.delete(recordKey);
        finished();
      };
      request.idempotency = { key: key!, operationId, resumed };
      // The response is recorded before it is sent: a client that loses it finds it on the retry.
      const end = response.end.bind(response) as (...args: unknown[]) => Response;
      response.end = ((...args: unknown[]) => {
        const [chunk] = args;
        const sent = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : undefined;
        // A route whose answer holds a secret (a generated password) names what may be kept instead.
        const redacted: unknown = response.locals[IDEMPOTENT_REPLAY_BODY];
        const body = typeof redacted === 'string' ? redacted : sent;
        const status = response.statusCode;
        // A failure (5xx) is not kept as the answer: the retry runs again — resumable creates under the
        // same operation id, finding what this run may have stored; anything else afresh.
        const recorded =
          status < 500
            ? store.complete(id, { status, body: body === undefined || body === '' ? undefined : body })
            : canResume
              ? store.abandon(id, PROCESS_ID)
              : store.release(id, PROCESS_ID);
        // A record that cannot be written (the database just went away) leaves the claim to a retry;
        // the response itself still tells the truth about this run.
        recorded
          .catch((error: unknown) => request.context.log.warn({ err: error }, 'could not record the idempotent response'))
          .finally(() => {
            end(...args);
            done();
          });
        return response;
      }) as Response['end'];
      next();
    }
  };
}
