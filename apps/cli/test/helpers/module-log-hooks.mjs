// Module hooks that append every resolved URL to a log file (see startup.test.ts).
import { appendFileSync } from 'node:fs';

let log;

export function initialize(data) {
  log = data.log;
}

export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(log, `${result.url}\n`);
  return result;
}
