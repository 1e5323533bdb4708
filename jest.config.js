/**
 * Four projects, each runnable alone (`--selectProjects`):
 * - unit: pure code (the scripts' helpers too) and loopback HTTP against the simulator; seconds, no database.
 * - storefront: the storefront kit (storefront/), its functions over a fake fetch and its hooks.
 * - integration: a real Medusa app on a real PostgreSQL (medusaIntegrationTestRunner).
 * - browser: headless Chromium from Debian's package driving the simulator and the demo.
 * The transform and the --experimental-vm-modules flag follow medusa-starter-default.
 */
const { loadEnv } = require("@medusajs/framework/utils")
loadEnv("test", process.cwd())

const transform = {
  "^.+\\.[jt]sx?$": [
    "@swc/jest",
    { jsc: { parser: { syntax: "typescript", tsx: true, decorators: true }, target: "es2021" } },
  ],
}

const common = {
  transform,
  testEnvironment: "node",
  moduleFileExtensions: ["js", "ts", "tsx", "json"],
  modulePathIgnorePatterns: ["<rootDir>/.medusa/", "<rootDir>/dist/"],
}

module.exports = {
  projects: [
    {
      ...common,
      displayName: "unit",
      testMatch: ["<rootDir>/src/**/__tests__/**/*.spec.[jt]s", "<rootDir>/scripts/**/__tests__/**/*.spec.[jt]s"],
    },
    {
      ...common,
      displayName: "storefront",
      testMatch: ["<rootDir>/storefront/src/**/__tests__/**/*.spec.ts"],
      modulePathIgnorePatterns: [...common.modulePathIgnorePatterns, "<rootDir>/storefront/dist/"],
      // The kit is an ES module package: its imports name the compiled file (./client.js); tests run the .ts source.
      moduleNameMapper: { "^(\\.{1,2}/.*)\\.js$": "$1" },
    },
    {
      ...common,
      displayName: "integration",
      testMatch: ["<rootDir>/integration-tests/**/*.spec.[jt]s"],
      globalSetup: "<rootDir>/integration-tests/setup/global-setup.js",
      globalTeardown: "<rootDir>/integration-tests/setup/global-teardown.js",
      // Fails a suite whose output holds a secret it handled (docs/testing.md).
      setupFilesAfterEnv: ["<rootDir>/integration-tests/setup/secrets-guard.ts"],
    },
    {
      ...common,
      displayName: "browser",
      testMatch: ["<rootDir>/browser-tests/**/*.spec.[jt]s"],
      setupFilesAfterEnv: ["<rootDir>/integration-tests/setup/secrets-guard.ts"],
    },
  ],
}
