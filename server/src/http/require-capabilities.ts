// Route guards on what the caller holds in the current site (`*` counts only for a superadmin).
import { type Capability, ForbiddenError, hasCapabilities, missingCapabilities } from '@lumibase/shared';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

export function requireCapabilities(...required: Capability[]): RequestHandler {
  return (request: Request, _response: Response, next: NextFunction) => {
    const { user, capabilities = [] } = request.context;
    const holder = { capabilities, isSuperadmin: user?.isSuperadmin === true };
    if (!user || !hasCapabilities(holder, required)) {
      throw new ForbiddenError({
        message: `Missing capability: ${missingCapabilities(holder, required).join(', ')}`,
        reason: 'missing-capability',
      });
    }
    next();
  };
}

export function requireSuperadmin(): RequestHandler {
  return (request: Request, _response: Response, next: NextFunction) => {
    if (request.context.user?.isSuperadmin !== true)
      throw new ForbiddenError({ message: 'Only a superadmin may do this', reason: 'not-superadmin' });
    next();
  };
}

/** The site a site-scoped handler acts in; tenancy has run before it. */
export function currentSiteId(request: Request): string {
  const site = request.context.site;
  if (!site) throw new TypeError('a site-scoped route ran without tenancy');
  return site.id;
}

/** The signed-in user; authenticate has run before it. */
export function currentUser(request: Request) {
  const user = request.context.user;
  if (!user) throw new TypeError('an authenticated route ran without authenticate');
  return user;
}
