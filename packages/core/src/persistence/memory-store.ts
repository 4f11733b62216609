// The memory store is built over the storage port in `store/`; kept here for its importers.
export { createMemoryStore } from '../store/memory-store.js';
