// Which site a request acts in: X-Site-Id, checked against the caller's memberships (a superadmin holds `*` everywhere).
import { ValidationError } from '@lumibase/shared';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { SiteAccessService } from '../services/site-access.service.js';

export const SITE_HEADER = 'x-site-id';

/**
 * Missing header → 400. A malformed id, an unknown site and a site the caller is not a member of
 * are one 403 with one body (SiteAccessService decides), so site ids cannot be probed.
 * Runs after `authenticate`.
 */
export function tenancy({ access }: { access: Pick<SiteAccessService, 'resolve'> }): RequestHandler {
  return async (request: Request, _response: Response, next: NextFunction) => {
    const siteId = request.get(SITE_HEADER);
    if (siteId === undefined || siteId.trim() === '') {
      throw new ValidationError({
        message: 'This route needs the X-Site-Id header',
        details: [{ path: 'headers.x-site-id', message: 'Required' }],
      });
    }
    const user = request.context.user;
    if (!user) throw new TypeError('tenancy runs after authenticate');
    const resolved = await access.resolve(user, siteId.trim(), request.context.accessEpoch);
    request.context.site = resolved.site;
    request.context.capabilities = resolved.capabilities;
    next();
  };
}
