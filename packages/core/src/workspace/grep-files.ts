import type { WorkspaceFileSystem } from './file-system.js';
import { comparePaths, escapeGlob } from './glob-pattern.js';
import type { GrepQuery } from './grep-types.js';

/**
 * The files a search visits, as paths relative to the root, in path order: the target itself, or
 * the files below it (dot files included, symbolic links and ignored directories skipped, the
 * query's glob applied: without `/` it matches file names at any depth below the target, with `/`
 * it is anchored at the workspace root, with a leading `!` it excludes). Not checked to be inside
 * the workspace: the search reads each through the file system's confined `readText`.
 */
export async function listSearchFiles(
  fileSystem: Pick<WorkspaceFileSystem, 'glob'>,
  query: GrepQuery,
): Promise<string[]> {
  if (query.targetIsFile) return [query.targetRelative];
  const prefix = query.targetRelative === '.' ? '' : `${escapeGlob(query.targetRelative)}/`;
  const ignore = query.ignoreDirectories.map((name) => `${prefix}**/${escapeGlob(name)}/**`);
  let patterns = [`${prefix}**/*`];
  let underTarget = false;
  const filter = query.glob;
  if (filter?.startsWith('!')) {
    const excluded = filter.slice(1);
    if (excluded.includes('/')) ignore.push(excluded, `${excluded}/**`);
    else ignore.push(`${prefix}**/${excluded}`, `${prefix}**/${excluded}/**`);
  } else if (filter?.includes('/')) {
    // A glob with a slash is anchored at the workspace root, as ripgrep run from the root anchors it.
    patterns = [filter];
    underTarget = prefix !== '';
  } else if (filter) {
    patterns = [`${prefix}**/${filter}`];
  }
  let files = await fileSystem.glob({ directory: query.root, patterns, ignore, signal: query.signal });
  if (underTarget) files = files.filter((file) => file.startsWith(`${query.targetRelative}/`));
  return files.sort(comparePaths);
}
