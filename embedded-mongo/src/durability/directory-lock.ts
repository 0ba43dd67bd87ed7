// One server per data directory: a LOCK file holding the owner's pid, taken over if that pid is dead.
import { readFileSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const heldInThisProcess = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A SIGKILLed owner can linger as a zombie until it is reaped; it holds nothing any more.
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

export async function acquireDirectoryLock(directory: string): Promise<() => Promise<void>> {
  const path = join(directory, 'LOCK');
  if (heldInThisProcess.has(path)) throw new Error(`data directory ${directory} is already open in this process`);
  const owner = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10);
  if (Number.isInteger(owner) && owner !== process.pid && isAlive(owner)) {
    throw new Error(`data directory ${directory} is in use by process ${owner}`);
  }
  await writeFile(path, String(process.pid));
  heldInThisProcess.add(path);
  return async () => {
    heldInThisProcess.delete(path);
    await rm(path, { force: true });
  };
}
