// Route params that name a collection: a name that could never be valid names nothing, so it is a 404.
import { NAME_PATTERN } from '@lumibase/shared';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { collectionNotFound } from '../services/collections.service.js';

export function requireCollectionName(param: string): RequestHandler {
  return (request: Request, _response: Response, next: NextFunction) => {
    const name = request.params[param];
    if (typeof name !== 'string' || !NAME_PATTERN.test(name)) throw collectionNotFound(String(name));
    next();
  };
}
