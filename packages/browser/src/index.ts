// The public API of @troupe/browser.

export {
  createIndexedDbStore,
  type IndexedDbStore,
  type IndexedDbStoreOptions,
} from './store/indexeddb-store.js';
export { createOpfsTools } from './tools/create-opfs-tools.js';
export { createFetchTool, type FetchToolOptions } from './tools/fetch-tool.js';
export { OpfsWorkspace, openOpfsWorkspace } from './tools/opfs-workspace.js';
