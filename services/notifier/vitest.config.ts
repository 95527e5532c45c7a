import { serviceTestConfig } from '../vitest.shared.mjs';

export default serviceTestConfig;
