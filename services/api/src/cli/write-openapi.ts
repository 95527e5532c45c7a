/**
 * Writes the api's OpenAPI document to the file named by the first argument:
 * `npm run -w @tierwise/api openapi` refreshes the committed services/api/openapi.json (the
 * contract the SDK is generated from). test/api.http.spec.ts fails while the committed file
 * differs from the document the api serves.
 * The application is created in preview mode: no provider runs, so no database or
 * environment is needed.
 */
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../app.module.js';
import { buildOpenApiDocument } from '../openapi.js';

const [target] = process.argv.slice(2);
if (!target) {
  process.stderr.write('usage: node dist/cli/write-openapi.js <file>\n');
  process.exit(2);
}
const app = await NestFactory.create(AppModule, { preview: true, logger: false });
writeFileSync(target, `${JSON.stringify(await buildOpenApiDocument(app), null, 2)}\n`);
await app.close();
