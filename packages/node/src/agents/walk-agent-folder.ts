import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import type { AgentProblem } from '@troupe/core';

/** Deepest sub-folder of an agent folder that is read. */
const MAX_DEPTH = 8;
/** Most entries looked at in one agent folder. */
const MAX_ENTRIES = 10_000;

/** What {@link walkAgentFolder} found: agent files (sorted) and what it refused to follow. */
export interface AgentFolderWalk {
  files: string[];
  problems: AgentProblem[];
}

/**
 * Lists the `*.md` and `*.json` agent files under `dir` (case-insensitive; README.md, dot files and
 * dot folders skipped), at most {@link MAX_DEPTH} folders deep and {@link MAX_ENTRIES} entries.
 * Symbolic links are followed only to files inside the folder (`real` is its real path); a link
 * out of it, or to a folder, is reported and not followed, so `x -> /` cannot walk the disk.
 */
export async function walkAgentFolder(dir: string, real: string): Promise<AgentFolderWalk> {
  const files: string[] = [];
  const problems: AgentProblem[] = [];
  let entries = 0;
  const pending: { path: string; depth: number }[] = [{ path: dir, depth: 0 }];
  while (pending.length > 0) {
    const folder = pending.pop()!;
    let listing: Dirent[];
    try {
      listing = await readdir(folder.path, { withFileTypes: true });
    } catch (error) {
      problems.push({
        message: `${folder.path}: cannot read the folder (${(error as Error).message}).`,
        file: folder.path,
      });
      continue;
    }
    for (const entry of listing) {
      if (++entries > MAX_ENTRIES) {
        problems.push({
          message: `${dir}: more than ${MAX_ENTRIES} entries; the rest was not read.`,
          file: dir,
        });
        return { files: files.sort(), problems };
      }
      if (entry.name.startsWith('.')) continue;
      const path = join(folder.path, entry.name);
      if (entry.isDirectory()) {
        if (folder.depth + 1 < MAX_DEPTH) pending.push({ path, depth: folder.depth + 1 });
        else problems.push({ message: `${path}: deeper than ${MAX_DEPTH} folders; not read.`, file: path });
      } else if (isAgentFile(entry.name)) {
        if (entry.isFile()) files.push(path);
        else if (entry.isSymbolicLink()) {
          const refusal = await linkRefusal(path, real);
          if (refusal) problems.push({ message: `${path}: ${refusal}`, file: path });
          else files.push(path);
        }
      } else if (entry.isSymbolicLink()) {
        const refusal = await linkRefusal(path, real);
        problems.push({
          message: `${path}: ${refusal ?? 'is a link to a folder; links to folders are not followed.'}`,
          file: path,
        });
      }
    }
  }
  return { files: files.sort(), problems };
}

function isAgentFile(name: string): boolean {
  return /\.(md|json)$/i.test(name) && !/^readme\.md$/i.test(name);
}

/** Why a link is not followed, or undefined for a link to a file inside the folder. */
async function linkRefusal(path: string, real: string): Promise<string | undefined> {
  let target: string;
  try {
    target = await realpath(path);
  } catch {
    return 'is a broken link; not read.';
  }
  const inside = relative(real, target);
  if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside))
    return `is a link to ${target}, outside the agent folder; not followed.`;
  return (await stat(target)).isFile()
    ? undefined
    : 'is a link to a folder; links to folders are not followed.';
}
