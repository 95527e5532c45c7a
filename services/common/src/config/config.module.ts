import { type DynamicModule, Inject, Module } from '@nestjs/common';
import { type EnvName, loadEnv } from './env.js';

/** Injection token of the validated environment ({@link Env}). */
export const TIERWISE_ENV = Symbol('TIERWISE_ENV');

/** Parameter decorator injecting the validated environment: `@InjectEnv() env: Env<'TIERWISE_API_PORT'>`. */
export const InjectEnv = (): ParameterDecorator => Inject(TIERWISE_ENV);

/**
 * Global module providing the validated TIERWISE_* variables a service needs.
 * The variables are read when the application is created (not when this module is imported),
 * so building the OpenAPI document in preview mode needs no environment.
 */
@Module({})
export class EnvModule {
  static forRoot(names: readonly EnvName[]): DynamicModule {
    return {
      module: EnvModule,
      global: true,
      providers: [{ provide: TIERWISE_ENV, useFactory: () => loadEnv(names) }],
      exports: [TIERWISE_ENV],
    };
  }
}
