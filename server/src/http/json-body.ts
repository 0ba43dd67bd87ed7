// The JSON body parser of /api/v1, run after authentication so that a request without credentials gets its 401 first.
import express, { type RequestHandler } from 'express';
import { JSON_BODY_LIMIT } from './app.js';

export function jsonBody(): RequestHandler {
  return express.json({ limit: JSON_BODY_LIMIT });
}
