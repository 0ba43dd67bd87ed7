// The worker process (scale mode): config → Mongo → Redis → composeWorkers (stores → processors).
import { exitWithStartupError } from '@lumibase/server/core';
import { runWorkerProcess } from './run-worker-process.js';

runWorkerProcess({ processName: 'npm run start:worker' }).catch((error: unknown) => exitWithStartupError(error));
