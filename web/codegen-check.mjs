// Prints what graphql-codegen makes of codegen.yml now, without writing it: the suite compares it with the
// committed types/graphql.ts (tests/web/test_web_types.py).
import { generate, loadCodegenConfig } from "@graphql-codegen/cli";

const { config } = await loadCodegenConfig({ configFilePath: "codegen.yml" });
const outputs = await generate({ ...config, silent: true }, false);
for (const { filename, content } of outputs) process.stdout.write(`${filename}\n${content}`);
