import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import path from 'node:path';

// The board is served by the core at `/` and loaded from disk by Electron, so asset URLs are relative.
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  plugins: [react()],
  build: {
    outDir: path.resolve(import.meta.dirname, '../dist/renderer'),
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 1500,
    // On a busy CI machine the timing report fires on every build and says nothing about the output.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  server: { port: 5173, strictPort: true },
});
