// Builds the headless CLI (the package's bin) as one Node ESM bundle; dependencies stay external.
import { builtinModules } from 'node:module';
import { readFileSync } from 'node:fs';
import { defineConfig } from 'vite';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const deps = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)];

export default defineConfig({
  build: {
    ssr: true,
    outDir: 'out/cli',
    // Not emptied: tests running elsewhere may be spawning the previous bundle at this moment.
    emptyOutDir: false,
    target: 'node20',
    sourcemap: true,
    minify: false,
    rollupOptions: {
      external: (id) => id.startsWith('node:') || builtinModules.includes(id) || deps.some((d) => id === d || id.startsWith(`${d}/`)),
      // store-writer.js: the history store's writer thread, loaded by the recorder from beside the bundle.
      // web.js: web mode alone (npm start), which prints its URL before loading the rest of the core.
      // sample-worker.js: the threads serve-samples runs heavy sample work on.
      input: {
        index: 'src/main/cli/index.ts',
        'store-writer': 'src/main/history/sqlite/writer/writer-thread.ts',
        // pg-writer.js: a PostgreSQL recorder's writer thread, loaded from beside the bundle likewise.
        'pg-writer': 'src/main/history/postgres/writer-thread/pg-writer-thread.ts',
        'sample-worker': 'src/main/interceptors/samples/worker.ts',
        web: 'src/main/web/main.ts',
        // otel-export.js: the OpenTelemetry export thread, started beside a gateway run with --otlp-endpoint.
        'otel-export': 'src/main/telemetry/export-thread.ts',
        // sdk/host.js: the host SDK that `interceptor-console/host` exports (scaffolded interceptor projects).
        'sdk/host': 'src/main/interceptors/host/index.ts',
      },
      output: { entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js', banner: '#!/usr/bin/env node' },
    },
  },
});
