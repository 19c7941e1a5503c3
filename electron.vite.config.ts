// Builds the Electron main process, the preload bridge and the React renderer.
// The renderer bundle is also what web mode serves.
import { resolve } from 'node:path';
import { defineConfig, externalizeDepsPlugin } from 'electron-vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  main: {
    plugins: [externalizeDepsPlugin()],
    // store-writer, pg-writer: the history writer threads (SQLite, PostgreSQL), loaded from beside index.js.
    build: {
      rollupOptions: {
        input: {
          index: resolve('src/main/electron/main.ts'),
          'store-writer': resolve('src/main/history/sqlite/writer/writer-thread.ts'),
          'pg-writer': resolve('src/main/history/postgres/writer-thread/pg-writer-thread.ts'),
        },
      },
    },
  },
  preload: {
    plugins: [externalizeDepsPlugin()],
    build: {
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        // Sandboxed preloads cannot be ES modules: emit CommonJS as index.cjs.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src/renderer',
    plugins: [react()],
    // Minified: the bundle is parsed on every start of the window / page (first paint of Traffic < 1 s).
    build: { minify: true, rollupOptions: { input: { index: resolve('src/renderer/index.html') } } },
  },
});
