// Preload: logs every module the process resolves to the file in MODULE_LOG.
import { register } from 'node:module';

register('./module-log-hooks.mjs', import.meta.url, { data: { log: process.env.MODULE_LOG } });
