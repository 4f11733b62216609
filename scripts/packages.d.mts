// Types of scripts/packages.mjs, for the TypeScript that imports it (test/consumers).

/** The repository's root folder. */
export const root: string;

/** A published package: its folder and its package.json. */
export interface PublishedPackage {
  folder: string;
  manifest: { name: string; version: string; private?: boolean; [field: string]: unknown };
}

/** Every package under packages/ and apps/ that is not `private`, by folder. */
export function publishedPackages(): PublishedPackage[];

/** Packs every published package into `destination` (one pnpm process); they must be built. */
export function packAll(
  destination: string,
): { name: string; version: string; folder: string; tarball: string }[];
