import { relative, sep } from 'node:path';
import { escapePath, glob } from 'tinyglobby';
import type { GrepQuery } from './grep-types.js';
import { comparePaths } from './path-order.js';

/**
 * The files a search visits, as paths relative to the root, in path order: the target itself, or
 * the files below it (dot files included, symbolic links and ignored directories skipped, the
 * query's glob applied). Not checked to be inside the workspace: both search engines read only
 * these, and each file through a confined open (`openConfined`), which skips a file that leads outside.
 */
export async function listSearchFiles(query: GrepQuery): Promise<string[]> {
  const toRoot = (path: string) => path.split(sep).join('/');
  if (query.targetIsFile) return [toRoot(relative(query.root, query.target))];
  const prefix = query.targetRelative === '.' ? '' : `${escapePath(query.targetRelative)}/`;
  const ignore = query.ignoreDirectories.map((name) => `${prefix}**/${escapePath(name)}/**`);
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
  let files = await glob(patterns, {
    cwd: query.root,
    dot: true,
    onlyFiles: true,
    followSymbolicLinks: false,
    ignore,
    signal: query.signal,
  });
  if (underTarget) files = files.filter((file) => file.startsWith(`${query.targetRelative}/`));
  // A pattern may walk through a linked directory: such files are not checked here but skipped
  // when opened, since every engine opens through a verified parent directory.
  return files.sort(comparePaths);
}
