// ESLint flat config (typescript-eslint): rules the code already follows, as a quality gate of
// `npm test` (`pnpm lint:es`). A disable comment must give its reason on the same line
// (`-- why`), enforced by the eslint-comments rule below.
import comments from "@eslint-community/eslint-plugin-eslint-comments/configs";
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/dist/**",
      "**/dist-hardhat/**",
      "artifacts/**",
      "cache/**",
      "coverage/**",
      "typechain-types/**",
      "indexer/generated/**",
      "indexer/.ponder/**",
      "packages/contracts/src/generated/**",
      "packages/contracts/typechain/**",
      "packages/web/dist/**",
      "out/**",
      "**/*.d.ts",
      "**/*.d.mts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  comments.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        Buffer: "readonly",
        URL: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
        setImmediate: "readonly",
        performance: "readonly",
        fetch: "readonly",
        Response: "readonly",
        Request: "readonly",
        Headers: "readonly",
        AbortController: "readonly",
        AbortSignal: "readonly",
        TextEncoder: "readonly",
        TextDecoder: "readonly",
        structuredClone: "readonly",
        queueMicrotask: "readonly",
        globalThis: "readonly",
        document: "readonly",
        window: "readonly",
        navigator: "readonly",
        location: "readonly",
        HTMLElement: "readonly",
        crypto: "readonly",
      },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
      "no-empty": ["error", { allowEmptyCatch: false }],
      // The protocol's canonical JSON escapes U+0000..U+001F: control characters in patterns are its subject.
      "no-control-regex": "off",
      "@eslint-community/eslint-comments/require-description": ["error", { ignore: [] }],
      "@eslint-community/eslint-comments/disable-enable-pair": ["error", { allowWholeFile: true }],
    },
  },
  {
    files: ["**/*.cjs"],
    languageOptions: {
      sourceType: "commonjs",
      globals: { module: "writable", require: "readonly", __dirname: "readonly" },
    },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // No function over 150 lines outside tests (issue 14): a longer one is modules waiting to be split.
    // Blank lines and comments do not count.
    files: ["**/*.{ts,tsx,mts,js,mjs,cjs}"],
    ignores: ["**/test/**", "**/*.test.ts"],
    rules: {
      "max-lines-per-function": ["error", { max: 150, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // Tests may reach into untyped JSON and mocks.
    files: ["**/test/**", "**/bench/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
);
