/** Forward slashes, one between parts, `.` and `..` resolved; undefined when `..` climbs above the start. */
function normaliseSegments(path: string): string[] | undefined {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(part);
  }
  return parts;
}

/** A root as `{ prefix, parts }`: `/` or a drive (`c:/`), then its normalised parts. */
function splitAbsolute(path: string): { prefix: string; parts: string[] } | undefined {
  const drive = /^([A-Za-z]):\//.exec(path);
  const prefix = drive ? `${drive[1]!.toLowerCase()}:/` : path.startsWith('/') ? '/' : undefined;
  if (prefix === undefined) return undefined;
  const parts = normaliseSegments(path.slice(drive ? 3 : 1));
  return parts === undefined ? undefined : { prefix, parts };
}

/**
 * The workspace-relative form of a path a file tool was given, as permission rules match it:
 * backslashes read as separators, duplicate slashes and `.` dropped, `..` resolved. An absolute
 * path counts when it lies under `root` (a Windows drive letter in any case); a relative one is
 * taken from the root. Undefined when the path is empty or leaves the root, so that it matches
 * no rule: a path rule only ever speaks about files inside the workspace.
 */
export function workspaceRelativePath(raw: string, root: string | undefined): string | undefined {
  const path = raw.trim().replace(/\\/g, '/');
  if (path === '') return undefined;
  const absolute = splitAbsolute(path);
  if (!absolute) {
    const parts = normaliseSegments(path);
    if (parts === undefined) return rootRelative(path, root);
    return parts.join('/');
  }
  const base = root === undefined ? undefined : splitAbsolute(root.trim().replace(/\\/g, '/'));
  if (!base || base.prefix !== absolute.prefix) return undefined;
  const windows = base.prefix !== '/';
  const same = (a: string, b: string) => (windows ? a.toLowerCase() === b.toLowerCase() : a === b);
  if (absolute.parts.length < base.parts.length) return undefined;
  for (const [index, part] of base.parts.entries()) if (!same(part, absolute.parts[index]!)) return undefined;
  return absolute.parts.slice(base.parts.length).join('/');
}

/** A relative path that climbs out with `..` counts only when it comes back into the root. */
function rootRelative(path: string, root: string | undefined): string | undefined {
  if (root === undefined) return undefined;
  const base = root.trim().replace(/\\/g, '/').replace(/\/+$/, '');
  return splitAbsolute(base) ? workspaceRelativePath(`${base}/${path}`, root) : undefined;
}
