/// <reference types="vitest/config" />
import { defineConfig } from "vite";
import vue from "@vitejs/plugin-vue";
import { fileURLToPath } from "node:url";

const repoData = fileURLToPath(new URL("../data", import.meta.url));

// Tauri expects a fixed port and no screen clearing; the CJK font is read from
// the repository's data/fonts so it is not duplicated into ui/.
export default defineConfig({
  plugins: [vue()],
  clearScreen: false,
  resolve: {
    alias: {
      "@data": repoData,
    },
  },
  define: {
    // vue-i18n: compile messages to an AST at runtime (no eval, works under a strict CSP).
    __INTLIFY_JIT_COMPILATION__: true,
    __INTLIFY_DROP_MESSAGE_COMPILER__: false,
    __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: false,
  },
  server: {
    port: 1420,
    strictPort: true,
    fs: { allow: [fileURLToPath(new URL(".", import.meta.url)), repoData] },
    watch: { ignored: ["**/src-tauri/**"] },
  },
  build: {
    outDir: "dist",
    target: "es2022",
    chunkSizeWarningLimit: 3000,
  },
  test: {
    testTimeout: 20000,
    environment: "happy-dom",
    include: ["src/**/*.test.ts"],
    setupFiles: ["src/test/setup.ts"],
    // Node cannot import the CSS files Element Plus's per-component styles point to.
    alias: [{ find: /^element-plus\/es\/components\/[a-z-]+\/style\/css$/, replacement: fileURLToPath(new URL("src/test/no-style.ts", import.meta.url)) }],
  },
});
