// Parses what a request carries (body, query, params) with the shared zod schemas: bad input is a 400, never a 500.
import { detailsFromZodIssues, ValidationError } from '@lumibase/shared';
import type { Request, Response } from 'express';
import type { z } from 'zod';

/**
 * `value` parsed by `schema`, or a ValidationError whose details name each offending path. `where`
 * only shapes the message (a body's details keep the body's own paths, such as `data.title`).
 */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown, where: 'body' | 'query' | 'params'): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new ValidationError({ message: `Invalid request ${where}`, details: detailsFromZodIssues(result.error.issues) });
  }
  return result.data;
}

/** The success envelope, `{ data, meta? }`. */
export function sendData(response: Response, status: number, data: unknown, meta?: Record<string, unknown>): void {
  response.status(status).json(meta ? { data, meta } : { data });
}

export function sendNoContent(response: Response): void {
  response.status(204).end();
}

/** A path parameter of the matched route (always present when the route matched). */
export function routeParam(request: Request, name: string): string {
  const value: unknown = request.params[name];
  if (typeof value !== 'string') throw new TypeError(`route has no :${name} parameter`);
  return value;
}
