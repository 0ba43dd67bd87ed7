// An AbortSignal that fires when the client goes away before its answer was sent (the connection
// closed): long work on its behalf, such as a Copilot turn's model calls, stops instead of running on.
import type { Response } from 'express';

export function closedSignal(response: Response): AbortSignal {
  const controller = new AbortController();
  response.once('close', () => {
    if (!response.writableFinished) controller.abort(new Error('the client closed the request'));
  });
  return controller.signal;
}
