// The version Beatnik tells the fediverse (NodeInfo) and the User-Agent of its requests: package.json's.
import pkg from '../package.json' with { type: 'json' };

export const BEATNIK_VERSION: string = pkg.version;
