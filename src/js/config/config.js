// The config family: fromConfig(), what a model's config.json says about its
// positions. The reading itself is the runtime's (../runtime/config-read.js),
// shared with rope's `config` option.
import { configReader } from '../runtime/config-read.js';

/** The config family's public method: fromConfig. */
export function configMethods(runtime) {
  return { fromConfig: configReader(runtime).fromConfig };
}
