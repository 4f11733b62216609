// Vitest global setup of the browser project: server-everything over Streamable HTTP, started in
// Node for the browser tests to reach (it allows any origin), and stopped after them.
import type { TestProject } from 'vitest/node';
import { startEverythingHttp } from './servers.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Streamable HTTP URL of server-everything, for `*.browser.test.ts`. */
    mcpEverythingUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startEverythingHttp();
  project.provide('mcpEverythingUrl', server.url);
  return () => server.stop();
}
