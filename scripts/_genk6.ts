import { prepareTarget } from '../load/runLoad.js';
import { loadScenario } from '../load/scenario/loadScenario.js';
import { writeK6Script } from '../load/k6/writeK6Script.js';
import { referenceProfile } from '../suites/profile/referenceProfile.js';
const [name, url, out, rate] = process.argv.slice(2) as [string, string, string, string];
const scenario = loadScenario(name, { rate: Number(rate), duration: '3s', warmup: '1s', ...(name === 'mixed' ? {} : {}) });
const profile = referenceProfile();
const prepared = await prepareTarget(url, { scenario, profile, profilePath: null, log: console.log }, '/tmp/k6t/work');
console.log(writeK6Script({ scenario, url, profile, prepared, out, version: 'dev' }));
