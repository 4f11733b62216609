// The public API of @troupe/browser.
export { createOpfsTools } from './tools/create-opfs-tools.js';
export { createFetchTool, type FetchToolOptions } from './tools/fetch-tool.js';
export { OpfsWorkspace, openOpfsWorkspace, type WorkspaceFile } from './tools/opfs-workspace.js';
