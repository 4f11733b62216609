import { SCHEMA_VERSION, type StoreWarning } from '@troupe/core';

/**
 * Checks a stored document's schema version. An unknown version or a value that is not a
 * document becomes a warning naming `where`, and undefined.
 */
export function readDocument<TDocument>(
  value: unknown,
  where: string,
  warnings: StoreWarning[],
): TDocument | undefined {
  if (!value || typeof value !== 'object') {
    warnings.push({ code: 'PERSISTENCE_CORRUPT', message: `${where}: not a document.` });
    return undefined;
  }
  const version = (value as { v?: unknown }).v;
  if (version !== SCHEMA_VERSION) {
    warnings.push({
      code: 'PERSISTENCE_VERSION',
      message: `${where}: schema version ${JSON.stringify(version)} is not one this troupe reads (${SCHEMA_VERSION}).`,
    });
    return undefined;
  }
  return value as TDocument;
}
