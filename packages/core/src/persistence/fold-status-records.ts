// Folding the status log moved to `task-documents.ts`, the one home of a task's documents. This
// path still exports it for imports written before the move.
export { applyStatusRecord, foldStatusRecords } from './task-documents.js';
