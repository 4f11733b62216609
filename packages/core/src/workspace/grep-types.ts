/** One output line of a content search: a matching line or a context line around one. */
export interface GrepLine {
  /** 1-based line number. */
  line: number;
  /** The line's text without its line ending. */
  text: string;
  /** A matching line (`true`) or a context line (`false`). */
  match: boolean;
}

/** What a search found in one file. */
export interface GrepFileResult {
  /** Path relative to the workspace root, `/`-separated. */
  path: string;
  /** Number of matching lines. */
  count: number;
  /** Matching and context lines in line order (content mode only; empty otherwise). */
  lines: GrepLine[];
}

/** A search, resolved and validated, as both search engines take it. */
export interface GrepQuery {
  /** The resolved root (`WorkspaceFileSystem.rootPath`); engines report paths relative to it. */
  root: string;
  /** Resolved path of the file or directory to search. */
  target: string;
  /** `target` relative to the root (`.` for the root). */
  targetRelative: string;
  targetIsFile: boolean;
  pattern: string;
  ignoreCase: boolean;
  /** File filter: a glob, or `!glob` to exclude. Without `/` it matches file names at any depth. */
  glob?: string;
  mode: 'content' | 'files_with_matches' | 'count';
  before: number;
  after: number;
  /** Directory names never descended into (below the search target). */
  ignoreDirectories: readonly string[];
  /** Longest the JavaScript engine may run the pattern on one block of text, in ms. */
  patternTimeoutMs: number;
  /** Most lines kept per file in content mode (the output cannot show more anyway). */
  maxLinesPerFile: number;
  signal: AbortSignal;
}

/**
 * Receives file results in path order (see `comparePaths`). Returns `false` when it has enough,
 * after which the engine stops searching.
 */
export type GrepSink = (result: GrepFileResult) => boolean;

/** A search engine: calls `sink` with each file that has matches, in path order. */
export type GrepEngine = (query: GrepQuery, sink: GrepSink) => Promise<void>;
